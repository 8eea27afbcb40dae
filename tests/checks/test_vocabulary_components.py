"""Every component that gives readings a meaning refuses a reading it does not implement instead of
playing it like another: the engine and the check tables keyed by its vocabulary (Game.VOCABULARY:
the graphs, the conformance sweeps), and the components compiled from the spec's rules (the Z3
model, the invariants' rules model), which implement exactly the readings whose fragment the spec
states.

The house rule here is a Game subclass that declares a third reading of run_gaps and a new point; the
loader would refuse a spec naming them, so the ruleset is built directly."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from five35.checks.findings import CheckContext
from five35.checks.oracles.rules_model import RULES_VOCABULARY, SpecRules
from five35.checks.oracles.vocab import VocabularyMismatch, mismatches
from five35.checks.oracles.z3model import (
    MODEL_VOCABULARY,
    Model,
    Params,
    Readings,
    Z3Alg,
    decision_points,
    loop_bounds,
)
from five35.checks.play.conformance import (
    NOT_SWEPT,
    SWEEPS,
    TOUCHES,
    Tally,
    check_conformance,
    generated,
    sweeps_vocabulary,
)
from five35.checks.play.graphs import (
    NOT_PLAY_POINTS,
    PLAY_POINTS,
    check_beats,
    check_endgames,
    check_succession,
    graphs_vocabulary,
)
from five35.checks.play.matches import check_matches
from five35.checks.solver.proofs import check_proofs
from five35.engine import Game
from five35.spec import Ruleset, Spec, load_spec
from five35.spec.vocabulary import UnimplementedReading
from five35.spec.words import words_of

SPEC = load_spec()
BASE = SPEC.ruleset()
ORACLES = words_of(SPEC).check("oracles")
HOUSE_VOCABULARY = Game.VOCABULARY.extended({"run_gaps": ("any_pair",), "fake_point": ("on", "off")})


class HouseGame(Game):
    """An engine that declares the house rule (and so accepts it); its play is the reference's."""

    VOCABULARY = HOUSE_VOCABULARY


def with_readings(**readings: str) -> Ruleset:
    return replace(BASE, reading_items=tuple(sorted({**BASE.readings, **readings}.items())))


def with_spec_reading(point: str, reading: str) -> Spec:
    """The embedded spec with one more reading of `point` (which the loader would refuse)."""
    vp = SPEC.variation_points[point]
    listed = {**vp.listed, reading: "a house rule no code implements"}
    return replace(SPEC, variation_points={**SPEC.variation_points, point: replace(vp, listed=listed)})


HOUSE = [
    pytest.param(with_readings(run_gaps="any_pair"), "run_gaps", "any_pair", id="third-reading"),
    pytest.param(with_readings(fake_point="on"), "fake_point", "on", id="new-point"),
]


def ctx(ruleset: Ruleset, spec: Spec = SPEC) -> CheckContext:
    return CheckContext(spec, ruleset, level="quick", seed=5, engine=HouseGame)


def z3_symbolic(ruleset: Ruleset) -> Model:
    """Z3 ranges over the spec's readings of the other points; run_gaps keeps the ruleset's."""
    maxk, maxn = loop_bounds(ruleset)
    free = [p for p in decision_points(SPEC) if p != "run_gaps"]
    readings = Readings.symbolic(SPEC, "", fixed=dict(ruleset.reading_items), free=free)
    return Model(Z3Alg(), Params.of(ruleset), readings, maxk, maxn)


# Each component as a call on a house ruleset, and the component its refusal must name.
COMPONENTS: list[tuple[str, str, Callable[[Ruleset], Any]]] = [
    ("engine", "Game", lambda rs: Game(rs, 4)),
    ("rules model", "the invariants' rules model", lambda rs: SpecRules(rs, 4, ORACLES)),
    ("matches", "the invariants' rules model", lambda rs: check_matches(ctx(rs))),
    ("z3 concrete", "the Z3 model", Model.concrete),
    ("z3 symbolic", "the Z3 model", z3_symbolic),
    ("proofs", "the Z3 model", lambda rs: check_proofs(ctx(rs))),
    ("succession", "the graph checks", lambda rs: check_succession(ctx(rs))),
    ("beats", "the graph checks", lambda rs: check_beats(ctx(rs))),
    ("endgames", "the graph checks", lambda rs: check_endgames(ctx(rs))),
    ("conformance", "the conformance sweeps", lambda rs: check_conformance(ctx(rs))),
    ("conformance generated", "the conformance sweeps", lambda rs: generated(ctx(rs), Tally(), 5)),
]


#: Who refuses a new point's reading without a fragment, for the components that sweep known points.
STATED_FOR_NEW_POINTS = {
    "succession": "the invariants' rules model",
    "beats": "the invariants' rules model",
    "endgames": "the invariants' rules model",
    "conformance": "the Z3 model",
    "conformance generated": "the Z3 model",
}


@pytest.mark.parametrize(("ruleset", "point", "reading"), HOUSE)
def test_the_house_engine_accepts_the_house_ruleset(ruleset: Ruleset, point: str, reading: str) -> None:
    game = HouseGame(ruleset, 4)
    assert game.legal_moves(game.new_match(1))


@pytest.mark.parametrize(("ruleset", "point", "reading"), HOUSE)
@pytest.mark.parametrize(("name", "component", "use"), COMPONENTS, ids=[c[0] for c in COMPONENTS])
def test_every_component_refuses_a_reading_it_does_not_implement(
    name: str, component: str, use: Callable[[Ruleset], Any], ruleset: Ruleset, point: str, reading: str
) -> None:
    if point not in Game.VOCABULARY.points and name in STATED_FOR_NEW_POINTS:
        # The sweeps and graphs vary only the points they know and leave a new one to the model
        # compiled from the rules, which refuses it for want of a fragment.
        component = STATED_FOR_NEW_POINTS[name]
    with pytest.raises(UnimplementedReading) as refused:
        use(ruleset)
    got = refused.value
    assert (got.component, got.point, got.reading) == (component, point, reading)
    assert str(refused.value) == f"{component} does not implement reading {point}={reading}"


SPEC_COMPONENTS = [
    c for c in COMPONENTS if c[0] not in ("engine", "rules model", "z3 concrete", "z3 symbolic")
]


@pytest.mark.parametrize(("name", "component", "use"), SPEC_COMPONENTS, ids=[c[0] for c in SPEC_COMPONENTS])
def test_checks_that_sweep_a_specs_readings_refuse_one_they_do_not_implement(
    name: str, component: str, use: Callable[[Ruleset], Any]
) -> None:
    # Under the base ruleset every chosen reading is known; the spec offers one more to sweep.
    house_spec = with_spec_reading("run_gaps", "any_pair")

    def run() -> Any:
        context = replace(ctx(BASE), spec=house_spec)
        if name == "conformance generated":
            return generated(context, Tally(), 5)
        check = {
            "matches": check_matches,
            "proofs": check_proofs,
            "succession": check_succession,
            "beats": check_beats,
            "endgames": check_endgames,
            "conformance": check_conformance,
        }[name]
        return check(context)

    with pytest.raises(UnimplementedReading, match="run_gaps=any_pair"):
        run()


def test_the_compiled_components_implement_the_readings_whose_fragments_the_spec_states() -> None:
    book = SPEC.rulebook
    assert book is not None
    for component in (MODEL_VOCABULARY, RULES_VOCABULARY):
        component.require_spec(SPEC)
        component.require_ruleset(BASE)
    for point, vp in SPEC.variation_points.items():
        for reading in vp.readings:
            assert book.fragment(point, reading) is not None
    # The points the proofs range over are those whose fragments change a play decision.
    assert set(decision_points(SPEC)) == set(SPEC.variation_points) - {
        "deal",
        "first_leader",
        "round_leader",
        "turn_order",
    }


def test_the_derived_lists_cover_the_vocabulary() -> None:
    points = set(Game.VOCABULARY.points)
    assert set(PLAY_POINTS) | set(NOT_PLAY_POINTS) == points and not set(PLAY_POINTS) & set(NOT_PLAY_POINTS)
    assert set(TOUCHES) | set(NOT_SWEPT) == points and not set(TOUCHES) & set(NOT_SWEPT)
    swept = {p for sweep in SWEEPS for p in sweep.points}
    assert swept == set(TOUCHES)
    for table in (NOT_PLAY_POINTS, NOT_SWEPT):
        assert all(reason.strip() for reason in table.values())


@pytest.mark.parametrize("vocabulary_of", [sweeps_vocabulary], ids=["conformance"])
def test_a_component_table_that_misses_an_engine_point_does_not_import(
    vocabulary_of: Callable[..., Any],
) -> None:
    assert vocabulary_of(Game.VOCABULARY).vocabulary.points == Game.VOCABULARY.points
    # The house engine's vocabulary stands for an engine edited without the component.
    with pytest.raises(VocabularyMismatch) as mismatch:
        vocabulary_of(HOUSE_VOCABULARY)
    assert "point fake_point is missing" in str(mismatch.value)
    assert "\n" not in str(mismatch.value)


def test_the_graphs_flip_every_point_of_the_engine_but_the_declared_ones() -> None:
    # PLAY_POINTS is derived: a new point is flipped without an edit to the graphs (and refused
    # there until the rules model, which every graph is compared with, gives it a meaning).
    assert graphs_vocabulary(HOUSE_VOCABULARY).vocabulary.points == HOUSE_VOCABULARY.points
    derived = tuple(p for p in Game.VOCABULARY.points if p not in NOT_PLAY_POINTS)
    assert derived == PLAY_POINTS


def test_the_z3_model_names_a_reading_the_spec_states_no_fragment_of() -> None:
    house = with_spec_reading("run_gaps", "any_pair")
    with pytest.raises(UnimplementedReading, match="run_gaps=any_pair"):
        z3_symbolic_over(house)


def z3_symbolic_over(spec: Spec) -> Model:
    """A Z3 model ranging over every reading of the spec's points."""
    maxk, maxn = loop_bounds(BASE)
    return Model(Z3Alg(), Params.of(BASE), Readings.symbolic(spec, "house."), maxk, maxn)


def test_mismatches_lists_every_difference() -> None:
    vocabulary = Game.VOCABULARY.extended({"run_gaps": ("any_pair",)})
    table: dict[str, tuple[str, ...]] = {p: r for p, r in Game.VOCABULARY.points.items() if p != "deal"}
    table["run_wrap"] = ("no_wrap", "wrap", "spiral")
    table["ghost"] = ("boo",)
    found = mismatches(table, {"first_leader": "", "turn_order": "why"}, vocabulary)
    assert set(found) == {
        "reading run_gaps=any_pair is missing",
        "reading run_wrap=spiral is not in the engine's vocabulary",
        "point deal is missing",
        "first_leader is both implemented and ignored",
        "first_leader is ignored without a reason",
        "turn_order is both implemented and ignored",
        "point ghost is not in the engine's vocabulary",
    }
