"""The hidden-point benchmark: how many of the spec's variation points discovery finds on its own.

For each variation point P in turn, a copy of the spec without P (`Spec.without_point`: P's default
reading hard-wired, so every ruleset still gives it to the engine) is put to the mutation analysis
(silences.discover). P *comes back* when one of the silences found on that copy is the question P
asks, by this strict test: the silence's mutant plays like the engine under P's other reading
(silences.plays_like: every hook answer equal at every player count, or, where both change the
same hook answers, no difference in the same first deals, short tricks and seeded matches). A
silence that is merely about the same hook does not count.

A point escapes when no mutant plays like its other reading, or when the ones that do are killed
by a clause (the text decides it after all), already asked (another declared point's question) or
equivalent: their play never differs from the engine's under the played rules, so the point's own
readings play alike there and no silence can be about it (`Hidden.escaped_as` says which).

A mutant's trial (its hook answers, the text-derived oracle, its first divergence from the engine)
never depends on which points a spec declares, and is remembered across the copies: only the last
step of the classification, "already asked", is run again for each.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...spec import Ruleset, Spec, SpecError
from ...spec.words import words_of
from ...spec.words_model import CheckWords
from ..impact.witnesses import WORDS as WITNESS_WORDS
from .mutants import MUTANTS
from .silences import BUDGETS, Budget, discover, plays_like


@dataclass(frozen=True)
class Hidden:
    """One hidden point: the silences that bring it back (mutant names; empty: it escapes) and,
    when it escapes, the mutants that play like its other reading and what became of them."""

    point: str
    back: tuple[str, ...]
    escaped_as: tuple[tuple[str, str], ...] = ()  # (mutant, verdict) of look-alikes that are no silence

    @property
    def recovered(self) -> bool:
        return bool(self.back)


@dataclass(frozen=True)
class Recall:
    points: tuple[Hidden, ...]
    mutants: int

    @property
    def recovered(self) -> int:
        return sum(1 for h in self.points if h.recovered)

    def lines(self, say: CheckWords) -> list[str]:
        """The recall in the words of discovery.mutants (`say`): the count, then each point."""
        out = [say("recall", found=self.recovered, points=len(self.points), mutants=self.mutants)]
        for h in self.points:
            if h.recovered:
                out.append(say("back", point=h.point, mutants=", ".join(h.back)))
            else:
                why = ", ".join(f"{m} ({v})" for m, v in h.escaped_as) or say("no_look_alike")
                out.append(say("escapes", point=h.point, why=why))
        return out


def _others(spec: Spec, ruleset: Ruleset, point: str) -> list[Ruleset]:
    vp = spec.variation_points[point]
    out = []
    for reading in vp.playable:
        if reading != ruleset.reading(point):
            try:
                out.append(spec.with_readings(ruleset, {point: reading}))
            except SpecError:
                continue
    return out


def hidden_point_recall(
    spec: Spec,
    ruleset: Ruleset | None = None,
    *,
    budget: Budget = BUDGETS["ci"],
    seed: int = 0,
    names: tuple[str, ...] | None = None,
) -> Recall:
    """Hide each variation point of `spec` in turn and count those discovery brings back."""
    full = ruleset or spec.ruleset()
    chosen = tuple(MUTANTS) if names is None else names
    hidden: list[Hidden] = []
    for point in spec.variation_points:
        copy = spec.without_point(point)
        played = copy.ruleset(full.profile)
        others = _others(spec, full, point)
        say = words_of(spec).check(WITNESS_WORDS)
        found = discover(copy, played, chosen, budget, seed)
        back = []
        escaped = []
        for outcome in found.outcomes:
            if not outcome.trial.changed and outcome.trial.kill is None:
                continue  # no hook answer differs from the engine's: it plays like no other reading
            if any(plays_like(played, outcome.name, other, budget, seed, say=say) for other in others):
                if outcome.verdict == "silence":
                    back.append(outcome.name)
                else:
                    escaped.append((outcome.name, outcome.verdict))
        hidden.append(Hidden(point, tuple(back), tuple(escaped)))
    return Recall(tuple(hidden), len(chosen))
