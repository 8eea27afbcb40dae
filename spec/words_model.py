"""The rulebook's words as data: the questions a designer settles with their proposed wordings in
English, German and Spanish, the clauses in plain words and in English, the repairs of damaged
texts, known German/Spanish mismatches, severities, table scenes and outside evidence, as read from
a words file (spec/535.words.yaml) by spec/words.py.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .files import Key, nearest_line

WORDS_SUFFIX = ".words.yaml"

#: The blanks each template may use; five35 fills exactly these.
TEMPLATE_BLANKS: Mapping[str, frozenset[str]] = {
    "defect_source": frozenset({"language"}),
    "defect_clause": frozenset({"intact"}),
    "only_one_text": frozenset({"missing", "passage"}),
    "parameter": frozenset({"name", "value"}),
    "dead_clause": frozenset({"clauses", "title"}),
    "contradiction": frozenset({"clauses", "title"}),
    "other": frozenset({"clauses", "title"}),
    "standing_open": frozenset(),
    "standing_text": frozenset(),
    "standing_evidence": frozenset(),
    "standing_house": frozenset(),
    "standing_change": frozenset(),
    "high_unsettled": frozenset({"count", "questions"}),
    "high_unsettled_item": frozenset({"title", "standing"}),
    "settle_first": frozenset({"title", "rank", "questions"}),
    "no_clear_change": frozenset({"questions"}),
    "match_length": frozenset({"by_count", "end"}),
    "match_length_first": frozenset({"mean", "players"}),
    "match_length_next": frozenset({"mean", "players"}),
    "match_length_last": frozenset({"mean", "players"}),
    "texts_say_otherwise": frozenset(),
    "share_under": frozenset({"share", "against"}),
    "share_undealt": frozenset({"against", "undealt"}),
    "undealt_hands": frozenset({"players", "hand", "need", "deck"}),
    "undealt": frozenset({"players", "deck"}),
}
#: The blanks a question gathered from discovered findings (templates.topic_questions) may use.
TOPIC_QUESTION_BLANKS = frozenset({"title", "topic", "clause", "name"})
#: The kinds of discovered findings a question is gathered for when no question lists their topic.
TOPIC_QUESTION_KINDS = ("silence", "engine_decision", "liveness")
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
#: The blanks a question's wording may use: the spec's numbers (`spec_numbers`), written as digits,
#: or with `:ord` / `:word` as the words file's `numbers` write them in the wording's language.
NUMBER_BLANKS = frozenset(
    {
        "copies_small",
        "copies_large",
        "set_close_small",
        "set_close_large",
        "run_close",
        "max_cards",
        "beyond_turn",
        "match_end",
        "highest",
        "lowest",
        "players_min",
        "players_max",
        "hand_2",
        "hand_3",
        "hand_4",
        "hand_5",
        "hand_6",
        "aside_2",
        "two_hands_2",
    }
)
#: The blanks the rulebook's own words may use.
RULEBOOK_BLANKS = frozenset({"game", "profile", "n", "basis", "by", "house", "letters"})
#: The blanks an alternative's labels, words and method may use.
ALTERNATIVE_BLANKS = frozenset(
    {"points", "most_valued", "above_highest", "clause", "where", "under", "label", "combo", "plain", "part"}
)
#: The blanks of a mutant's description (the `mutations` section): the data its name carries.
MUTATION_BLANKS = frozenset({"kind", "made", "action", "players", "rank", "reason"})
#: The blanks of the detail of a silence a mutant of the rules finds (`rule_mutations.texts`).
RULE_MUTATION_BLANKS = frozenset({"name", "operator", "players", "found"})
#: The blanks of the texts of a silence a mutant finds (`mutations.texts`).
MUTATION_TEXT_BLANKS = frozenset({"description", "players", "found", "invariant"})


#: The checks whose one-line title the `checks.titles` section gives (the 'Checks run' table), by
#: the name the runner registers them under (checks/runner.py; spec/ cannot import it).
CHECK_NAMES: tuple[str, ...] = (
    "conformance",
    "interpreter",
    "proofs",
    "divergence",
    "text_examples",
    "dead_clauses",
    "invariants.matches",
    "graphs.succession",
    "graphs.beats",
    "graphs.endgames",
    "text_audit",
    "discovery.decisions",
    "discovery.mutants",
    "discovery.rules",
    "discovery.liveness",
    "discovery.interactions",
)
#: The sentences of the checks' findings and notes (`checks.sentences`): per check (or per group of
#: checks that share them, `graphs`), each sentence's name and the blanks it may use.
CHECK_SENTENCE_BLANKS: Mapping[str, Mapping[str, frozenset[str]]] = {
    "text_audit": {
        "defect_source": frozenset({"language", "file"}),
        "defect_clause": frozenset({"clause"}),
        "neither_gives": frozenset(),
        "one_does_not_give": frozenset(),
        "gap_parameter": frozenset({"name", "silent"}),
        "gap_point": frozenset({"question"}),
        "neither_says": frozenset(),
        "one_does_not_say": frozenset(),
        "gap_point_detail": frozenset({"silent", "rationale"}),
        "mismatch_detail": frozenset({"german", "spanish", "detail"}),
        "german": frozenset(),
        "spanish": frozenset(),
        "only_one_text": frozenset({"clause", "present"}),
        "only_one_text_detail": frozenset({"missing", "present"}),
        "read": frozenset({"clauses", "parameters", "points", "known"}),
    },
    "text_examples": {
        "read": frozenset({"examples", "scope", "pairs", "conflicts"}),
        "scope_ruleset": frozenset(),
        "scope_every": frozenset(),
        "quoted": frozenset({"example", "quote"}),
        "contradict": frozenset({"first", "second"}),
        "contradict_detail": frozenset({"said", "core"}),
        "conflicts": frozenset({"example", "against"}),
        "against_reading": frozenset({"readings"}),
        "against_parameters": frozenset(),
        "conflict_detail": frozenset({"said", "under", "core"}),
        "as_written": frozenset(),
        "quote.pile.single": frozenset(),
        "quote.pile.set": frozenset(),
        "quote.pile.run": frozenset(),
        "quote.eight.trigger.single": frozenset(),
        "quote.eight.trigger.set": frozenset(),
        "quote.eight.trigger.run78": frozenset(),
        "quote.eight.trigger.run789": frozenset(),
        "quote.eight.trigger.any": frozenset(),
        "quote.eight.trigger.added": frozenset(),
        "quote.eight.trigger.list": frozenset(),
        "quote.eight.exemption": frozenset(),
        "quote.trick.end.set@de": frozenset(),
        "quote.trick.end.set@es": frozenset(),
        "quote.deck.copies@de": frozenset(),
        "quote.deck.copies@es": frozenset(),
        "quote.trick.end.run": frozenset(),
        "quote.trick.end.set.reachable": frozenset(),
        "quote.trick.end.run.reachable": frozenset(),
        "quote.turn.cards": frozenset(),
        "quote.eight.value": frozenset(),
        "quote.match.end": frozenset(),
        "quote.game.players": frozenset(),
        "quote.pile.set.size": frozenset(),
        "quote.pile.run.size": frozenset(),
        "quote.deck.ranks": frozenset(),
    },
    "dead_clauses": {
        "quick": frozenset(),
        "read": frozenset({"parts", "dead"}),
        "with_players": frozenset({"players"}),
        "under": frozenset({"readings"}),
        "under_every": frozenset(),
        "never_applies": frozenset({"players", "under", "part"}),
        "never_detail": frozenset({"part", "players", "under", "reason", "core"}),
        "no_situation": frozenset({"players", "under"}),
        "overwrite_size": frozenset({"size"}),
        "overwrite_size_reason": frozenset({"max_cards"}),
        "set_closes": frozenset(),
        "set_closes_reason": frozenset(),
        "run_closes": frozenset(),
        "run_closes_reason": frozenset(),
        "eight_unlisted_run": frozenset(),
        "eight_unlisted_run_reason": frozenset(),
        "eight_added": frozenset(),
        "eight_added_reason": frozenset(),
        "exemption_later": frozenset(),
        "exemption_later_reason": frozenset(),
        "set_overflow": frozenset(),
        "set_overflow_reason": frozenset(),
        "run_overflow": frozenset(),
        "run_overflow_reason": frozenset(),
    },
    "proofs": {
        "order": frozenset({"kind", "shape"}),
        "lead_always": frozenset(),
        "add_window": frozenset(),
        "overwrite_never_closes": frozenset(),
        "lead_never_rule_of_8": frozenset(),
        "reach_close": frozenset({"kind", "players"}),
        "fails": frozenset({"property"}),
        "fails_detail": frozenset({"property", "combos"}),
        "every_reading": frozenset(),
        "under": frozenset({"readings"}),
        "read": frozenset({"held", "total", "scope", "names"}),
        "scope_ruleset": frozenset(),
        "scope_every": frozenset(),
    },
    "divergence": {
        "quick": frozenset(),
        "no_witness": frozenset({"point"}),
        "differ": frozenset({"point", "summary"}),
        "inseparable": frozenset({"point"}),
        "not_in_text": frozenset(),
        "nothing": frozenset(),
        "illegal": frozenset(),
        "trick_ends": frozenset({"reasons", "winner"}),
        "goes_out": frozenset({"seat"}),
        "empty": frozenset(),
        "becomes": frozenset({"kind", "cards"}),
        "leading": frozenset(),
        "facing": frozenset({"pile"}),
        "opening_eight": frozenset(),
        "only_with": frozenset({"readings"}),
        "play": frozenset({"players", "where", "eight", "move", "needs"}),
        "cannot_deal": frozenset({"players", "size", "deck"}),
        "deal": frozenset({"players", "deck", "sizes"}),
        "or": frozenset(),
        "leader": frozenset({"player", "reading"}),
        "first_leader": frozenset({"players", "seed", "leaders"}),
        "round_leader": frozenset({"players", "led", "leaders"}),
        "turn_order": frozenset({"players", "next"}),
    },
    "graphs": {
        "under_check": frozenset(),
    },
    "graphs.succession": {
        "read": frozenset({"label", "groups", "cycle", "runs", "low", "high"}),
        "cycle": frozenset(),
        "no_cycle": frozenset(),
        "follows": frozenset({"label", "later", "earlier"}),
        "does_not_follow": frozenset({"label", "later", "earlier"}),
        "offers": frozenset({"label", "run"}),
        "does_not_offer": frozenset({"label", "run"}),
    },
    "graphs.beats": {
        "cycle": frozenset({"kind", "size"}),
        "cycle_detail": frozenset({"label", "kind", "size", "cycle"}),
        "chains": frozenset({"label", "chains"}),
        "chain": frozenset({"kind", "size", "length", "piles"}),
        "more": frozenset({"count"}),
        "overwrites": frozenset({"label", "new", "old"}),
        "does_not_overwrite": frozenset({"label", "new", "old"}),
        "engine_cycle": frozenset({"label", "kind", "size", "cycle"}),
    },
    "graphs.endgames": {
        "read": frozenset({"label", "endgames", "states", "largest", "endings"}),
        "all_sound": frozenset({"graphs", "states", "moves"}),
        "counted": frozenset({"graphs", "states", "moves"}),
        "more": frozenset({"count"}),
        "never": frozenset({"endings"}),
        "never_detail": frozenset({"label", "deals", "endings"}),
        "failure": frozenset({"invariant", "message", "label", "hands", "leader", "moves"}),
        "no_moves": frozenset(),
        "no_end": frozenset({"deal", "label"}),
        "dead_ends": frozenset({"count", "deal", "label"}),
    },
    "invariants.matches": {
        "read": frozenset({"examples", "rulesets", "steps", "states", "finished"}),
        "stopped": frozenset({"exception", "error"}),
    },
    "conformance": {
        "read": frozenset({"pairs", "generated"}),
        "generated": frozenset({"situations", "seed"}),
        "legality": frozenset(),
        "outcome": frozenset(),
        "leading": frozenset(),
        "facing": frozenset({"pile"}),
        "opening_eight": frozenset(),
        "summary": frozenset({"players", "where", "eight", "move", "what"}),
        "failure": frozenset({"summary", "sweep", "count"}),
    },
    "interpreter": {
        "itself": frozenset(),
        "read": frozenset({"moves"}),
        "state_differs": frozenset({"seed", "moves"}),
        "allows": frozenset({"moves"}),
        "lacks": frozenset({"moves"}),
        "order": frozenset(),
        "moves_differ": frozenset({"seed", "why"}),
        "events_differ": frozenset({"seed", "move", "engine", "rules"}),
    },
    "discovery.decisions": {
        "no_hook": frozenset({"other", "reason"}),
        "method": frozenset({"engine", "variant", "other"}),
        "never_differ": frozenset({"tables", "plays", "stopped"}),
        "stopped": frozenset(),
        "only_under": frozenset({"changed"}),
        "cards": frozenset({"cards"}),
        "no_witness": frozenset(),
        "searched": frozenset({"decision", "size", "tables"}),
        "no_variant": frozenset({"decision", "reason"}),
    },
    "discovery.mutants": {
        "none": frozenset(),
        "run": frozenset({"count"}),
        "killed_one": frozenset({"mutant", "by"}),
        "killed": frozenset({"count", "mutants"}),
        "asked_one": frozenset({"mutant", "points"}),
        "asked": frozenset({"count", "mutants"}),
        "invariant_one": frozenset({"mutant", "invariant"}),
        "silences": frozenset({"count", "mutants"}),
        "equivalent": frozenset({"count", "mutants"}),
        "every_mutant": frozenset({"count"}),
        "some": frozenset({"void", "count"}),
        "unexamined": frozenset({"counted", "questions"}),
        "nothing": frozenset({"said"}),
        "recall": frozenset({"found", "points", "mutants"}),
        "back": frozenset({"point", "mutants"}),
        "escapes": frozenset({"point", "why"}),
        "no_look_alike": frozenset(),
    },
    "discovery.interactions": {
        "no_players": frozenset(),
        "scope": frozenset({"label", "deals", "players", "states", "plays", "built", "built_players"}),
        "and": frozenset(),
        "or": frozenset(),
        "witness": frozenset({"move", "moves"}),
        "read": frozenset({"candidates", "verdicts", "scope"}),
    },
    "discovery.liveness": {
        "stated_otherwise": frozenset({"rules"}),
        "measure_otherwise": frozenset(),
        "checked_readings": frozenset(),
        "as_checked": frozenset(),
        "read": frozenset({"held", "asked", "proved"}),
        "not_asked": frozenset({"property", "why"}),
        "and": frozenset(),
        "hand_lemma": frozenset(),
        "point": frozenset({"points"}),
        "points": frozenset({"points"}),
        "rounds": frozenset({"rounds", "players"}),
    },
    "discovery.oracle": {
        "ended_all_passed": frozenset(),
        "ended_set_closed": frozenset(),
        "ended_run_closed": frozenset(),
        "ended_rule_of_8": frozenset(),
        "single_7_not_1": frozenset(),
        "single_14_not_7": frozenset(),
        "single_1_beats_7": frozenset(),
        "set_high_not_low": frozenset(),
        "set_low_beats_high": frozenset(),
        "overwrites_itself": frozenset({"pile"}),
        "overwrites_other_shape": frozenset({"new", "old"}),
        "not_following": frozenset({"b", "a"}),
        "following_down": frozenset({"b", "a"}),
        "eight_never": frozenset({"cards"}),
        "opening_eight": frozenset({"pile"}),
        "player": frozenset({"seat"}),
        "no_player": frozenset(),
        "trick_goes_to": frozenset({"ended", "led", "last", "winner"}),
        "either": frozenset({"first", "second"}),
        "set_closes_by": frozenset({"size", "ended"}),
        "set_never_closes": frozenset({"players", "want"}),
        "set_closes_at": frozenset({"players", "closing", "want"}),
        "closing_unplaced": frozenset({"kind", "closing"}),
        "run_closes_at_four": frozenset(),
        "run_open_at_five": frozenset(),
        "copies": frozenset({"copies", "players", "want"}),
        "empty_hand_scores": frozenset(),
        "hand_not_its_cards": frozenset({"a", "b"}),
        "eight_not_most": frozenset({"rank"}),
        "not_led_as": frozenset({"cards", "kind"}),
        "led_too_many": frozenset({"more"}),
        "won_by": frozenset({"won", "lowest"}),
        "others_on": frozenset({"low"}),
        "match_goes_on": frozenset({"after", "rest"}),
        "match_ends": frozenset({"after", "rest"}),
        "raised": frozenset({"error", "text"}),
        "in_match": frozenset({"match", "round"}),
        "in_match_move": frozenset({"match", "round", "move"}),
        "states.pile.single.example": frozenset(),
        "states.pile.set.example": frozenset(),
        "states.action.overwrite.strictly": frozenset(),
        "other.action.overwrite.strictly": frozenset(),
        "states.action.overwrite.match": frozenset(),
        "other.action.overwrite.match": frozenset(),
        "states.pile.run.consecutive": frozenset(),
        "other.pile.run.consecutive": frozenset(),
        "rests_on.pile.run.consecutive": frozenset(),
        "states.eight.trigger.single": frozenset(),
        "other.eight.trigger.single": frozenset(),
        "states.eight.trigger.set": frozenset(),
        "other.eight.trigger.set": frozenset(),
        "states.eight.trigger.run78": frozenset(),
        "other.eight.trigger.run78": frozenset(),
        "states.eight.trigger.run789": frozenset(),
        "other.eight.trigger.run789": frozenset(),
        "states.eight.exemption.opening": frozenset(),
        "other.eight.exemption.opening": frozenset(),
        "states.trick.winner.last": frozenset(),
        "other.trick.winner.last": frozenset(),
        "states.trick.end.set.card": frozenset(),
        "other.trick.end.set.card": frozenset(),
        "states.trick.end.run.card": frozenset(),
        "other.trick.end.run.card": frozenset(),
        "states.deck.copies.count": frozenset(),
        "other.deck.copies.count": frozenset(),
        "states.round.scoring.cards": frozenset(),
        "other.round.scoring.cards": frozenset(),
        "states.eight.value.points": frozenset(),
        "other.eight.value.points": frozenset(),
        "states.match.end.score": frozenset(),
        "other.match.end.score": frozenset(),
        "states.match.winner.lowest": frozenset(),
        "other.match.winner.lowest": frozenset(),
        "states.trick.end.four": frozenset(),
        "other.trick.end.four": frozenset(),
        "states.action.add.every": frozenset(),
        "other.action.add.every": frozenset(),
        "rests_on.action.add.every": frozenset(),
        "states.action.overwrite.every": frozenset(),
        "other.action.overwrite.every": frozenset(),
        "states.eight.trigger.every": frozenset(),
        "other.eight.trigger.every": frozenset(),
    },
    "discovery.universal": {
        "seat_to_move": frozenset({"seat"}),
        "keeping": frozenset({"kept"}),
        "passed": frozenset(),
        "reopened": frozenset(),
        "moment": frozenset({"parts"}),
        "no_add_lengthens_one": frozenset({"players", "count", "pile"}),
        "no_add_lengthens": frozenset({"players", "count", "pile"}),
        "may_not_overwrite": frozenset({"new", "old"}),
        "may_overwrite": frozenset({"new", "old"}),
        "overwrites_other_size": frozenset({"new", "old"}),
        "overwrites_past_turn": frozenset({"new", "old", "turn"}),
        "each_ranks_higher": frozenset({"a", "b"}),
        "neither_ranks_higher": frozenset({"a", "b"}),
        "add_not_closing": frozenset({"cards", "pile", "moment"}),
        "eight_not_rule": frozenset({"old", "cards", "moment"}),
        "eight_by_opening": frozenset({"move", "pile", "before"}),
        "eight_not_by_opening": frozenset({"move", "pile", "before"}),
        "closed_below_size": frozenset({"move", "onto", "kind"}),
        "ends_unlisted": frozenset({"move", "onto", "moment"}),
        "empty_table": frozenset(),
        "the_pile": frozenset({"pile"}),
        "last_pass_goes_on": frozenset({"pile"}),
        "pass_ends": frozenset({"pile", "still_in"}),
    },
    "discovery.rules": {
        "same_rules": frozenset(),
        "by_z3": frozenset(),
        "by_probe": frozenset(),
        "by_play": frozenset(),
        "no_difference_over": frozenset({"how"}),
        "no_difference_in": frozenset({"matches", "how"}),
        "kill": frozenset({"by", "said"}),
        "plays_as": frozenset({"point", "reading"}),
        "broken": frozenset({"error"}),
        "no_table": frozenset(),
        "silence": frozenset(),
        "cannot_be_played": frozenset({"error"}),
        "fails_clause": frozenset({"clause", "why"}),
        "the_copy": frozenset({"why"}),
        "changes_no_play": frozenset(),
        "weakening_unseen": frozenset({"no_table"}),
        "not_made_again": frozenset(),
        "made_again_one": frozenset({"operator", "after", "verdict", "why"}),
        "made_again": frozenset({"mutants"}),
    },
    "runner": {
        "level": frozenset({"level", "levels"}),
        "and": frozenset(),
        "other_game": frozenset({"bound", "game"}),
        "not_reference": frozenset({"why", "lacks"}),
        "unknown": frozenset({"reason", "rlimit", "option"}),
        "model_limit": frozenset({"error"}),
        "stopped": frozenset({"error"}),
        "nothing": frozenset(),
        "left_out": frozenset({"reading"}),
        "bound_to_535": frozenset(),
        "bound_to_535.conformance": frozenset(),
        "bound_to_535.interpreter": frozenset(),
        "bound_to_535.proofs": frozenset(),
        "bound_to_535.divergence": frozenset(),
        "bound_to_535.text_examples": frozenset(),
        "bound_to_535.dead_clauses": frozenset(),
        "bound_to_535.invariants.matches": frozenset(),
        "bound_to_535.graphs.succession": frozenset(),
        "bound_to_535.graphs.beats": frozenset(),
        "bound_to_535.graphs.endgames": frozenset(),
        "bound_to_535.discovery.decisions": frozenset(),
        "bound_to_535.discovery.mutants": frozenset(),
        "bound_to_535.discovery.rules": frozenset(),
        "bound_to_535.discovery.liveness": frozenset(),
        "bound_to_535.discovery.interactions": frozenset(),
        "reference_only": frozenset(),
        "reference_only.discovery.decisions": frozenset(),
        "reference_only.discovery.mutants": frozenset(),
        "reference_only.discovery.interactions": frozenset(),
        "raise_rlimit": frozenset(),
    },
    "oracles": {
        "leader_may_not_pass": frozenset(),
        "may_not_pass": frozenset(),
        "lead_on_pile": frozenset(),
        "no_pile": frozenset({"action"}),
        "no_rule": frozenset({"action"}),
        "card_count": frozenset({"count", "rule"}),
        "not_in_deck": frozenset({"cards"}),
        "not_a_pile": frozenset({"cards"}),
        "not_one_pile": frozenset({"pile", "cards"}),
        "not_allowed": frozenset({"rule", "failing"}),
        "does_not_hold": frozenset({"part"}),
        "may_fails": frozenset(),
        "section_detail": frozenset({"question", "default", "rationale"}),
        "no_clauses": frozenset(),
    },
    "invariants": {
        "cards_accounted": frozenset({"diff"}),
        "pile_valid": frozenset({"pile", "kind"}),
        "pile_caps": frozenset({"pile", "closing"}),
        "raised": frozenset({"exception", "error"}),
        "over_with_moves": frozenset({"move"}),
        "goes_on": frozenset({"scores"}),
        "goes_on_expected": frozenset(),
        "not_in_trick": frozenset({"player"}),
        "in_trick_expected": frozenset(),
        "no_move": frozenset(),
        "leader_may_pass": frozenset({"player"}),
        "no_pass": frozenset(),
        "not_held": frozenset({"move", "player"}),
        "legal_in_engine": frozenset({"move", "why"}),
        "not_legal": frozenset(),
        "roundtrip_raised": frozenset({"exception", "error"}),
        "roundtrip_differs": frozenset(),
        "copy_differs": frozenset(),
        "leader_passed": frozenset({"player"}),
        "applied": frozenset({"move", "why"}),
        "no_pile": frozenset(),
        "move_on": frozenset({"move", "pile"}),
        "made": frozenset({"on", "pile"}),
        "went_on": frozenset({"on", "expected"}),
        "ended": frozenset({"on", "got"}),
        "ended_for": frozenset({"on", "got", "expected"}),
        "winner": frozenset({"winner", "rules", "placer"}),
        "leads": frozenset({"player"}),
        "next_seat": frozenset({"player", "move", "moved", "next"}),
        "none_left": frozenset({"player"}),
        "some_left": frozenset({"player"}),
        "phase": frozenset({"phase"}),
        "penalties": frozenset({"penalties", "expected"}),
        "scores": frozenset({"scores", "expected"}),
        "should_end": frozenset({"scores"}),
        "should_go_on": frozenset({"scores"}),
        "winners": frozenset({"winners", "expected"}),
        "move_raised": frozenset({"move", "exception", "error"}),
        "next_round_raised": frozenset({"exception", "error"}),
        "replay_differs": frozenset(),
        "deals_differ": frozenset({"seed"}),
    },
    "impact.scenes": {
        "players": frozenset({"players", "low", "high"}),
        "rank": frozenset({"ranks"}),
        "ranks": frozenset({"ranks"}),
        "copies": frozenset({"count", "rank", "copies", "players"}),
        "not_set_up": frozenset({"error"}),
        "skipped": frozenset({"scene", "words", "spec", "label", "problem"}),
        "not_allowed": frozenset(),
        "after": frozenset({"move"}),
        "legal_moves": frozenset(),
        "copies_of_each_card": frozenset(),
        "set_closes_at": frozenset(),
        "same": frozenset(),
        "differ": frozenset({"differ"}),
        "summary": frozenset({"describe", "verdict"}),
    },
    "impact": {
        "method": frozenset({"games", "seed", "bots", "played", "compared"}),
        "compared": frozenset({"what", "method"}),
        "outcomes": frozenset({"games", "seed", "bots", "played", "compared", "alpha"}),
        "undealable": frozenset({"players", "error"}),
    },
    "impact.alternatives": {
        "under": frozenset({"readings"}),
        "as_played": frozenset(),
    },
}


@dataclass(frozen=True)
class Evidence:
    """One fact about the published game and where it comes from (the page named in full, even
    where the file says "same page")."""

    id: str
    fact: str
    source: str
    #: Who the source is, as a rulebook names it ("laut Board Game Arena"); None: not named.
    by: str | None = None


@dataclass(frozen=True)
class Side:
    label: str
    words: str


@dataclass(frozen=True)
class AlternativeWords:
    """The two sides of a finding in words; `variant` names the engine of the compared side."""

    name: str
    variant: str | None
    played: Side
    compared: Side
    method: str

    def filled(self, **blanks: str) -> AlternativeWords:
        """The words with their blanks filled in (a blank not given stays empty)."""

        def fill(text: str) -> str:
            return text.format_map(_Blanks(blanks))

        return replace(
            self,
            played=Side(fill(self.played.label), fill(self.played.words)),
            compared=Side(fill(self.compared.label), fill(self.compared.words)),
            method=fill(self.method),
        )


class _Blanks(dict[str, object]):
    """A sentence's blanks (a number, an id or a sentence, written as format() writes it); a blank
    not given reads as nothing."""

    def __missing__(self, key: str) -> str:
        return ""


@dataclass(frozen=True)
class CheckWords:
    """One check's words (the `checks` section): its one-line title ("" for a group of checks
    sharing sentences) and the sentences of its findings and notes (CHECK_SENTENCE_BLANKS), each
    written by calling it with the sentence's name and blanks."""

    name: str
    title: str
    sentences: Mapping[str, str]

    def __call__(self, which: str, /, **blanks: object) -> str:
        """Sentence `which` with its blanks filled in."""
        return self.sentences[which].format_map(_Blanks(blanks))


Play = tuple[str, tuple[int, ...]]  # an action and its cards, sorted


@dataclass(frozen=True)
class SceneWords:
    """A small table set up by hand: hands (seat 0 first), the leader, the plays so far, and the
    moves whose outcome a finding's two sides are asked about."""

    name: str
    describe: str
    hands: tuple[tuple[int, ...], ...]
    leader: int
    plays: tuple[Play, ...]
    then: tuple[Play, ...]
    show_deck: bool


@dataclass(frozen=True)
class MismatchWords:
    """A known difference between the German and the Spanish wording of one clause: reported while
    both patterns still match the spec's clause texts."""

    key: str
    clause: str
    de_pattern: str
    es_pattern: str
    de_quote: str
    es_quote: str
    title: str
    detail: str
    wording: str
    severity: str
    variation_point: str | None
    pair: str | None  # the clause whose German and Spanish texts the text-example check proves apart
    alternative: AlternativeWords | None
    scene: SceneWords | None


@dataclass(frozen=True)
class Use:
    """How a subject of the text audit is graded and shown: its severity, its alternative, its scene."""

    severity: str
    alternative: AlternativeWords | None = None
    scene: SceneWords | None = None


@dataclass(frozen=True)
class ImpactGrades:
    high_share: float
    low_share: float
    conventions: tuple[str, ...]
    # Where both readings were played to the end (`severities.by_outcome`): the severity of an
    # answer that clearly changes the outcome, and the most an answer that changes none may have
    # (None: the outcome grades nothing).
    clear_outcome: str | None = None
    unclear_at_most: str | None = None


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


#: The languages of a proposed wording: English, and the rulebook's own German and Spanish.
LANGUAGES: tuple[str, ...] = ("en", "de", "es")


@dataclass(frozen=True)
class Wording:
    """One sentence the clarified rulebook inserts after clause `at`, in every language, when the
    rules played take the readings in `when` (empty: always)."""

    at: str
    text: Mapping[str, str]
    when: Mapping[str, str]
    # The parameter values the sentence spells out (parameter -> value, a part of a mapping's
    # value): for a spec whose parameters differ it is not true, and is left out.
    holds: Mapping[str, Any] = field(default_factory=dict)

    def applies(self, readings: Mapping[str, str]) -> bool:
        return all(readings.get(point) == reading for point, reading in self.when.items())


@dataclass(frozen=True)
class QuestionWords:
    """A question a designer settles: the variation points (or the parameters, or the engine
    variants of the findings) it gathers, the question in words, a short name per reading, and the
    sentences that settle it under each reading."""

    id: str
    title: str
    points: tuple[str, ...]
    parameters: tuple[str, ...]
    variants: tuple[str, ...]
    ask: Mapping[str, str]
    readings: Mapping[str, str]  # reading (or `point=reading`) -> short plain name
    wordings: tuple[Wording, ...]
    # The topics of discovered findings (Finding.topic: an engine hook, a rule pair, an engine
    # decision's id) this question gathers; a topic belongs to one question only.
    topics: tuple[str, ...] = ()
    #: why the proposed answer is what it is, and what it leaves unresolved, in a designer's words
    #: (English; the report shows it with the answer's basis); None: not said
    grounds: str | None = None
    #: a question without points whose answer the texts' own words or examples point to: the report
    #: says it is to confirm rather than open, and the rulebooks print its wording as a clarification
    texts_point_to_answer: bool = False

    def wordings_for(self, readings: Mapping[str, str]) -> tuple[Wording, ...]:
        """The sentences that settle the question under `readings` (point -> reading)."""
        return tuple(w for w in self.wordings if w.applies(readings))

    def wording(self, readings: Mapping[str, str], language: str = "en") -> str:
        """Those sentences in one language, as one text ("" when the words file has none)."""
        return " ".join(w.text[language] for w in self.wordings_for(readings) if language in w.text)


@dataclass(frozen=True)
class TopicQuestionWords:
    """The generic words of a question gathered from discovered findings of one kind whose topic no
    question lists: its title, the question and the proposed sentence in every language, with
    blanks (TOPIC_QUESTION_BLANKS) the pipeline fills from the findings."""

    kind: str
    title: str
    ask: Mapping[str, str]
    wording: Mapping[str, str]


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


# ---- the conformance vectors' words (the `vectors` section) ------------------------------------

#: The sentences of the conformance vectors (`vectors.sentences`): each one's name and its blanks.
VECTOR_SENTENCE_BLANKS: Mapping[str, frozenset[str]] = {
    "text_example": frozenset({"game"}),
    "no_setup": frozenset(),
    "not_refused": frozenset(),
    "no_such_deal": frozenset(),
    "not_observable": frozenset({"why"}),
    "one_reading": frozenset(),
    "not_found": frozenset({"bounds", "others"}),
    "search_bounds": frozenset(),
    "unshown": frozenset(),
    "clauses_not_claimed": frozenset({"game"}),
    "witness": frozenset({"point", "reading", "players", "move", "onto"}),
    "onto": frozenset({"move"}),
    "seeded": frozenset({"players", "seed"}),
    "done_scenes": frozenset(),
    "done_witnesses": frozenset(),
    "done_seeded": frozenset(),
    "not_object": frozenset({"got"}),
    "differs": frozenset({"field", "expected", "got"}),
    "unknown_fields": frozenset({"fields"}),
    "not_error": frozenset({"got"}),
    "missing": frozenset({"field"}),
    "not_list": frozenset({"got"}),
    "twice": frozenset(),
    "moves": frozenset({"lacks", "adds"}),
    "request": frozenset({"id", "type", "why"}),
    "other_readings": frozenset({"readings"}),
    "other_reading": frozenset({"point", "reading", "suite"}),
    "other_parameters": frozenset({"parameters"}),
}


@dataclass(frozen=True)
class Sentences:
    """A group of sentences (a group of the `plain`, `pages` or `formats` section, the vectors'), each
    written by calling it with the sentence's name and blanks."""

    sentences: Mapping[str, str]

    def __call__(self, which: str, /, **blanks: object) -> str:
        """Sentence `which` with its blanks filled in."""
        return self.sentences[which].format_map(_Blanks(blanks))


@dataclass(frozen=True)
class VectorWords(Sentences):
    """The conformance vectors' words (the `vectors` section): index.json's `compare`, why each
    point the protocol cannot show is not shown (by point), each scene's title (by its slug), and
    the sentences of the suite and of its runner (VECTOR_SENTENCE_BLANKS), each written by calling
    it with the sentence's name and blanks."""

    compare: str
    not_observable: Mapping[str, str]
    titles: Mapping[str, str]


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


@dataclass(frozen=True)
class ClauseWords:
    name: str  # how the report speaks of the clause
    en: str  # a faithful English translation


@dataclass(frozen=True)
class Words:
    path: Path
    evidence: Mapping[str, Evidence]
    questions: Mapping[str, QuestionWords]
    clauses: Mapping[str, ClauseWords]
    repairs: Mapping[str, Mapping[str, str]]  # clause -> language -> the clause as it should read
    rulebook: Mapping[str, Mapping[str, Any]]  # language -> the clarified rulebook's own words
    #: The English sentence per point or parameter under its first listed reading (the spec's default
    #: once the spec is attached): what a check proposes for a finding about that subject.
    wordings: Mapping[str, str]
    templates: Mapping[str, str]
    #: each kind of finding (its value) in a designer's words
    kinds: Mapping[str, str]
    by_impact: ImpactGrades
    mismatches: tuple[MismatchWords, ...]
    gaps: Mapping[str, Use]
    defects: Use  # the severity of every defect
    defect_clauses: Mapping[str, Use]
    defect_sources: Mapping[str, Use]
    only_one_text: Use
    alternatives: Mapping[str, AlternativeWords]
    scenes: Mapping[str, SceneWords]
    scene_of: Mapping[str, Mapping[str, SceneWords]]
    liveness: LivenessWords
    #: The conformance vectors' words (the `vectors` section).
    vectors: VectorWords
    lines: Mapping[Key, int]
    #: The report's own prose (the `plain` section).
    plain: PlainWords
    #: The engine's own decisions where the texts are silent (the `decisions` section), by id.
    decisions: Mapping[str, DecisionWords] = field(default_factory=dict)
    #: kind of finding -> its words, for a question gathered per topic (templates.topic_questions).
    topic_questions: Mapping[str, TopicQuestionWords] = field(default_factory=dict)
    topic_no_clause: Mapping[str, str] = field(default_factory=dict)  # language -> "the rules"
    #: kind of discovered finding -> its severity where no measurement grades it (severities.by_kind).
    kind_severity: Mapping[str, str] = field(default_factory=dict)
    #: The rule-interaction check's words; None in a words file without the section.
    interactions: InteractionWords | None = None
    #: The engine mutants' words (the `mutations` section), by hook.
    mutations: Mapping[str, MutationWords] = field(default_factory=dict)
    #: What a silence found by a mutant says; None in a words file without `mutations.texts`.
    mutation_texts: MutationTexts | None = None
    #: What a silence found by a mutant of the rules says; None without `rule_mutations`.
    rule_mutations: RuleMutationWords | None = None
    #: The game the file was written for (its `game:`), None where it does not say.
    game: str | None = None
    #: Whether these are another game's words, borrowed for the toolkit's own phrasing only (the
    #: spec's game has no words file): no question, clause, scene or rulebook wording exists yet.
    foreign: bool = False
    #: language -> {"ordinal" | "cardinal": number -> word}: how a wording's blank `{name:ord}` or
    #: `{name:word}` writes a number (the `numbers` section).
    numbers: Mapping[str, Mapping[str, Mapping[int, str]]] = field(default_factory=dict)
    #: check name -> its one-line title (`checks.titles`).
    check_titles: Mapping[str, str] = field(default_factory=dict)
    #: check (or group of checks) -> sentence name -> the sentence (`checks.sentences`).
    check_sentences: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: The report pages' own words (`pages`).
    pages: PageWords = field(kw_only=True)
    #: The CI formats' own words (`formats`).
    formats: FormatWords = field(kw_only=True)

    def where(self, *key: str | int) -> str:
        """`file:line: key` of an entry, for errors that point into the words file."""
        dotted = ".".join(str(k) for k in key)
        return f"{self.path}:{nearest_line(dict(self.lines), tuple(key))}: {dotted}"

    def check(self, name: str) -> CheckWords:
        """The words of check (or group of checks) `name`: handed to a check once per run."""
        return CheckWords(name, self.check_titles.get(name, ""), self.check_sentences.get(name, {}))

    def template(self, which: str, /, **blanks: str) -> str:
        """Template `which` with its blanks filled in."""
        return self.templates[which].format_map(_Blanks(blanks))

    def wording(self, subject: str) -> str | None:
        return self.wordings.get(subject)

    def departed_from(self, topics: Sequence[str]) -> tuple[str, ...]:
        """The outside evidence (ids this file lists) that the engine's decisions on `topics`
        depart from, each once, in order: a source that plays the other answer."""
        out: list[str] = []
        for topic in topics:
            decision = self.decisions.get(topic)
            for eid in decision.departs_from if decision is not None else ():
                if eid in self.evidence and eid not in out:
                    out.append(eid)
        return tuple(out)

    def question_of(self, subject: str) -> QuestionWords | None:
        """The question that settles a variation point or a parameter."""
        return next(
            (q for q in self.questions.values() if subject in q.points or subject in q.parameters), None
        )

    def clause_name(self, clause: str) -> str:
        words = self.clauses.get(clause)
        return words.name if words else clause

    def scene_for(self, check: str, subject: str) -> SceneWords | None:
        """The scene that shows `check`'s finding about `subject` (its own key for it)."""
        return self.scene_of.get(check, {}).get(subject)

    def alternative(self, name: str) -> AlternativeWords:
        return self.alternatives[name]


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
