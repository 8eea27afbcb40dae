"""The report's own words: its prose (the `plain` section), its pages' (`pages`) and the CI
formats' (`formats`), each with the blanks its sentences may use."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .words_text import Sentences

# ---- the report's own prose (`plain`) ------------------------------------------------------


#: The blanks each sentence of the `plain` section may use, by group; five35 fills exactly these.
PLAIN_BLANKS: Mapping[str, Mapping[str, frozenset[str]]] = {
    "findings": {
        "no_clause": frozenset(),
        "as_played": frozenset(),
        "changed": frozenset({"changed", "title"}),
        "players": frozenset({"players"}),
        "ambiguity": frozenset({"clauses"}),
        "texts_of": frozenset({"clauses", "languages"}),
        "languages_and": frozenset(),
        "what_say": frozenset({"clauses"}),
        "literally": frozenset(),
        "contradiction_under": frozenset({"literally", "players", "text", "under"}),
        "contradiction": frozenset({"literally", "players", "text"}),
        "dead_under": frozenset({"under"}),
        "dead_whatever": frozenset(),
        "dead_part": frozenset({"clauses"}),
        "dead_clause": frozenset({"part", "players", "where"}),
        "dead_reading": frozenset({"label"}),
        "defect_clause": frozenset({"clause", "defect"}),
        "defect_source": frozenset({"detail"}),
        "only_one_text": frozenset({"clause", "missing", "present"}),
        "texts_differ": frozenset({"clause"}),
    },
    "scenes": {
        "needs": frozenset({"readings"}),
        "rests_on": frozenset({"played", "readings"}),
        "played_one": frozenset(),
        "played_many": frozenset(),
        "only_dealt": frozenset({"readings"}),
        "players": frozenset({"players"}),
        "deck": frozenset({"deck"}),
        "match_begins": frozenset(),
        "in_match": frozenset(),
        "led_and_out": frozenset({"leader"}),
        "led_other_out": frozenset({"leader", "out"}),
        "opening_eight": frozenset(),
        "passed_one": frozenset({"players"}),
        "passed_many": frozenset({"players"}),
        "holding": frozenset({"cards"}),
        "to_move": frozenset({"holding", "pile", "player"}),
        "to_lead": frozenset({"holding", "player"}),
        "holds": frozenset({"cards", "player"}),
        "empty_pile": frozenset(),
        "pile": frozenset({"cards", "kind"}),
        "the_player": frozenset(),
        "yes": frozenset(),
        "no": frozenset(),
        "not_allowed": frozenset(),
        "why": frozenset({"reasons"}),
        "won_by": frozenset({"player"}),
        "trick_ends": frozenset({"why", "won"}),
        "goes_on": frozenset(),
        "goes_on_with": frozenset({"pile"}),
        "goes_out": frozenset({"player"}),
        "round_ends": frozenset(),
        "penalties": frozenset({"scored"}),
        "penalty": frozenset({"player", "points"}),
        "moves_next": frozenset({"player"}),
        "may_not": frozenset({"move", "who"}),
        "moves": frozenset({"move", "who"}),
        "ends_trick": frozenset({"reasons", "won"}),
        "leads_next_trick": frozenset({"player"}),
        "goes_on_after": frozenset({"pile"}),
        "and_goes_out": frozenset(),
        "other_goes_out": frozenset({"player"}),
        "hands": frozenset({"aside", "hand"}),
        "leads_first": frozenset({"player"}),
        "leads_next_round": frozenset({"player"}),
        "copies": frozenset({"copies"}),
        "set_closes": frozenset({"size"}),
        "after_played": frozenset({"after", "move", "who"}),
        "when_moves": frozenset({"after", "move", "who"}),
        "allowed": frozenset({"moves"}),
        "nothing": frozenset(),
        "nothing_changes": frozenset(),
    },
    "summary": {
        "departs": frozenset({"by", "evidence"}),
        "source_of": frozenset({"evidence"}),
        "under_others": frozenset({"others"}),
        "or": frozenset(),
        "not_measured": frozenset(),
        "share": frozenset({"players", "share"}),
        "to_settle": frozenset({"answered", "are", "open", "questions", "rules"}),
        "question_one": frozenset({"count"}),
        "question_many": frozenset({"count"}),
        "is": frozenset(),
        "are": frozenset(),
        "answered": frozenset({"count", "standing"}),
        "clear": frozenset({"questions"}),
        "wording_only_one": frozenset({"count", "questions"}),
        "wording_only_many": frozenset({"count", "questions"}),
        "resting": frozenset({"rank", "title"}),
        "failed": frozenset({"count"}),
    },
    "consistency": {
        "no_clause": frozenset({"rank", "title"}),
        "literal_other": frozenset({"profile", "rank", "title"}),
        "shared": frozenset({"questions", "text"}),
        "shared_question": frozenset({"rank", "title"}),
        "open_settled": frozenset({"labels", "language", "rank", "title"}),
        "settled_proposal": frozenset({"labels", "language", "rank", "standing", "title"}),
        "of_question": frozenset({"rank", "title"}),
        "of_finding": frozenset({"id"}),
        "goes_on_ends": frozenset({"where", "words"}),
        "open_settled_sum": frozenset({"open", "settled", "total"}),
        "by_kind_sum": frozenset({"kinds", "total"}),
        "row_sum": frozenset({"kind"}),
        "placed": frozenset({"placed", "total"}),
    },
}
#: The `plain` section's lookup tables (not sentences, so without blanks): a basis, a language, a
#: trick-end reason or a move's action, by its key.
PLAIN_TABLES: tuple[str, ...] = ("languages", "trick_ends", "verbs", "infinitives")


@dataclass(frozen=True)
class PlainWords:
    """The report's own prose (the `plain` section): names of languages, trick endings and moves,
    the joint of a list, and the sentences of findings, scenes, the summary and the consistency
    check. Handed to the report's code once per report (reports.plain.Plain)."""

    languages: Mapping[str, str]  # language code -> its name
    trick_ends: Mapping[str, str]  # trick-end reason -> how the trick ends
    verbs: Mapping[str, str]  # a move's action after a player
    infinitives: Mapping[str, str]  # a move's action after "may not"
    and_: str  # the last joint of a list
    basis: Mapping[str, str]  # a profile's basis -> on what it answers a question
    findings: Sentences
    scenes: Sentences
    summary: Sentences
    consistency: Sentences


# ---- the report pages' words (`pages`) -------------------------------------------------------


@dataclass(frozen=True)
class PageWords:
    """The report pages' own words (the `pages` section): the groups of sentences, and the names of
    the variant comparison's metrics (by key), of the ways a trick ends (by the engine's reason, and
    `went_out`), of the bots' styles of play (by the bot's name) and of the methods of proof."""

    tables: Sentences
    charts: Sentences
    outcomes: Sentences
    sections: Sentences
    summary: Sentences
    metrics: Mapping[str, str]
    trick_ends: Mapping[str, str]
    styles: Mapping[str, str]
    #: how a property was proved, by method (ProvedProperty.method)
    methods: Mapping[str, str]


#: The groups of sentences of `pages`: group -> sentence -> the blanks it may use.
PAGE_BLANKS: Mapping[str, Mapping[str, frozenset[str]]] = {
    "tables": {
        "no_cards": frozenset(),
        "to_move": frozenset(),
        "passed": frozenset(),
        "hand_not_shown": frozenset(),
        "pile": frozenset(),
        "trick": frozenset(),
        "set_up": frozenset(),
        "leads": frozenset({"round", "leader"}),
        "dealt": frozenset({"player", "cards"}),
        "moves_so_far": frozenset(),
        "same_under": frozenset({"names", "words"}),
        "under": frozenset({"label", "words"}),
        "and": frozenset(),
    },
    "charts": {
        "by_count": frozenset({"title"}),
        "players": frozenset({"players"}),
        "fair_share": frozenset(),
        "trick_ends": frozenset(),
        "games_changed": frozenset(),
        "games_changed_under": frozenset({"reading"}),
        "interval": frozenset({"value", "low", "high"}),
    },
    "outcomes": {
        "not_measured": frozenset(),
        "none_changed": frozenset({"high"}),
        "share": frozenset({"share", "players", "low", "high"}),
        "tie": frozenset(),
        "seat": frozenset({"label"}),
        "style": frozenset({"label"}),
        "wins": frozenset({"who", "compared", "played"}),
        "ties": frozenset({"who", "compared", "played"}),
        "rounds": frozenset({"compared", "played"}),
        "spread": frozenset({"compared", "played"}),
        "relabels": frozenset(),
        "also_clear": frozenset({"count"}),
        "also_clear_many": frozenset({"count"}),
        "with_players": frozenset({"players", "changes"}),
        "other_reading": frozenset({"changes"}),
        "no_clear": frozenset(),
        "unplayed": frozenset({"players"}),
        "differ_most": frozenset({"times", "moves", "players", "first"}),
        "comes_up": frozenset({"times", "moves", "players", "first"}),
        "first": frozenset({"matches"}),
        "whose_any": frozenset(),
        "whose_seat": frozenset(),
        "bounds": frozenset({"games", "points", "whose", "rounds", "spread"}),
        "no_clear_change": frozenset(),
        "relabelled": frozenset(),
        "as_by_seat": frozenset(),
        "of": frozenset({"part", "whole"}),
    },
    "sections": {
        "never_differed": frozenset(),
        "about_text": frozenset(),
        "set_up_by_check": frozenset({"check"}),
        "minimal_by_check": frozenset({"check"}),
        "scene": frozenset(),
        "check_found": frozenset({"check", "found"}),
        "simulation": frozenset(),
        "from_section": frozenset({"section"}),
        "not_measured": frozenset(),
        "not_measurable": frozenset(),
        "point_impact": frozenset({"point", "played", "compared"}),
        "alternatives_impact": frozenset(),
    },
    "summary": {
        "under": frozenset({"count", "questions"}),
        "also": frozenset({"count"}),
        "notes": frozenset({"count"}),
        "alone": frozenset({"count"}),
        "elsewhere": frozenset({"count"}),
        "findings": frozenset({"total", "parts"}),
        "passed": frozenset(),
        "failed": frozenset({"count"}),
        "failed_see": frozenset({"count"}),
        **{
            f"{noun}_{n}": frozenset({"count"})
            for noun in ("gaps", "choices", "endless", "engines", "questions", "proved")
            for n in ("one", "many")
        },
        "discovery": frozenset({"engines", "found", "questions", "new", "proved"}),
    },
}
#: The names `pages` gives by key: the metrics, the ways a trick ends, the styles of play.
PAGE_NAMES: Mapping[str, tuple[str, ...]] = {
    "metrics": ("round_moves", "round_tricks", "rounds", "rule_of_8", "first_leader"),
    "trick_ends": ("all_passed", "set_closed", "run_closed", "rule_of_8", "went_out"),
    "styles": ("greedy", "cautious", "random"),
    "methods": ("z3", "exhaustive"),
}


# ---- the CI formats' words (`formats`) -------------------------------------------------------


@dataclass(frozen=True)
class KindNoun:
    """A kind of finding as CI tools name it: the noun, one and many, and what it means."""

    one: str
    many: str
    means: str


@dataclass(frozen=True)
class FormatWords:
    """The CI formats' own words (the `formats` section): the kinds of findings as nouns, and the
    groups of sentences of each format and of what they all say the same way (FORMAT_BLANKS)."""

    kinds: Mapping[str, KindNoun]
    common: Sentences
    github: Sentences
    junit: Sentences
    text: Sentences
    sarif: Sentences
    job_summary: Sentences

    def kind(self, kind: str) -> KindNoun:
        """The noun of a kind of finding (a kind the file does not name: its value)."""
        return self.kinds.get(kind) or KindNoun(str(kind), f"{kind}s", str(kind))


#: The groups of sentences of `formats`: group -> sentence -> the blanks it may use.
FORMAT_BLANKS: Mapping[str, Mapping[str, frozenset[str]]] = {
    "common": {
        "passed": frozenset(),
        "failed": frozenset(),
        "failed_error": frozenset(),
        "failed_strict": frozenset(),
        "checked": frozenset({"situations", "generated", "proofs", "findings", "known", "failures"}),
        "new": frozenset({"count"}),
        "errors": frozenset({"count"}),
        "not_run_level": frozenset({"checks", "level"}),
        "not_run_reason": frozenset({"checks"}),
        "warned": frozenset({"checks"}),
        "discovery": frozenset({"level", "mutants"}),
        "found": frozenset({"found"}),
        "proved": frozenset({"count"}),
        "tally": frozenset({"generated", "classified"}),
        "per_operator": frozenset(),
        "per_rule": frozenset(),
    },
    "github": {
        "more_annotation": frozenset(),
        "more_title": frozenset({"more"}),
        "overflow": frozenset({"limit", "more", "parts", "where"}),
        "full_list": frozenset(),
        "summary": frozenset({"level", "seed", "summary", "verdict"}),
    },
    "junit": {
        "suite": frozenset({"ruleset"}),
        "not_in_baseline": frozenset(),
        "new_finding": frozenset({"title"}),
    },
    "text": {
        "head": frozenset({"level", "seed", "ruleset"}),
        "in_engine": frozenset(),
        "in_check": frozenset(),
    },
    "sarif": {
        "breaks": frozenset({"check"}),
        "rule": frozenset({"kind", "means"}),
    },
    "job_summary": {
        "title": frozenset({"verdict"}),
    },
}
#: The kinds of findings `formats.kinds` names, each with these parts.
FORMAT_KIND_PARTS: tuple[str, ...] = ("one", "many", "means")
