"""The text audit: defects, gaps and German/Spanish mismatches read off the spec's own data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from five35.checks.findings import STATUS_WORDS, CheckContext, Finding, ReadingRef, Status
from five35.checks.text.text_audit import check_text_audit, proposal_for_point, text_audit
from five35.engine import Game
from five35.spec import Spec, embedded_spec_path, load_spec
from five35.spec.words import embedded_words, words_of

STATUS = embedded_words().check(STATUS_WORDS)


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


def _ids(
    spec: Spec, profile: str | None = None, readings: dict[str, str] | None = None
) -> dict[str, Finding]:
    return {f.id: f for f in text_audit(spec, spec.ruleset(profile, readings))}


def test_the_required_mismatches_are_found(spec: Spec) -> None:
    found = _ids(spec)
    for fid, clause in (
        ("mismatch.deck.copies.five_players", "deck.copies"),
        ("mismatch.trick.end.set.five_players", "trick.end.set"),
        ("mismatch.eight.value.worth", "eight.value"),
        ("mismatch.trick.end.set.verb", "trick.end.set"),
        ("mismatch.trick.end.run.verb", "trick.end.run"),
    ):
        finding = found[fid]
        assert finding.kind == "mismatch"
        assert finding.clauses == (clause,)
        assert finding.proposed_wording
    assert "5+" in found["mismatch.deck.copies.five_players"].detail
    assert "más de 5" in found["mismatch.deck.copies.five_players"].detail
    assert "wertvollsten" in found["mismatch.eight.value.worth"].detail
    assert "añade" in found["mismatch.trick.end.set.verb"].detail


def test_every_known_mismatch_quotes_its_clause(spec: Spec) -> None:
    # A quote that is not in the clause would tell the designer something the text does not say.
    for m in words_of(spec).mismatches:
        clause = spec.clauses[m.clause]
        assert clause.de is not None and clause.es is not None
        assert m.de_quote in clause.de, m.key
        assert m.es_quote in clause.es, m.key


def test_every_reading_label_that_quotes_a_text_quotes_it_word_for_word(spec: Spec) -> None:
    # "German 'der Stich wird beendet'" stood for the text's "wird der Stich sofort beendet": a
    # designer reads a quotation as the text's own words. " ... " marks words left out.
    texts = {s.language: " ".join(s.file.read_text(encoding="utf-8").split()) for s in spec.sources.values()}
    assert {"German", "Spanish"} <= set(texts)
    labels = [
        side.label for alt in words_of(spec).alternatives.values() for side in (alt.played, alt.compared)
    ]
    quoted = [m for label in labels for m in re.finditer(r"\b(German|Spanish) '([^']+)'", label)]
    assert len(quoted) >= 4
    for m in quoted:
        language, quote = m.groups()
        for part in quote.split(" ... "):
            assert " ".join(part.split()) in texts[language], (m.group(0), part)


def test_defects_cover_every_damaged_source_and_clause(spec: Spec) -> None:
    found = _ids(spec)
    damaged = [c.id for c in spec.clauses.values() if c.defect]
    assert damaged, "the embedded spec records damaged clauses"
    for cid in damaged:
        assert found[f"defect.{cid}"].kind == "defect"
    source_defects = sum(len(s.defects) for s in spec.sources.values())
    assert sum(1 for fid in found if fid.startswith("defect.source.")) == source_defects


def test_gaps_cover_everything_marked_not_in_text(spec: Spec) -> None:
    found = _ids(spec)
    for p in spec.parameters.values():
        assert (f"gap.parameter.{p.name}" in found) == (not p.in_text)
    for vp in spec.variation_points.values():
        assert (f"gap.point.{vp.name}" in found) == (not vp.in_text)
    points = found["gap.parameter.points"]
    assert points.severity == "high"
    assert "E9" in points.evidence
    # hand_size cites no clause; it is shown against the clauses of the deal it feeds
    assert found["gap.parameter.hand_size"].clauses


def test_every_finding_is_complete_and_cites_real_clauses(spec: Spec) -> None:
    for f in text_audit(spec, spec.ruleset()):
        assert f.check == "text_audit"
        assert f.proposed_wording, f.id
        assert f.title and f.detail
        for cid in f.clauses:
            assert cid in spec.clauses, (f.id, cid)


def test_status_follows_the_profile_and_its_basis(spec: Spec) -> None:
    published = _ids(spec)
    assert published["mismatch.deck.copies.five_players"].status == Status.settled(
        "published", [("five_player_copies", "five_is_large")]
    )
    spanish = _ids(spec, "spanish-literal")
    assert spanish["mismatch.trick.end.set.five_players"].status.words(STATUS) == (
        "settled by profile spanish-literal: five_player_set_close=five_is_small"
    )
    # The Spanish gives no number of copies for 5 players: its profile chooses 4 where it is silent.
    assert spanish["mismatch.deck.copies.five_players"].status.is_open
    # A reading chosen on the command line settles nothing; a profile's choice without a source neither.
    overridden = _ids(spec, None, {"five_player_copies": "five_is_small"})
    assert overridden["mismatch.deck.copies.five_players"].status.is_open
    assert published["gap.point.turn_order"].status.is_open


def test_a_corrected_text_no_longer_shows_its_mismatch(tmp_path: Path) -> None:
    text = embedded_spec_path().read_text(encoding="utf-8")
    fixed = text.replace(
        "(4 de cada una con 2-4 jugadores / 5 de cada una con más de 5 jugadores)",
        "(4 de cada una con 2-4 jugadores / 5 de cada una con 5 o más jugadores)",
    )
    assert fixed != text
    house = tmp_path / "house.yaml"
    house.write_text(fixed, encoding="utf-8")
    # the loader checks clauses against the source texts, so ship a corrected source too
    src = tmp_path / "sources"
    src.mkdir()
    for f in (embedded_spec_path().parent / "sources").iterdir():
        (src / f.name).write_text(
            f.read_text(encoding="utf-8").replace(
                "5 de cada una con más de 5 jugadores", "5 de cada una con 5 o más jugadores"
            ),
            encoding="utf-8",
        )
    spec = load_spec(house)
    found = _ids(spec)
    assert "mismatch.deck.copies.five_players" not in found
    assert "mismatch.trick.end.set.five_players" in found


def test_check_text_audit_is_a_check(spec: Spec) -> None:
    result = check_text_audit(CheckContext(spec=spec, ruleset=spec.ruleset()))
    assert result.name == "text_audit"
    assert result.ok
    assert {f.kind for f in result.findings} == {"defect", "gap", "mismatch"}
    assert result.findings == text_audit(spec, spec.ruleset())
    assert result.to_json()["findings"]


def test_every_variation_point_has_a_proposed_sentence(spec: Spec) -> None:
    for point in spec.variation_points:
        sentence = proposal_for_point(spec, words_of(spec), point)
        assert sentence and sentence.endswith("."), point


def test_text_findings_carry_their_alternatives_and_situation(spec: Spec) -> None:
    found = _ids(spec)
    for fid in (
        "mismatch.trick.end.set.verb",
        "mismatch.trick.end.run.verb",
        "mismatch.eight.trigger.cleared",
        "mismatch.round.scoring.printed",
        "mismatch.only_one_text.title",
        "gap.parameter.points",
        "defect.pile.single",
        "defect.pile.set",
        "defect.source.es.1",
    ):
        f = found[fid]
        alt = f.alternative
        assert alt is not None and all(side.words for side in (alt.played, alt.compared)), fid
        assert f.witness is not None and f.witness.cards > 0, fid
        # the witness's columns are the two alternatives, and the scene sets the table up by play
        assert list(f.witness.outcomes) == list(alt.labels), fid
        assert f.witness.position is not None, fid
    verb = found["mismatch.trick.end.set.verb"].witness
    assert verb is not None
    assert verb.situation["pile"] == {"kind": "set", "cards": [3, 3, 3]}
    for out in verb.outcomes.values():
        assert out["after add 3"]["trick_ends"] is True
    damaged = found["defect.pile.set"].witness
    assert damaged is not None and damaged.situation["hand"] == [3, 14, 14, 14]
    # a finding about a variation point keeps that point's readings, each a (point, reading) reference
    assert set(found["mismatch.deck.copies.five_players"].readings) == {
        ReadingRef("five_player_copies", r) for r in spec.variation_points["five_player_copies"].readings
    }


def test_the_engine_under_check_plays_the_witness(spec: Spec) -> None:
    class EightsScoreNothing(Game):
        def penalty(self, hand: int) -> int:
            return sum(self.points[r] for r in self.codec.cards(hand) if r != 8)

    result = check_text_audit(CheckContext(spec=spec, ruleset=spec.ruleset(), engine=EightsScoreNothing))
    by_id = {f.id: f for f in result.findings}
    witness = by_id["mismatch.round.scoring.printed"].witness
    assert witness is not None
    german, spanish = witness.outcomes.values()
    assert german["after lead 3"]["penalties"] != spanish["after lead 3"]["penalties"]
    assert "differ" in witness.summary
