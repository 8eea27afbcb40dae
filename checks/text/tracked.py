"""A Z3 solver over the spec's model whose parameters and readings are pinned by labelled
assumptions (`Tracked`), so that an unsat core names the texts, parameters and readings in conflict;
the text examples (text_examples.py) and the dead clauses (dead_clauses.py) both ask it."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import z3  # type: ignore[import-untyped]  # z3-solver ships no type information

from ...spec import Ruleset, Spec
from ..oracles.model_terms import FREE_NUMBERS
from ..oracles.z3model import CheckedSolver, Model, Params, Readings, Z3Alg, as_bool, loop_bounds
from .labels import Label, ParameterPin, ReadingPin, Stated


@dataclass
class Tracked:
    """A solver over a model whose parameters and readings are pinned by labelled assumptions.

    Every constraint sits behind a label literal (`label -> constraint`), and a check names the labels
    it assumes, so one solver answers for every reading combination and the unsat core is a set of
    labels (labels.py): the text examples it states, the parameters and the readings it pins. A
    core's literals are mapped back to their labels by their Z3 ids, never by their names.
    """

    spec: Spec
    ruleset: Ruleset
    rlimit: int  # Z3's resource limit on each query
    solver: z3.Solver = field(init=False)
    model: Model = field(init=False)
    labels: dict[Label, z3.BoolRef] = field(init=False, default_factory=dict)
    _by_id: dict[int, Label] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        rs = self.ruleset
        self.solver = CheckedSolver(self.rlimit)
        self.solver.set("core.minimize", True)
        ints = {
            name: z3.Int(f"param.{name}")
            for name in (*FREE_NUMBERS, "match_end", "players_min", "players_max")
        }
        points = {r: z3.Int(f"param.points.{r}") for r in rs.ranks}
        params = Params.of(rs).with_free(ints).with_values(match_end_score=ints["match_end"], points=points)
        self.ints = ints
        self.points = points
        names = {p: tuple(vp.readings) for p, vp in self.spec.variation_points.items()}
        choice: dict[str, Any] = {p: z3.Int(f"reading.{p}") for p in names}
        self.readings = Readings(choice, names)
        maxk, maxn = loop_bounds(rs)
        self.model = Model(Z3Alg(), params, self.readings, maxk, maxn)
        self.solver.add(*self.model.axioms())
        self.solver.add(*self.readings.domain())
        pins = {
            ParameterPin("copies"): z3.And(
                ints["copies_small"] == rs.copies_small, ints["copies_large"] == rs.copies_large
            ),
            ParameterPin("set_closing_size"): z3.And(
                ints["set_close_small"] == rs.set_closing_small,
                ints["set_close_large"] == rs.set_closing_large,
            ),
            ParameterPin("run_closing_size"): ints["run_close"] == rs.run_closing_size,
            ParameterPin("max_cards_per_turn"): ints["max_cards"] == rs.max_cards_per_turn,
            ParameterPin("min_set_size"): ints["min_set"] == rs.min_set_size,
            ParameterPin("min_run_size"): ints["min_run"] == rs.min_run_size,
            ParameterPin("match_end_score"): ints["match_end"] == rs.match_end_score,
            ParameterPin("players"): z3.And(
                ints["players_min"] == rs.players_min, ints["players_max"] == rs.players_max
            ),
            ParameterPin("points"): z3.And([points[r] == v for r, v in rs.point_items]),
        }
        self.parameter_labels: list[Label] = list(pins)
        for label, formula in pins.items():
            self.track(label, formula)
        for point, readings in names.items():
            for i, value in enumerate(readings):
                self.track(ReadingPin(point, value), choice[point] == i)

    def track(self, label: Label | str, formula: Any) -> None:
        """Hold `formula` behind the literal of `label` (an id of the caller's own: `Stated`)."""
        label = Stated(label) if isinstance(label, str) else label
        flag = z3.Bool(str(label))
        self.labels[label] = flag
        self._by_id[flag.get_id()] = label
        self.solver.add(z3.Implies(flag, as_bool(formula)))

    def check(
        self, labels: Iterable[Label | str], combo: Mapping[str, str] | None
    ) -> tuple[bool, tuple[Label, ...]]:
        """Assume `labels`, the parameters and (unless combo is None: readings free) the ruleset's
        readings with `combo` over them. Returns (unsat, the core's labels in the order of their
        names)."""
        assumed = [Stated(a) if isinstance(a, str) else a for a in labels]
        if combo is not None:
            assumed += self.parameter_labels
            readings = dict(self.ruleset.reading_items) | dict(combo)
            pins = (ReadingPin(p, r) for p, r in sorted(readings.items()))
            assumed += [pin for pin in pins if pin in self.labels]
        if self.solver.check(*[self.labels[a] for a in assumed]) == z3.unsat:
            core = [self._by_id[x.get_id()] for x in self.solver.unsat_core()]
            return True, tuple(sorted(core, key=str))
        return False, ()

    def index(self, rank: int) -> int | None:
        return self.model.values.index(rank) if rank in self.model.values else None


def combos(spec: Spec, points: Iterable[str]) -> list[dict[str, str]]:
    known = [p for p in points if p in spec.variation_points]
    choices = [list(spec.variation_points[p].readings) for p in known]
    return [dict(zip(known, c, strict=True)) for c in itertools.product(*choices)]
