"""The Z3 model: its two interpretations agree, it says what the rule texts say, and the proofs
built on it hold (or fail) where they should."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
import z3  # type: ignore[import-untyped]
from five35.checks.findings import DEFAULT_SOLVER_RLIMIT, STATUS_WORDS, CheckContext
from five35.checks.oracles.situations import NONE_PILE, central_piles, shaped_plays
from five35.checks.oracles.z3model import (
    ACTION_CODES,
    ADD,
    LEAD,
    OVERWRITE,
    RUN,
    SET,
    SINGLE,
    Model,
    ModelLimit,
    Params,
    Readings,
    SymSituation,
    Z3Alg,
    as_bool,
    loop_bounds,
)
from five35.checks.solver.proofs import PROPERTIES, check_proofs, m_concrete_cards, prove_reachable, setup
from five35.spec import Spec, load_spec
from five35.spec.vocabulary import UnimplementedReading
from five35.spec.words import embedded_words

STATUS = embedded_words().check(STATUS_WORDS)

SPEC = load_spec()


def concrete(**readings: str) -> Model:
    return Model.concrete(SPEC.ruleset(None, readings))


def idx(m: Model, *ranks: int) -> list[int]:
    out = [m.values.index(r) for r in ranks]
    return out + [out[-1]] * (m.maxk - len(out))


def test_runs_follow_the_run_gaps_and_run_wrap_readings() -> None:
    assert not concrete().lead(2, idx(concrete(), 5, 7), 4)[0]
    assert concrete(run_gaps="gaps_skipped").lead(2, idx(concrete(), 5, 7), 4)[0]
    assert not concrete().lead(2, idx(concrete(), 1, 15), 4)[0]
    wrapped = concrete(run_wrap="wrap")
    legal, kind, low, size = wrapped.lead(2, idx(wrapped, 1, 15), 4)
    assert (legal, kind, wrapped.pile_cards(kind, low, size)) == (True, RUN, (15, 1))


def test_the_run_example_holds_only_under_lower_beats() -> None:
    pile = (RUN, concrete().values.index(11), 3)
    assert concrete().overwrite(pile, 3, idx(concrete(), 1, 2, 3), 4)[0]
    assert not concrete(run_order="higher_beats").overwrite(pile, 3, idx(concrete(), 1, 2, 3), 4)[0]


def test_set_closing_depends_on_the_player_count_and_the_reading() -> None:
    m = concrete()
    three_sevens = (SET, m.values.index(7), 3)
    out4 = m.decide(ADD, three_sevens, 1, idx(m, 7), 4, False)
    out5 = m.decide(ADD, three_sevens, 1, idx(m, 7), 5, False)
    assert out4.set_closed and not out5.set_closed
    small = concrete(five_player_set_close="five_is_small")
    assert small.decide(ADD, three_sevens, 1, idx(m, 7), 5, False).set_closed


def test_rule_of_8_readings() -> None:
    m = concrete()
    seven = (SINGLE, m.values.index(7), 1)
    nine = (SINGLE, m.values.index(9), 1)
    assert m.decide(ADD, seven, 1, idx(m, 8), 4, False).rule_of_8
    assert not concrete(eight_on_add="plays_only").decide(ADD, seven, 1, idx(m, 8), 4, False).rule_of_8
    assert m.decide(ADD, nine, 1, idx(m, 8), 4, False).rule_of_8  # the run 8,9
    assert not concrete(eight_forms="listed_forms").decide(ADD, nine, 1, idx(m, 8), 4, False).rule_of_8
    assert not m.decide(ADD, nine, 1, idx(m, 8), 4, True).rule_of_8  # the opening pile held an 8
    assert concrete(eight_exemption="opening_play").decide(ADD, nine, 1, idx(m, 8), 4, True).rule_of_8
    assert not m.decide(LEAD, NONE_PILE, 1, idx(m, 8), 4, False).rule_of_8  # the opening play


def test_a_reading_the_model_has_no_hook_for_is_refused() -> None:
    # It used to never hold, so the model quietly played the point's other reading.
    ruleset = SPEC.ruleset()
    maxk, maxn = loop_bounds(ruleset)
    for choice, names in (
        ({"run_gaps": "sideways"}, {}),
        ({"no_such_point": "x"}, {}),
        ({"run_gaps": z3.Int("r")}, {"run_gaps": ("gaps_break", "sideways")}),
    ):
        with pytest.raises(UnimplementedReading) as refused:
            Model(Z3Alg(), Params.of(ruleset), Readings(choice, names), maxk, maxn)
        assert refused.value.component == "the Z3 model"
    with pytest.raises(UnimplementedReading, match="run_gaps=sideways"):
        Model.concrete(
            replace(
                ruleset, reading_items=tuple(sorted({**ruleset.readings, "run_gaps": "sideways"}.items()))
            )
        )


def _random_readings(rng: random.Random, spec: Spec) -> dict[str, str]:
    return {p: rng.choice(list(vp.readings)) for p, vp in spec.variation_points.items()}


def test_python_and_z3_interpretations_agree_on_random_situations() -> None:
    """The same formulas, evaluated concretely and by Z3 with every reading symbolic."""
    rng = random.Random(20260)
    ruleset = SPEC.ruleset()
    maxk, maxn = loop_bounds(ruleset)
    readings = Readings.symbolic(SPEC, "t.")
    m = Model(Z3Alg(), Params.of(ruleset), readings, maxk, maxn)
    sit = SymSituation.fresh("t.", maxk)
    out = m.decide(sit.action, sit.pile, sit.k, sit.p, sit.players, sit.opening8)
    solver = m.solver(DEFAULT_SOLVER_RLIMIT)
    solver.add(*readings.domain())
    plays = shaped_plays(ruleset.ranks, maxk)
    compared = 0
    for _ in range(120):
        chosen = _random_readings(rng, SPEC)
        players = rng.randint(2, 6)
        flag = rng.random() < 0.3
        c = Model.concrete(SPEC.ruleset(None, chosen))
        piles = [NONE_PILE, *central_piles(c, players, flag)]
        pile = rng.choice(piles)
        action = LEAD if pile == NONE_PILE else rng.choice([OVERWRITE, ADD])
        cards = rng.choice(plays)
        p = idx(c, *cards)
        want = c.decide(action, pile, len(cards), p, players, flag)
        pins = [readings.choice[k] == readings.names[k].index(v) for k, v in chosen.items()]
        pins += [sit.players == players, sit.kind == pile[0], sit.low == pile[1], sit.n == pile[2]]
        pins += [sit.opening8 == flag, sit.action == action, sit.k == len(cards)]
        pins += [sit.p[t] == p[t] for t in range(maxk)]
        assert solver.check(*pins) == z3.sat
        got = solver.model()

        def ev(x: object, got: z3.ModelRef = got) -> object:
            v = got.eval(as_bool(x) if isinstance(x, bool) else x, model_completion=True)
            return bool(z3.is_true(v)) if z3.is_bool(v) else v.as_long()

        assert ev(out.legal) == bool(want.legal), (chosen, players, pile, cards, action)
        if want.legal:
            assert (ev(out.kind), ev(out.low), ev(out.size)) == (want.kind, want.low, want.size)
            for name in ("set_closed", "run_closed", "rule_of_8"):
                assert ev(getattr(out, name)) == bool(getattr(want, name)), (name, chosen, pile, cards)
        compared += 1
    assert compared == 120
    assert ACTION_CODES["add"] == ADD


def test_proofs_hold_on_the_embedded_spec_except_the_mixed_five_player_reading() -> None:
    result = check_proofs(CheckContext(SPEC, SPEC.ruleset(), level="ci"))
    assert result.proofs > 20
    assert not result.failures
    ids = [f.id for f in result.findings]
    assert ids == ["proof.reach.set_close.players-5"]
    finding = result.findings[0]
    assert finding.kind == "contradiction"
    assert finding.clauses == ("trick.end.set", "deck.copies")
    assert finding.players == 5
    assert "five_player_copies=five_is_small" in finding.detail
    assert "five_player_set_close=five_is_large" in finding.detail
    assert finding.status.words(STATUS).startswith("settled by profile published")
    # Two points make the combination: no one point is blamed, and the impact compares the
    # rules as played against that combination.
    assert finding.variation_point is None
    assert finding.alternative is not None
    assert "five_player_copies=five_is_small" in finding.alternative.compared.label
    assert "every reading combination" in result.notes[0]


def test_a_property_that_holds_costs_one_query_and_reaching_a_size_one_per_class_and_combination() -> None:
    s = setup(SPEC, SPEC.ruleset(), DEFAULT_SOLVER_RLIMIT)
    asked = 0
    for kind, points in (
        (SET, ("five_player_copies", "five_player_set_close", "add_past_closing")),
        (RUN, ("run_gaps", "run_wrap", "add_run_ends", "add_to_single")),
    ):
        results, queries = prove_reachable(s, kind, 8)
        combinations = 1
        for point in points:
            combinations *= len(SPEC.variation_points[point].readings)
        assert [r.property.rsplit("-", 1)[1] for r in results] == ["2", "5", "6"]
        assert queries == len(results) * combinations
        asked += queries
    # Every property of PROPERTIES holds on the embedded spec: one unsatisfiable query each.
    result = check_proofs(CheckContext(SPEC, SPEC.ruleset(), level="ci"))
    assert result.proofs == len(PROPERTIES) + asked


def test_a_witness_pile_holds_the_cards_its_lowest_rank_and_size_name() -> None:
    s = setup(SPEC, SPEC.ruleset(), DEFAULT_SOLVER_RLIMIT)
    ranks = SPEC.ruleset().ranks
    assert m_concrete_cards(s, RUN, 2, 3) == ranks[2:5]
    # Indices wrap around the rank order, as the model's do.
    assert m_concrete_cards(s, RUN, len(ranks) - 1, 3) == (ranks[-1], ranks[0], ranks[1])
    assert m_concrete_cards(s, SET, len(ranks) + 3, 3) == (ranks[3],) * 3
    assert m_concrete_cards(s, SINGLE, 5, 1) == (ranks[5],)


LEAD_MAY = 'cards: {min: 1, max: max_cards_per_turn}\n    may: "true"'
SINGLE_BEATS = 'cards: "size == 1"\n    beats: "strength(new.first) > strength(old.first)"'


@pytest.mark.parametrize(
    ("edits", "prop", "witness"),
    [
        # A single that beats its equal: comparing singles is no longer irreflexive.
        (
            [(SINGLE_BEATS, SINGLE_BEATS.replace(" > ", " >= "))],
            "order.single.irreflexive",
            {"kind": "single", "size": 1},
        ),
        # The same, only below six players: the proof looks at every player count.
        (
            [(SINGLE_BEATS, SINGLE_BEATS[:-1] + ' or (players < 6 and new.first == old.first)"')],
            "order.single.irreflexive",
            {"kind": "single", "size": 1},
        ),
        # A leader who may not lead a single.
        (
            [(LEAD_MAY, LEAD_MAY.replace('"true"', '"new.kind != single"'))],
            "lead.always",
            {"players": 2},
        ),
        # An overwrite may grow the pile, and four cards a turn let it reach a set's closing size.
        (
            [
                ("new.size == old.size and beats", "new.size >= old.size and beats"),
                ("max_cards_per_turn:\n    value: 3", "max_cards_per_turn:\n    value: 4"),
            ],
            "overwrite.never_closes",
            {"action": "overwrite", "opening_has_eight": False},
        ),
        # The Rule of 8 without its exception for the opening play.
        (
            [('ends: "action != lead and counts', 'ends: "counts')],
            "lead.never_rule_of_8",
            {"action": "lead", "pile": None},
        ),
    ],
)
def test_a_planted_rule_fails_the_property_it_breaks_with_a_witness(
    tmp_path: Path, edits: list[tuple[str, str]], prop: str, witness: dict[str, object]
) -> None:
    text = (Path(__file__).resolve().parents[3] / "spec" / "535.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "planted.yaml"
    path.write_text(text, encoding="utf-8")
    spec = load_spec(path)
    result = check_proofs(CheckContext(spec, spec.ruleset(), level="ci"))
    failing = {f.id: f for f in result.findings}
    assert f"proof.{prop}" in failing, sorted(failing)
    finding = failing[f"proof.{prop}"]
    assert finding.title.startswith("Fails: ")
    assert witness.items() <= finding.witness.situation.items()
    assert prop not in result.notes[0].split(": ", 1)[1].split(", ")


def test_a_proof_fails_on_a_spec_whose_runs_close_beyond_the_longest_run(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parents[3] / "spec" / "535.yaml").read_text(encoding="utf-8")
    edited = text.replace("run_closing_size:\n    value: 5", "run_closing_size:\n    value: 6")
    assert edited != text
    path = tmp_path / "long-runs.yaml"
    path.write_text(edited, encoding="utf-8")
    spec = load_spec(path)
    result = check_proofs(CheckContext(spec, spec.ruleset(), level="ci"))
    failing = {f.id: f for f in result.findings}
    assert "proof.reach.run_close.players-2" in failing
    assert "run_gaps=gaps_break" in failing["proof.reach.run_close.players-2"].detail


# The second is the same word built at run time, as a level read from a file or the command line is.
@pytest.mark.parametrize("level", ["quick", "".join(["qu", "ick"])])
def test_proofs_at_quick_use_the_ruleset_only(level: str) -> None:
    result = check_proofs(CheckContext(SPEC, SPEC.ruleset(), level=level))  # type: ignore[arg-type]
    assert not result.findings
    assert "the checked ruleset" in result.notes[0]


def _spec_with(tmp_path: Path, old: str, new: str) -> Spec:
    text = (Path(__file__).resolve().parents[3] / "spec" / "535.yaml").read_text(encoding="utf-8")
    edited = text.replace(old, new)
    assert edited != text
    path = tmp_path / "edited.yaml"
    path.write_text(edited, encoding="utf-8")
    return load_spec(path)


def test_a_readings_meaning_is_its_fragment_in_the_spec(tmp_path: Path) -> None:
    wrapped = concrete(run_wrap="wrap")
    fifteen, one = wrapped.values.index(15), wrapped.values.index(1)
    assert wrapped.follows(fifteen, one)
    # The same reading, its fragment written otherwise: the model follows the file, not a name.
    spec = _spec_with(tmp_path, 'rules: {ranks: {wrap: "true"}}', 'rules: {ranks: {wrap: "false"}}')
    assert not Model.concrete(spec.ruleset(None, {"run_wrap": "wrap"})).follows(fifteen, one)
    # Symbolically too: no reading of run_wrap lets 1 follow 15 any more.
    ruleset = spec.ruleset()
    maxk, maxn = loop_bounds(ruleset)
    readings = Readings.symbolic(spec, "frag.")
    m = Model(Z3Alg(), Params.of(ruleset), readings, maxk, maxn)
    solver = m.solver(DEFAULT_SOLVER_RLIMIT)
    solver.add(*readings.domain())
    assert solver.check(as_bool(m.follows(fifteen, one))) == z3.unsat


def test_a_rule_the_representation_cannot_hold_is_refused_naming_it(tmp_path: Path) -> None:
    spec = _spec_with(
        tmp_path,
        'cards: "size >= min_set_size and same_rank(cards)"',
        'cards: "size >= min_set_size and count(cards, 8) == 0"',
    )
    with pytest.raises(ModelLimit, match=r"rule pile\.set, part cards"):
        Model.concrete(spec.ruleset())
    skipping = _spec_with(
        tmp_path,
        'follows: "b == next_rank(a) and',
        'follows: "(b == next_rank(next_rank(a)) or b == next_rank(a)) and',
    )
    with pytest.raises(ModelLimit, match=r"rule ranks, part follows: 3 follows 1"):
        Model.concrete(skipping.ruleset(None, {"run_gaps": "gaps_skipped"}))
