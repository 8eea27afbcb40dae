"""The hidden-rule benchmark: copies of the spec with one rule weakened, and whether discovery
brings the rule back.

Each copy keeps the texts and weakens one part of one of the spec's base rules (one the played
profile's readings do not replace), in one of the ways a careless transcription would: a
condition of an `and` left out, a helper part left out (`true`), a strict comparison made
non-strict. Discovery on the copy brings the rule back when

- **killed**: the copy's own rules fail a question of the texts (oracle.py) or a play invariant
  that cites a clause: that clause is named, as the mutation analysis names it for a mutant (one
  the weakened rule cites, or another: `Hidden.own_clause` says which); or
- **silence**: a mutant of the copy's rules (operators.py) states the spec's rule again, and the
  classification calls it a silence or already asked: the changed reading of the rule's clauses
  shows up as a question.

Otherwise the rule escapes, and `Hidden.why` says why: no operator makes the rule again (the
operators add conditions on a name against a constant, not between two names), or the mutant that
does is equivalent on the copy (the weakening changes no play: the rule's part was dead there).
A weakening that changes nothing at the table is counted apart (`Hidden.dead`): no difference
over the bounded domain, or one no table shows (witness.py), as for a mutant.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ....spec import Spec, SpecError
from ....spec.lang import schema as S
from ....spec.lang.compile import RuleDef, RuleError
from ....spec.lang.rulebook import Rulebook
from ....spec.lang.syntax import Binary, Bool, BoolOp, Name, Node, unparse
from ....spec.words import words_of
from ....spec.words_model import Words
from ...impact.witnesses import WORDS as WITNESS_WORDS
from .classify import NAME, Budget, _differs, _modelled, classify, kill_words, killed_by
from .operators import RuleMutant, _parts, _positions, _put, _with_part, mutant_ruleset, mutants
from .witness import rule_witness

_LOOSER = {">": ">=", "<": "<="}


@dataclass(frozen=True)
class Hidden:
    """One weakened copy: what was weakened, and how (or whether) discovery brought it back."""

    rule: str
    part: str
    weakened: str  # the part's expression on the copy
    back: str | None  # "killed" or "silence" (None: it escapes)
    why: str
    dead: bool = False  # the weakening changes no play under the played rules
    #: whether the clause that brings it back is one the weakened rule cites (a silence is about
    #: the rule itself, so it names the rule's clauses)
    own_clause: bool = True


def weakenings(rule: RuleDef) -> Iterator[tuple[str, Node]]:
    """Every weakening of the rule's parts: a condition of an `and` left out, a helper left out, a
    strict comparison made non-strict."""
    for part, root in _parts(rule):
        for path, node in _positions(root):
            if isinstance(node, BoolOp) and node.op == "and":
                for i in range(len(node.items)):
                    rest = node.items[:i] + node.items[i + 1 :]
                    yield part, _put(root, path, rest[0] if len(rest) == 1 else BoolOp(node.col, "and", rest))
            if isinstance(node, Binary) and node.op in _LOOSER:
                yield part, _put(root, path, Binary(node.col, _LOOSER[node.op], node.left, node.right))
            helper = isinstance(node, Name) and node.id not in S.SLOTS[rule.does].parts
            if helper and isinstance(node, Name) and isinstance(rule.part(node.id), Node):
                yield part, _put(root, path, Bool(node.col, True))


def copies(spec: Spec) -> Iterator[tuple[Spec, RuleDef, str, Node]]:
    """Every weakened copy of the spec: its base rules with one part weakened where the default
    profile's readings leave the part as the base rules state it."""
    book = spec.rulebook
    if book is None:
        return
    played = spec.ruleset()
    in_force = {r.id: r for r in played.rules}
    for index, rule in enumerate(book.rules):
        for part, tree in weakenings(rule):
            original = dict(_parts(rule))[part]
            if dict(_parts(in_force[rule.id])).get(part) != original:
                continue  # a reading of the profile replaces this part
            rules = (*book.rules[:index], _with_part(rule, part, tree), *book.rules[index + 1 :])
            copy = replace(spec, rulebook=Rulebook(rules, book.fragments))
            yield copy, rule, part, tree


def _killed(copy: Spec, budget: Budget, seed: int, words: Words) -> tuple[str | None, str] | None:
    """(the clause, why) where the copy's own rules fail a question of the texts or a play
    invariant that cites a clause (classify.killed_by); (None, why) where they cannot be played."""
    say = words.check(NAME)
    try:
        kill = killed_by(copy.ruleset(), budget, seed)
    except (SpecError, RuleError) as error:
        return None, say("cannot_be_played", error=error)
    if kill is None or kill.clause is None:
        return None
    return kill.clause, say("fails_clause", clause=kill.clause, why=kill_words(kill, words))


def hidden_rule(
    spec: Spec, copy: Spec, rule: RuleDef, part: str, tree: Node, budget: Budget, seed: int
) -> Hidden:
    """Whether discovery on `copy` brings `rule`'s `part` back (see the module's docstring)."""
    words = words_of(spec)
    say = words.check(NAME)
    weakened = unparse(tree)
    played, on_copy = spec.ruleset(), copy.ruleset()
    kill = _killed(copy, budget, seed, words)
    if kill is not None and kill[0] is None:
        return Hidden(rule.id, part, weakened, None, say("the_copy", why=kill[1]))
    as_mutant = RuleMutant(rule.id, part, "weakened", "", weakened, tree)
    if not _differs(played, on_copy, as_mutant, _modelled(played, as_mutant), budget, seed)[0]:
        return Hidden(rule.id, part, weakened, None, say("changes_no_play"), dead=True)
    if (
        kill is None
        and rule_witness(played, on_copy, ("rules", "copy"), seed, say=words.check(WITNESS_WORDS)) is None
    ):
        # As for a mutant: a difference no table shows lies where play does not go.
        return Hidden(
            rule.id, part, weakened, None, say("weakening_unseen", no_table=say("no_table")), dead=True
        )
    if kill is not None:
        clause, why = kill
        return Hidden(
            rule.id,
            part,
            weakened,
            "killed",
            say("the_copy", why=why),
            own_clause=clause in _cites(spec, rule.id),
        )
    # The mutants of the weakened rule that state the spec's rule again: the same rules, or the
    # same decisions over the bounded domain.
    verdicts = []
    for m in mutants(on_copy):
        # A mutant of the weakened part (the part that names a weakened helper is the helper's
        # own mutant's part too): only those can state the rule again.
        if m.rule != rule.id or m.part != part:
            continue
        changed = mutant_ruleset(on_copy, m)
        if (
            changed.rules_digest != played.rules_digest
            and _differs(played, changed, m, _modelled(played, m), budget, seed)[0]
        ):
            continue
        verdict = classify(copy, on_copy, m, budget, seed)
        if verdict.verdict in ("silence", "already_asked"):
            return Hidden(rule.id, part, weakened, "silence", f"{m.operator}: {m.after}")
        verdicts.append(verdict)
    if not verdicts:
        return Hidden(rule.id, part, weakened, None, say("not_made_again"))
    seen = "; ".join(
        say("made_again_one", operator=v.mutant.operator, after=v.mutant.after, verdict=v.verdict, why=v.why)
        for v in verdicts
    )
    return Hidden(rule.id, part, weakened, None, say("made_again", mutants=seen))


def _cites(spec: Spec, rule_id: str) -> tuple[str, ...]:
    return next((r.cites for r in spec.rules if r.id == rule_id), ())


def hidden_rule_recall(spec: Spec, budget: Budget, seed: int) -> list[Hidden]:
    return [
        hidden_rule(spec, copy, rule, part, tree, budget, seed) for copy, rule, part, tree in copies(spec)
    ]
