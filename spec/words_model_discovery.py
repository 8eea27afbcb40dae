"""The words of the discovery checks' own sections: liveness (the properties and their
failures), interactions (rules that meet), decisions (the engine's own choices where the texts are
silent), and mutations of the engine and of the rules; with the blanks each template may use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .words_text import Side, _Blanks

#: The blanks of the liveness section: a property's scope, a failed property's words, and the
#: words of a match that can go on forever.
LIVENESS_SCOPE_BLANKS = frozenset(
    {
        "players",
        "spec_players",
        "combinations",
        "rulesets",
        "deals",
        "states",
        "cases",
        "score",
        "p_min",
        "rounds",
        "points",
        "tables",
        "tables_plain",
        "varied",
    }
)
#: The blanks of the liveness section's `tables` words: `scope`'s, and a table's.
LIVENESS_TABLES_SCOPE_BLANKS = frozenset({"rulesets", "tables", "states"})
LIVENESS_TABLE_BLANKS = frozenset({"players", "cards", "deals", "classes", "merged", "part"})
LIVENESS_FAILED_BLANKS = frozenset({"statement", "counterexample"})
#: The blanks of a property's own `failed` words: its statement, the readings of the counterexample
#: by their plain names, and the facts a counterexample of the deal or the closing sizes holds.
LIVENESS_PROPERTY_FAILED_BLANKS = LIVENESS_FAILED_BLANKS | frozenset(
    {
        "readings",
        "players",
        "deck",
        "hand_size",
        "cards_needed",
        "copies",
        "set_closing_size",
        "largest_pile",
        "run_closing_size",
        "longest_run",
    }
)
#: What a failed property may be, besides "a trick, round or match may not end" (liveness): a table
#: the rules cannot deal (gap) or a closing rule that can never apply (dead_clause).
LIVENESS_FAILED_KINDS = ("liveness", "gap", "dead_clause")
LIVENESS_MATCH_END_BLANKS = frozenset({"zero_ranks", "players", "cards", "moves", "score"})
#: The blanks of the interactions section's templates (checks/discovery/interactions/check.py).
INTERACTION_BLANKS = frozenset({"rules", "moment", "decisions", "plays", "differ", "clauses", "reading"})
#: The blanks of the interactions section's `scope`: the deals explored, their player counts and
#: the most cards a deal holds.
INTERACTION_SCOPE_BLANKS = frozenset({"deals", "players", "cards", "built", "built_players"})
#: The blanks of a mutant's description (the `mutations` section): the data its name carries.
MUTATION_BLANKS = frozenset({"kind", "made", "action", "players", "rank", "reason"})
#: The blanks of the detail of a silence a mutant of the rules finds (`rule_mutations.texts`).
RULE_MUTATION_BLANKS = frozenset({"name", "operator", "players", "found"})
#: The blanks of the texts of a silence a mutant finds (`mutations.texts`).
MUTATION_TEXT_BLANKS = frozenset({"description", "players", "found", "invariant"})


@dataclass(frozen=True)
class LivenessFailed:
    """What a failed property is (LIVENESS_FAILED_KINDS), its finding's title and detail, and the
    counterexample as its witness tells it under the readings that make it (templates:
    LIVENESS_PROPERTY_FAILED_BLANKS)."""

    kind: str
    title: str
    detail: str
    table: str


@dataclass(frozen=True)
class LivenessProperty:
    """A liveness or well-definedness property in words: what it says, over what it holds (a
    template: LIVENESS_SCOPE_BLANKS), and, where its failure is not a game that may never end, what
    its failure is (None: the section's `failed` words, as liveness)."""

    statement: str
    scope: str
    failed: LivenessFailed | None = None
    #: The scope in a designer's words, for the report's own pages ("" where the appendix's does).
    plain_scope: str = ""


@dataclass(frozen=True)
class LivenessTables:
    """The words of the small tables every deal of which level deep explores: added to the state
    properties' scope (LIVENESS_TABLES_SCOPE_BLANKS), a table whose ranks were merged and one
    whose were not (LIVENESS_TABLE_BLANKS), and what joins the tables."""

    scope: str
    checked: str
    changed: str  # blank: {count}
    table: str
    unmerged: str
    stopped: str  # blanks: {table}, {limit}
    one_card: str
    cards: str  # blank: {most}
    join: str
    #: A table in a designer's words (blanks: {players}, {cards}, {deals}, {too_few}) and what joins
    #: them.
    plain_table: str = ""
    plain_join: str = ""
    #: The {too_few} blank of `plain_table` where a table's cards are too few for a pile to reach
    #: the size that ends a trick (blanks: {total} cards in all, {piles}: `too_few_runs`,
    #: `too_few_sets` or, both, `too_few_piles`), so that its scope does not read larger than it
    #: is; "" otherwise.
    too_few: str = ""
    too_few_runs: str = ""
    too_few_sets: str = ""
    too_few_piles: str = ""
    #: Which questions' answers the rulesets change (blanks: {count} questions, {left} the titles of
    #: those left as played): the {varied} blank of `changed` and of the properties' scopes.
    varied: str = ""


@dataclass(frozen=True)
class LivenessWords:
    """The words of the liveness check (the `liveness` section): every property it states, and the
    title and detail of its findings (a property that fails; a match that can go on forever)."""

    properties: Mapping[str, LivenessProperty]
    failed_title: str
    failed_detail: str
    match_end_title: str
    match_end_detail: str
    tables: LivenessTables


@dataclass(frozen=True)
class InteractionWords:
    """The words of the rule-interaction check (the `interactions` section): the words of the texts
    that say a rule acts at once, per language, and the templates of its notes, proved properties
    and findings (INTERACTION_BLANKS)."""

    at_once: Mapping[str, tuple[str, ...]]
    same: str
    dead: str
    dead_follows: str
    #: added to `dead` where another reading lets the rules meet ({reading})
    elsewhere: str
    unevaluated: str
    fixed_needs: str
    fixed_at_once: str
    silence_title: str
    silence_detail: str
    #: an order the texts fix, as the report's list of what the texts settle says it: the change
    #: (another order), and what it changes where the order is fixed by a rule acting at once or by
    #: a decision computed from another.
    settled_change: str
    settled_at_once: str
    settled_needs: str
    #: over what its `same` and `dead` results hold: the deals explored (INTERACTION_SCOPE_BLANKS).
    scope: str
    #: what a rule decides (the engine's vocabulary of decisions, engine/state.py), in plain words:
    #: the `decisions` blank of the templates.
    decisions: Mapping[str, str]
    #: over what a `dead` result the solver proved holds ({players}); "" where the file has none
    #: (such a result then keeps the explored scope).
    apart_scope: str = ""
    #: a rule about one type of pile as the interactions name it ({name}, {kind}): what its applying
    #: to a play means (the play leaves that type of pile); "" names it by {name} alone.
    kind_rule: str = ""
    #: the appendix's tables of interactions: a heading sentence per form (same, apart, dead,
    #: follows) and where a row holds (`where_same`, `where_dead`; INTERACTION_BLANKS). Without
    #: them each interaction is listed as its own sentence.
    groups: Mapping[str, str] = field(default_factory=dict)
    where_same: str = ""
    where_dead: str = ""
    #: added to a `same` result where another reading ({reading}) makes the order change an
    #: outcome, and what the order does where rules meet under another reading: "same", "fixed"
    #: (the texts fix it: {clauses}) or "open". Without them the result is said under the readings
    #: played alone.
    same_elsewhere: str = ""
    meets_order: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DecisionWords:
    """One decision the reference engine takes where the texts are silent (the `decisions` section):
    the question, what the engine does and the other choice (each a label and plain words), why, the
    nearest clauses, the public hook of Game that implements it (None: none does), the engine variant
    of checks/discovery/decisions.py that plays the other choice (None: no hook can express it, for
    `reason`), the readings under which the two can differ at all, and the player counts it is about
    (empty: any)."""

    id: str
    title: str
    ask: Mapping[str, str]
    engine: Side
    other: Side
    why: str
    clauses: tuple[str, ...]
    hook: str | None
    variant: str | None
    reason: str | None
    evidence: tuple[str, ...] = ()
    under: Mapping[str, str] = field(default_factory=dict)
    players: tuple[int, ...] = ()
    #: high/medium/low where the decision's reach says more than severities.by_kind (None: that).
    severity: str | None = None
    #: the evidence the engine's choice departs from: cited, but never as settling the question.
    departs_from: tuple[str, ...] = ()
    #: why the engine's answer is the one proposed, in a designer's words (None: not said).
    grounds: str | None = None


@dataclass(frozen=True)
class MutationWords:
    """The words of one family of engine mutants (the `mutations` section), by the public hook of
    Game they change: the title of the question a silence of that hook raises, the clauses nearest
    to it, a description of each operator (English, blanks MUTATION_BLANKS), and the sentence that
    settles the question in the engine's favour in every language."""

    hook: str
    title: str
    clauses: tuple[str, ...]
    operators: Mapping[str, str]
    wording: Mapping[str, str]

    def describe(self, operator: str, values: Mapping[str, str]) -> str:
        return self.operators[operator].format_map(_Blanks(values))


@dataclass(frozen=True)
class RuleWords:
    """One rule in words (`rule_mutations.rules`): the title of the question its silences raise,
    and the sentence that states it fully in every language (blanks: NUMBER_BLANKS, filled)."""

    title: str
    wording: Mapping[str, str]
    name: str | None = None  # the rule in a sentence ("a set ending the trick")


@dataclass(frozen=True)
class RuleMutationWords:
    """What a silence found by a mutant of the rules says (`rule_mutations`): the two sides'
    labels, the finding's detail (RULE_MUTATION_BLANKS), each operator in words, and the rules in
    words by their id."""

    printed: str
    mutant: str
    detail: str
    operators: Mapping[str, str]
    rules: Mapping[str, RuleWords]


@dataclass(frozen=True)
class MutationTexts:
    """What a silence found by a mutant says (`mutations.texts`): the labels of its two sides, its
    detail, the sentence added when only an unwritten invariant catches the mutant, how its impact
    compares, the words for where the difference was found (deal, tricks, matches), and the
    unwritten rule each invariant that encodes one stands for."""

    engine: str
    mutant: str
    detail: str
    invariant: str
    method: str
    found: Mapping[str, str]
    invariants: Mapping[str, str]  # invariant id -> the unwritten rule it encodes, in plain words

    def fill(self, which: str, /, **blanks: str) -> str:
        text: str = getattr(self, which)
        return text.format_map(_Blanks(blanks))
