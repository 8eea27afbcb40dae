"""The rule-interaction check: candidates come from the rules' when/decides, each is played on
small deals under every order of its rules, and only what no clause settles is a silence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_tools import run_bad_input
from five35.checks.discovery.interactions import candidates, check_interactions, search
from five35.checks.findings import CheckContext, CheckResult
from five35.engine import Game, RoundEnd, TrickEnd, TrickEndReason
from five35.spec import embedded_spec_path, load_spec
from five35.spec.words import words_path

GOING_OUT_ON_A_SET = ("trick.end.set", "round.end", "trick.next")


def _copy(tmp_path: Path, old: str, new: str, *, words: tuple[str, str] | None = None) -> Path:
    text = embedded_spec_path().read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "house.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    if words is not None:
        source = words_path(embedded_spec_path()).read_text(encoding="utf-8")
        assert source.count(words[0]) == 1
        # Beside the copy (words_path would name the embedded file while the copy has none).
        own = path.with_name(path.stem + ".words.yaml")
        own.write_text(source.replace(words[0], words[1]), encoding="utf-8")
        assert words_path(path) == own
    return path


def _rule_sets(path: Path | None = None) -> set[tuple[str, ...]]:
    return {c.all_rules for c in candidates(load_spec(path))}


def test_candidates_come_from_what_the_rules_state(tmp_path: Path) -> None:
    found = {c.all_rules: c for c in candidates(load_spec())}
    # The examples of the brief, each reached by the rule that opens the trick's end.
    assert found[GOING_OUT_ON_A_SET].how == "opens"
    assert found[("trick.end.eight", "round.end", "trick.next")].moments == ("lead", "overwrite", "add")
    assert found[("trick.end.set", "trick.end.eight")].overlap == ("trick_ends", "trick_winner")
    assert found[("round.scoring", "match.end")].how == "needs"
    # Going out, then a pass that would end the trick: the round's end and a trick's on the next play.
    assert found[("round.end", "trick.end.passes")].how == "follows"
    # A copy where the Rule of 8 is asked after a pass instead: its play candidates go, a pass one comes.
    moved = _copy(
        tmp_path,
        "    after: play\n    reason: rule_of_8\n",
        "    after: pass\n    reason: rule_of_8\n",
    )
    changed = _rule_sets(moved)
    assert ("trick.end.set", "trick.end.eight") not in changed
    assert ("trick.end.eight", "round.end", "trick.next") not in changed
    assert ("trick.end.passes", "trick.end.eight") in changed
    assert set(found) - changed and changed - set(found)


def test_going_out_on_a_closing_set_is_found_with_a_witness() -> None:
    spec = load_spec()
    result = search(spec, spec.ruleset())
    verdict = next(v for v in result.verdicts if v.candidate.all_rules == GOING_OUT_ON_A_SET)
    assert verdict.occurs > 0 and verdict.witness is not None
    position, move, _ = verdict.witness
    game = Game(spec.ruleset(), position.players)
    _, events = game.apply(game.play_from(position), move)
    ends = [e for e in events if isinstance(e, TrickEnd)]
    assert ends and TrickEndReason.SET_CLOSED in ends[0].reasons
    assert any(isinstance(e, RoundEnd) for e in events)
    # Whoever goes out played last: under went_out the two orders agree.
    assert verdict.status == "same"


def test_orders_that_differ_are_fixed_by_the_clause_or_a_silence(tmp_path: Path) -> None:
    spec = load_spec()
    ruleset = spec.ruleset(readings={"round_leader": "next_seat"})
    by_rules = {v.candidate.all_rules: v for v in search(spec, ruleset).verdicts}
    # The next round's leader is not the trick's winner; "endet die Runde sofort" settles it.
    going_out = by_rules[GOING_OUT_ON_A_SET]
    assert going_out.differ > 0 and going_out.status == "fixed"
    assert going_out.settled_by == ("at_once", ("round.end",))
    # The match ends on the scores the round's penalties make (match.end's clause).
    scoring = by_rules[("round.scoring", "match.end")]
    assert scoring.status == "fixed" and scoring.settled_by is not None
    assert "match.end" in scoring.settled_by[1]


@pytest.fixture(scope="module")
def embedded() -> CheckResult:
    spec = load_spec()
    return check_interactions(CheckContext(spec, spec.ruleset()))


def test_the_check_on_the_embedded_spec(embedded: CheckResult) -> None:
    spec = load_spec()
    first = embedded
    again = check_interactions(CheckContext(spec, spec.ruleset()))
    assert first.ok and not first.findings
    assert first.proved and all(p.method in ("exhaustive", "z3") for p in first.proved)
    # Rules that never meet on the plays explored are proved apart by the solver where the model
    # says when each applies: a pile is of one type, and a lead never closes a set or a run.
    by_method = {p.name: p.method for p in first.proved}
    assert by_method["interaction:pile.single+pile.set"] == "z3"
    assert by_method["interaction:pile.single+action.add"] == "z3"
    # Not where the model's piles are wider than play reaches: it holds sets of 8s no trick can
    # show once the Rule of 8 has ended it, so the set closing with the Rule of 8 stays explored.
    assert by_method["interaction:trick.end.set+trick.end.eight"] == "exhaustive"
    # Going out is no play the model decides: the order after the end of a round stays explored.
    assert by_method["interaction:round.end+trick.end.passes"] == "exhaustive"
    names = {p.name for p in first.proved}
    assert "interaction:" + "+".join(GOING_OUT_ON_A_SET) in names
    # The Rule of 8 never closes a set when an 8 in the opening pile switches it off for the trick;
    # under the reading that exempts only the opening play itself, it can, and both end the trick
    # alike there, in either order.
    statements = {p.name: p.statement for p in first.proved}
    assert statements["interaction:trick.end.set+trick.end.eight"].endswith(
        "cannot apply to the same play (lead, overwrite or add). Under the reading \u2018off for the "
        "opening play only\u2019 (How long an 8 in the opening pile switches the Rule of 8 off) they can. "
        "There every order gives the same outcome."
    )
    # A run of five never holds an 8 while the gaps at 6 and 10 break runs; it can if they do not.
    assert statements["interaction:trick.end.run+trick.end.eight"].endswith(
        "Under the reading \u2018runs skip the missing 6 and 10\u2019 (Runs across the missing 6 and 10) "
        "they can. There every order gives the same outcome."
    )
    # Going out with a play that ends the trick: whoever went out took the trick too, so the end of
    # the round and the trick's end name the same next leader. Where the next round's leader is the
    # next player in turn they do not, and the round ending 'sofort' fixes which comes first.
    assert statements["interaction:trick.end.set+round.end+trick.next"].endswith(
        "Under the reading \u2018the next player in turn\u2019 (Who leads a later round) it is otherwise. "
        "There the order changes who moves next, and the texts fix it (\u2018sofort\u2019 / "
        "\u2018inmediatamente\u2019)."
    )
    # Nobody passes after the last placer went out: the round has ended at once.
    assert "the second cannot apply" in statements["interaction:round.end+trick.end.passes"]
    assert not any("not seen" in s for s in statements.values())
    assert first.to_json() == again.to_json()
    # What was seen in the deals explored and the plays built is claimed for them and no more: the
    # scope says how many, of how many players and cards; the statements name the rules by their
    # clauses, not by ids.
    rule_ids = {r.id for r in spec.rules}
    for p in first.proved:
        if p.method == "z3":
            assert p.scope.startswith("every central pile a trick can hold and every play"), p.scope
            continue
        assert p.scope == (
            "in the 16 small deals explored (2-3 players, up to 9 cards) and on the 2732 plays built onto "
            "every central pile one or two plays leave, every lead among them, the mover going out with "
            "the play or not (2-3 players)"
        ), p.scope
        assert not rule_ids & set(p.statement.replace("(", " ").replace(")", " ").split()), p.statement
    assert statements["interaction:trick.end.set+trick.end.eight"].startswith(
        "The rules \u2018the set that ends the trick\u2019 and \u2018the Rule of 8 ending the trick\u2019"
    )


@pytest.mark.parametrize("key", ["when", "decides", "uses"])
def test_when_and_decides_are_no_longer_written(tmp_path: Path, key: str) -> None:
    """What a rule applies at and decides follows from what it states (its `does:`)."""
    path = _copy(
        tmp_path, "  - id: deck\n    does: deck\n", f"  - id: deck\n    does: deck\n    {key}: [deal]\n"
    )
    line = next(
        i
        for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if f"{key}: [deal]" in text
    )
    run_bad_input(
        ["rules", "--spec", str(path)],
        2,
        f"{path.name}:{line}",
        f"rules.0.{key}",
        "no longer written",
        cwd=tmp_path,
    )


def test_rules_lists_when_and_decides() -> None:
    from click.testing import CliRunner
    from five35.cli.main import main

    data = json.loads(CliRunner().invoke(main, ["rules", "--format", "json"]).stdout)
    rule = next(r for r in data["rules"] if r["id"] == "round.end")
    assert rule["when"] == ["lead", "overwrite", "add"]
    assert rule["decides"] == ["round_ends", "next_to_move"]
    eight = next(r for r in data["rules"] if r["id"] == "trick.end.eight")
    assert eight["when"] == ["lead", "overwrite", "add"] and eight["does"] == "trick_end"


def test_every_order_the_texts_fix_is_listed_as_settled_with_its_clauses(embedded: CheckResult) -> None:
    """Issue 18, item 3: a rule order the texts fix is a candidate question discovery considered and
    a clause settles; the check lists it with the clauses that fix it and the texts' own words."""
    spec = load_spec()
    ruleset = spec.ruleset()
    result = embedded
    fixed = [v for v in search(spec, ruleset).verdicts if v.status == "fixed"]
    assert fixed and [c.candidate for c in result.settled] == [v.candidate.topic for v in fixed]
    for c, v in zip(result.settled, fixed, strict=True):
        assert v.settled_by is not None
        how, cited = v.settled_by
        assert c.clauses == tuple(cited) and c.by == f"interactions.{how}"
        assert "_" not in c.change and "_" not in c.found  # rules and decisions in words
        texts = " ".join(f"{spec.clauses[cid].de} {spec.clauses[cid].es}" for cid in cited)
        if how == "at_once":
            # "sofort" and "de inmediato", as the texts write them
            assert c.says and all(word in texts for word in c.says.split(" / ")), c.says
        else:
            assert c.says == ""


def test_rules_that_meet_only_in_a_built_play_are_judged_there() -> None:
    # An 8 added to a set of three 8s opened by 7s closes the set and is the Rule of 8 at once
    # under the reading that exempts only the opening play: no small deal explored holds that,
    # the plays built onto every pile two plays leave do.
    spec = load_spec()
    ruleset = spec.with_readings(spec.ruleset(), {"eight_exemption": "opening_play"})
    found = search(spec, ruleset, level="ci", seed=0)
    verdict = next(
        v for v in found.verdicts if v.candidate.topic == "interaction:trick.end.set+trick.end.eight"
    )
    assert verdict.occurs and verdict.status in ("same", "fixed", "silence")
    assert found.built > 0 and found.built_players == {2, 3}
