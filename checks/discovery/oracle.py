"""The text-derived oracle: what the clauses themselves say, put to an engine as concrete questions.

Each question asks an engine's public hooks something the texts state outright and cites the
clause: the texts' own examples (checks/text/text_examples.py holds them as Z3 constraints; here
they are asked of an engine), the numbers the clauses give, and the few consequences a clause
states for every reading: every pile the texts define can be led as itself ("Spielbare
Stapeltypen"), a trick ends in none but the four ways ("1 von 4 Dingen"), the match ends at the
score the clause gives and goes to the fewest points. A question asks nothing where the texts pull
apart, because there the text decides nothing a mutant could contradict:

- the rank order of runs (the example "1,2,3 > 11,12,13" against "höherrangig", run_order's
  question), and where an 8 stands ("die wertvollsten" read as strength, eight_rank's question):
  the overwrite questions leave the 8 out and ask about runs only that one run of a size cannot
  beat itself;
- at 5 players the copies and the closing size of a set (German "5+", Spanish "más de 5"): both 4
  and 5 pass there;
- which plays of an 8 are the Rule of 8 beyond the listed forms (8,9; an added 8): the questions ask
  only about the listed forms played as an overwrite;
- the exemption beyond the opening play: only "the opening play never triggers" is asked;
- the closing of a set or run by a lead or an overwrite (German "legt", Spanish "añade"): only an
  add is asked about.

The questions are independent of which variation points a spec declares (they read no point and no
reading), so hiding a point never changes what kills a mutant. The Z3 model's own clause-level
facts are not re-asked here: its examples are these questions, asked of the engine.

Play invariants (`play_violation`) are the invariants of checks/play/invariants.py that hold under
every reading, checked over a few seeded matches of the engine itself (never against a model, which
would read the readings): `leader.no_pass` (clause lead.no_pass), `round.end` (round.end),
`turn.passed` (action.pass.out: "scheidet er für den Stich aus"), `match.end` (match.end). Two more
encode rules no clause writes down, and a mutant that only they catch is still a silence:
`cards.accounted` (no card appears or vanishes) and `turn.next` (turns go round the table in one
direction: the texts never say how turns pass). The others in invariants.py judge by the spec's
rules model, that is by the readings, and are not used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from ...engine import PASS, Game, Move, Pile, Play, State, TrickEndReason
from ...engine.bots import get_bot
from ...engine.simulate import EndlessPlay, bot_rngs, game_seed, move_limit
from ...engine.state import MatchEnd, RoundEnd, TrickEnd
from ...spec import SpecError
from . import universal as every

EIGHT = 8
#: How a trick ended, in the words a kill's message uses (it is read in the report's technical part).
ENDED_BY: dict[TrickEndReason, str] = {
    TrickEndReason.ALL_PASSED: "all but one passing",
    TrickEndReason.SET_CLOSED: "a closed set",
    TrickEndReason.RUN_CLOSED: "a closed run",
    TrickEndReason.RULE_OF_8: "the Rule of 8",
}


@dataclass(frozen=True)
class Question:
    """One thing the texts state, asked of an engine: `ask` returns why the engine contradicts it,
    or None (it agrees, or the question does not apply to this deck or table)."""

    id: str
    clause: str
    states: str  # what the text says, in the words of the clause (German unless `lang` says otherwise)
    ask: Callable[[Game], str | None]
    # The other text's words for the same thing ("" where that text lacks them: the Spanish copy's
    # examples are cut off), so a designer sees which text states what.
    other: str = ""
    lang: str = "de"
    # What the question takes for granted beyond the quoted words, said where a kill is listed as
    # settled, so a reader who does not take it for granted sees that it is an open question.
    rests_on: str = ""


def _state(game: Game, pile: Pile | None = None, opening_has_eight: bool = False) -> State:
    ranks = game.ruleset.ranks
    start = game.start_round([[ranks[seat % len(ranks)]] for seat in range(game.players)], 0)
    return replace(start, pile=pile, opening_has_eight=opening_has_eight)


def _has(game: Game, *ranks: int) -> bool:
    return all(r in game.ruleset.ranks for r in ranks)


def _single_example(game: Game) -> str | None:
    if not _has(game, 1, 7, 14):
        return None
    one, seven, fourteen = (Pile("single", (r,)) for r in (1, 7, 14))
    # The one comparison of the example that fails, named alone (a 1 made strongest still loses
    # 7 < 14; a 7 made strongest still beats the 1).
    if not game.beats(seven, one):
        return "a single 7 does not beat a single 1"
    if not game.beats(fourteen, seven):
        return "a single 14 does not beat a single 7"
    if game.beats(one, seven):
        return "a single 1 beats a single 7"
    return None


def _set_example(game: Game) -> str | None:
    if not _has(game, 1, 14) or game.copies < 3 or game.ruleset.max_cards_per_turn < 3:
        return None
    low, high = Pile("set", (1, 1, 1)), Pile("set", (14, 14, 14))
    if not game.beats(high, low):
        return "the set 14,14,14 does not beat 1,1,1"
    if game.beats(low, high):
        return "the set 1,1,1 beats 14,14,14"
    return None


def _never_its_equal(game: Game) -> str | None:
    for pile in game.placeable_piles():
        if game.beats(pile, pile):
            return f"{pile} overwrites {pile}, a pile of the same rank, not a higher-ranked one"
    return None


def _same_type_and_size(game: Game) -> str | None:
    piles = game.placeable_piles()
    for new in piles:
        for old in piles:
            if (new.kind != old.kind or new.size != old.size) and game.beats(new, old):
                return f"{new} overwrites {old}, which is not a lower pile of its type and size"
    return None


def _runs_consecutive(game: Game) -> str | None:
    ranks = game.ruleset.ranks
    for a, b in pairwise(ranks):
        if b == a + 1 and not game.follows(a, b):
            return f"{b} does not follow {a} in a run"
        if b < a and game.follows(a, b):
            return f"{b} follows {a} in a run"
    return None


def _listed_eight(cards: tuple[int, ...]) -> Callable[[Game], str | None]:
    def ask(game: Game) -> str | None:
        if not _has(game, *cards) or len(cards) > game.ruleset.max_cards_per_turn:
            return None
        kind = "single" if len(cards) == 1 else ("set" if len(set(cards)) == 1 else "run")
        if kind == "set" and game.copies < len(cards):
            return None
        move = Move("overwrite", tuple(sorted(cards)))
        legal_somewhere = False
        for old in game.placeable_piles():
            if old.kind != kind or old.size != len(cards) or EIGHT in old.cards:
                continue
            state = _state(game, old)
            option = game.option(state, move)
            if option is None:
                continue
            legal_somewhere = True
            if game.rule_of_8(option, state):
                return None
        if not legal_somewhere:
            return None
        return f"overwriting with {','.join(map(str, cards))} is never the Rule of 8"

    return ask


def _opening_never(game: Game) -> str | None:
    state = _state(game)
    for pile in game.placeable_piles():
        option = game.option(state, Move("lead", tuple(sorted(pile.cards))))
        if option is not None and game.rule_of_8(option, state):
            return f"leading {pile} is the Rule of 8"
    return None


def _probe_tricks(game: Game) -> list[tuple[tuple[Play, ...], int]]:
    """Small tricks and their last placer."""
    p = game.players
    out: list[tuple[tuple[Play, ...], int]] = []
    for s in range(p):
        a, b = s, (s + 1) % p
        lead, over, add = Move("lead", (1,)), Move("overwrite", (2,)), Move("add", (1,))
        out.append(((Play(a, lead), Play(b, over)), b))
        out.append(((Play(a, lead), Play(b, PASS)), a))
        out.append(((Play(a, lead), Play(b, add), Play(a, PASS)), b))
    return out


def _last_placer_wins(game: Game) -> str | None:
    for trick, last in _probe_tricks(game):
        for reason in TrickEndReason:
            winner = game.trick_winner(trick, (reason,))
            if winner != last:
                # Seats named as the report numbers players (from 1): "the player who opened it"
                # may also be the player after the last placer, so say which seat it is.
                led = trick[0].player + 1
                return (
                    f"a trick ended by {ENDED_BY[reason]}, led by player {led} and last placed on by "
                    f"player {last + 1}, goes to "
                    + (f"player {winner + 1}" if winner is not None else "no player")
                    + f", not to player {last + 1}"
                )
    return None


#: The closing card of a set at each player count, as each text gives it: German "die vierte ...
#: (oder die fünfte in einem Spiel mit 5+ Spielern)", Spanish "la cuarta ... (o la quinta en una
#: partida de más de 5 jugadores)"; the copies of deck.copies follow the same split.
def _by_the_texts(players: int) -> set[int]:
    german = 5 if players >= 5 else 4
    spanish = 5 if players > 5 else 4
    return {german, spanish}


def _set_closes(game: Game) -> str | None:
    allowed = _by_the_texts(game.players)
    rank = game.ruleset.ranks[0]
    closing = None
    for size in range(1, 9):
        reason = game.closes(Pile("set", (rank,) * size), "add")
        if reason is not None:
            if reason != TrickEndReason.SET_CLOSED:
                return f"the set of {size} ends the trick by {ENDED_BY[reason]}"
            closing = size
            break
    if closing not in allowed:
        want = " or ".join(map(str, sorted(allowed)))
        if closing is None:
            return f"with {game.players} players no card added to a set ends the trick, not even card {want}"
        return f"with {game.players} players adding card {closing} of a set ends the trick, not card {want}"
    return None


def _closing_card_placeable(kind: str) -> Callable[[Game], str | None]:
    """The card that closes a set (or a run) can be placed: some add, onto a pile a turn placed or
    earlier adds lengthened, makes a set (a run) of the size at which it closes, where the deck
    holds that many copies."""
    return lambda game: _closing_placed(game, kind)


def _closing_placed(game: Game, kind: str) -> str | None:
    start = game.ruleset.ranks[0]
    closing = None
    for size in range(2, 9):
        cards = (start,) * size if kind == "set" else game.runs_from(start, size)
        if cards is not None and game.closes(Pile(kind, cards), "add") is not None:  # type: ignore[arg-type]
            closing = size
            break
    if closing is None or (kind == "set" and closing > game.copies):
        return None
    # From every pile a turn places, then from every pile earlier adds made of it ('Eine oder
    # mehrere Karten' in one add or over several), stopping at the first add that closes.
    frontier = [pile for pile in game.placeable_piles() if pile.kind == kind]
    seen = set(frontier)
    while frontier:
        grown = []
        for pile in frontier:
            for _, new in game.add_options(pile):
                if new.kind != kind:
                    continue
                if new.size == closing:
                    return None
                if new.size < closing and new not in seen:
                    seen.add(new)
                    grown.append(new)
        frontier = grown
    return f"no add, in one turn or over several, makes a {kind} of {closing}, the size that ends the trick"


def _run_closes(game: Game) -> str | None:
    start = game.ruleset.ranks[0]
    five, four = game.runs_from(start, 5), game.runs_from(start, 4)
    if five is None or four is None:
        return None
    if game.closes(Pile("run", four), "add") is not None:
        return "adding the fourth card of a run already ends the trick"
    if game.closes(Pile("run", five), "add") != TrickEndReason.RUN_CLOSED:
        return "adding the fifth card of a run does not end the trick as a closed run"
    return None


def _copies(game: Game) -> str | None:
    allowed = _by_the_texts(game.players)
    if game.copies not in allowed:
        want = " or ".join(map(str, sorted(allowed)))
        return f"{game.copies} copies of each card with {game.players} players, not {want}"
    return None


def _penalty_adds_up(game: Game) -> str | None:
    codec = game.codec
    if game.penalty(0) != 0:
        return "an empty hand scores points"
    units = {r: codec.unit(r) for r in game.ruleset.ranks}
    for a in game.ruleset.ranks:
        for b in game.ruleset.ranks:
            if a <= b and game.penalty(units[a] + units[b]) != game.penalty(units[a]) + game.penalty(
                units[b]
            ):
                return f"a hand of {a} and {b} does not score the points of its cards"
    return None


def _eight_most_points(game: Game) -> str | None:
    if EIGHT not in game.ruleset.ranks:
        return None
    eight = game.penalty(game.codec.unit(EIGHT))
    for r in game.ruleset.ranks:
        if r != EIGHT and game.penalty(game.codec.unit(r)) >= eight:
            return f"a {r} scores as many points as an 8 or more"
    return None


def _leads_as_typed(game: Game) -> str | None:
    """Every pile the texts define can be led as what it is: any single card; two or more cards of
    one rank (a set); two or more cards of ranks whose numbers follow one another with no gap
    between them (a run: the gaps at 6 and 10 are run_gaps' question, so no run across one is
    asked about), up to the cards a turn places and the copies the deck holds."""
    state = _state(game)
    ranks = game.ruleset.ranks
    wanted: list[tuple[str, tuple[int, ...]]] = [("single", (r,)) for r in ranks]
    for size in range(2, game.ruleset.max_cards_per_turn + 1):
        if size <= game.copies:
            wanted += [("set", (r,) * size) for r in ranks]
        wanted += [
            ("run", tuple(range(r, r + size))) for r in ranks if all(r + i in ranks for i in range(size))
        ]
    for kind, cards in wanted:
        option = game.option(state, Move("lead", cards))
        if option is None or option.pile.kind != kind:
            return f"{','.join(map(str, cards))} cannot be led as a {kind}"
    # "Ein führender Spieler muss immer eine, zwei oder drei Karten spielen": never one more.
    more = game.ruleset.max_cards_per_turn + 1  # the spec's number, not what the rules let a turn place
    if more <= game.copies and game.option(state, Move("lead", (ranks[0],) * more)) is not None:
        return f"{more} cards can be led"
    return None


def holding(game: Game, state: State, cards: Sequence[int]) -> State:
    """`state` with the player to move holding `cards` and one card more, in a trick that the
    central pile opened (led by the player before): what an engine asked about one play needs
    (the interpreter reads the opening pile from the trick, the reference engine from
    opening_has_eight, which the questions set)."""
    hands = list(state.hands)
    hands[state.to_move] = game.codec.pack((*cards, game.ruleset.ranks[0]))
    trick, last = state.trick, state.last_player
    if state.pile is not None and not trick:
        last = (state.to_move - 1) % game.players
        trick = (Play(last, Move("lead", tuple(state.pile.cards))),)
    return replace(state, hands=tuple(hands), trick=trick, last_player=last)


def _one_card_round(game: Game) -> tuple[list[list[int]], list[int]]:
    """A round of one card each, and the points each card scores: seat i holds the i-th rank
    (round the ranks, so that no rank is dealt more often than it exists)."""
    ranks = game.ruleset.ranks
    hands = [[ranks[i % len(ranks)]] for i in range(game.players)]
    return hands, [game.penalty(game.codec.unit(hand[0])) for hand in hands]


def _played_out(game: Game, hands: list[list[int]], scores: list[int]) -> tuple[State, tuple[object, ...]]:
    """The round of `hands` from `scores`, played out: the leader goes out with its single card."""
    state = game.start_round(hands, 0, scores)
    return game.apply(state, Move("lead", (hands[0][0],)))


def _lowest_wins(game: Game) -> str | None:
    """The player or players with the fewest points win the match ("Der/die Spieler mit den
    wenigsten Punkten gewinnt/gewinnen"): a round that ends the match is played out (see
    `_match_end_score`), and the winners are every player on the lowest score."""
    target = game.ruleset.match_end_score
    hands, points = _one_card_round(game)
    if not target or points[1] >= target or points[1] < 0:
        return None
    # The others start the round on every score below the match-end score, so that the lowest
    # score at the end is every such number once.
    for low in range(target - max(points)):
        _, events = _played_out(game, hands, [low, target - points[1], *([low] * (game.players - 2))])
        ends = [e for e in events if isinstance(e, MatchEnd)]
        if not ends:
            return None  # the match-end score's own question says so
        final = ends[0].scores
        lowest = tuple(seat for seat, score in enumerate(final) if score == min(final))
        if tuple(ends[0].winners) != lowest:
            won = list(ends[0].winners)
            return f"the match is won by {won}, not by the players on the fewest points {list(lowest)}"
    return None


def _match_end_score(game: Game) -> str | None:
    """The match ends after the round in which a player reaches the match-end score ("20 oder mehr
    Punkte"), and goes on after one that leaves every player below it: a round is played out (the
    leader goes out with a single card) leaving player 1 on every score up to the match-end score
    with the others on none, then player 1 one short of it and on it with the others on every
    lower score."""
    target = game.ruleset.match_end_score
    hands, points = _one_card_round(game)
    if not target or any(p < 0 or p >= target for p in points[1:]):
        return None
    others = max(points[2:], default=0)
    cases = [(after, 0) for after in range(points[1], target + 1)]
    cases += [(after, low) for after in (target - 1, target) for low in range(1, target - others)]
    for after, low in cases:
        start = [low, after - points[1], *([low] * (game.players - 2))]
        ended, _ = _played_out(game, hands, start)
        final = [start[0], after, *(low + p for p in points[2:])]
        reached = max(final) >= target
        if (ended.phase == "match_over") != reached:
            verb = "goes on" if reached else "ends"
            rest = f", the others on {low} or a little more" if low else ""
            return f"the match {verb} after a round that leaves a player on {after} points{rest}"
    return None


# No question asks that a higher number ranks higher among singles and sets beyond the German
# examples (1 < 7 < 14, 1,1,1 < 14,14,14): neither text says so of the other numbers, so an engine
# that makes, say, the 5 the strongest rank is a silence for a designer to settle, not a kill.
QUESTIONS: tuple[Question, ...] = (
    Question("pile.single.example", "pile.single", "(1 < 7 < 14)", _single_example),
    Question("pile.set.example", "pile.set", "(1,1,1 < 14,14,14)", _set_example),
    Question(
        "action.overwrite.strictly",
        "action.overwrite",
        "einen höherrangigen Stapel",
        _never_its_equal,
        other="una combinación de rango superior",
    ),
    Question(
        "action.overwrite.match",
        "action.overwrite",
        "der dem Typ und der Größe ... entspricht",
        _same_type_and_size,
        other="que coincida con el tipo y el tamaño de la combinación central",
    ),
    Question(
        "pile.run.consecutive",
        "pile.run",
        "Karten aufeinanderfolgender Ränge",
        _runs_consecutive,
        other="cartas de rango consecutivo",
        rests_on=(
            "reading “aufeinanderfolgend” / “consecutivo” as going up the numbers, as both texts write "
            "their runs (1,2,3 and 11,12,13); which run beats which is a question of its own"
        ),
    ),
    Question(
        "eight.trigger.single",
        "eight.trigger",
        "eine einzelne 8",
        _listed_eight((EIGHT,)),
        other="un 8 individual",
    ),
    Question(
        "eight.trigger.set",
        "eight.trigger",
        "ein Satz 8",
        _listed_eight((EIGHT, EIGHT)),
        other="un set de 8s",
    ),
    Question(
        "eight.trigger.run78",
        "eight.trigger",
        "ein Lauf mit 7,8",
        _listed_eight((7, EIGHT)),
        other="una escalera de 7,8",
    ),
    Question(
        "eight.trigger.run789",
        "eight.trigger",
        "ein Lauf mit ... 7,8,9",
        _listed_eight((7, EIGHT, 9)),
        other="una escalera de ... 7,8,9",
    ),
    Question(
        "eight.exemption.opening",
        "eight.exemption",
        "eine 8 im Eröffnungsstapel",
        _opening_never,
        other="un 8 en la combinación inicial",
    ),
    Question(
        "trick.winner.last",
        "trick.winner",
        "Der letzte Spieler, der ... eine Karte ... gelegt hat",
        _last_placer_wins,
        other="El último jugador que haya jugado una carta en la combinación",
    ),
    Question(
        "trick.end.set.card",
        "trick.end.set",
        "die vierte Karte ... (oder die fünfte ...)",
        _set_closes,
        other="la cuarta carta ... (o la quinta ...)",
    ),
    Question(
        "trick.end.set.placed",
        "trick.end.set",
        "Ein Spieler legt die vierte Karte zu einem aktiven Satz",
        _closing_card_placeable("set"),
        other="Un jugador añade la cuarta carta a un set activo",
    ),
    Question(
        "trick.end.run.placed",
        "trick.end.run",
        "Ein Spieler legt die fünfte Karte eines Laufs",
        _closing_card_placeable("run"),
        other="Un jugador añade la quinta carta de una escalera",
    ),
    Question(
        "trick.end.run.card",
        "trick.end.run",
        "die fünfte Karte eines Laufs",
        _run_closes,
        other="la quinta carta de una escalera",
    ),
    Question(
        "deck.copies.count",
        "deck.copies",
        "4 pro Karte bei 2-4 Spielern / 5 pro Karte bei 5+",
        _copies,
        other="4 de cada una con 2-4 jugadores / 5 de cada una con más de 5",
    ),
    Question(
        "round.scoring.cards",
        "round.scoring",
        "die Punkte der noch auf ihrer Hand befindlichen Karten",
        _penalty_adds_up,
        other="los puntos indicados en las cartas que les quedan en la mano",
    ),
    Question(
        "eight.value.points",
        "eight.value",
        "las que más puntos valen",
        _eight_most_points,
        other="die wertvollsten im Spiel",
        lang="es",
    ),
    Question(
        "match.end.score",
        "match.end",
        "bis ein Spieler 20 oder mehr Punkte erreicht hat",
        _match_end_score,
        other="hasta que un jugador tenga 20 o más puntos",
    ),
    Question(
        "match.winner.lowest",
        "match.winner",
        "Der/die Spieler mit den wenigsten Punkten",
        _lowest_wins,
        other="el/los jugador(es) con menos puntos",
    ),
    Question(
        "pile.types.lead",
        "pile.types",
        "Spielbare Stapeltypen sind:",
        _leads_as_typed,
        other="Los tipos de combinación jugables son:",
    ),
    Question(
        "trick.end.four",
        "trick.end",
        "Ein Stich endet, wenn 1 von 4 Dingen eintritt",
        # Asked of every play and pass outside the four endings, in every moment (universal.py).
        every.goes_on_every,
        other="Una baza termina cuando ocurre 1 de estas 4 cosas",
    ),
    # The clauses that speak of every case, asked of every case (universal.py).
    Question(
        "action.add.every",
        "action.add",
        "Eine oder mehrere Karten ... um Sätze/Läufe zu verlängern",
        every.adds_lengthen_every,
        other="una o varias cartas ... haciendo que los sets/escaleras sean más largos",
        rests_on=(
            "the turn's limit, “eine, zwei oder drei Karten” / “una, dos o tres cartas”: an add of "
            "up to three cards keeps it under either answer to how many cards one add may place"
        ),
    ),
    Question(
        "pile.ranked.every",
        "action.overwrite",
        "einen höherrangigen Stapel",
        every.ranked_every,
        other="una combinación de rango superior",
    ),
    Question(
        "action.overwrite.every",
        "action.overwrite",
        "Einen höherrangigen Stapel, der dem Typ und der Größe ... entspricht",
        every.overwrite_every,
        other="una combinación de rango superior que coincida con el tipo y el tamaño",
    ),
    Question(
        "trick.end.set.every",
        "trick.end.set",
        "Ein Spieler legt die vierte Karte zu einem aktiven Satz",
        every.closes_set_every,
        other="Un jugador añade la cuarta carta a un set activo",
    ),
    Question(
        "trick.end.run.every",
        "trick.end.run",
        "Ein Spieler legt die fünfte Karte eines Laufs",
        every.closes_run_every,
        other="Un jugador añade la quinta carta de una escalera",
    ),
    Question(
        "eight.trigger.every",
        "eight.trigger",
        "Wird eine Karte des Ranges 8 in einem Stich gespielt",
        every.eight_every,
        other="Cuando se juega una carta de rango 8 en una baza",
    ),
)


@dataclass(frozen=True)
class Kill:
    """What caught a mutant: a question or an invariant, the clause it cites (None: an invariant
    that encodes a rule no clause writes), and what happened."""

    by: str
    clause: str | None
    message: str

    @property
    def unwritten(self) -> bool:
        return self.clause is None


def question_of(kill: Kill) -> Question | None:
    """The question that caught a mutant (None: an invariant, which states its clause whole)."""
    return next((q for q in QUESTIONS if q.id == kill.by), None)


def _asked(question: Question, game: Game) -> Kill | None:
    try:
        answer = question.ask(game)
    except (ValueError, SpecError, KeyError, IndexError) as exc:
        answer = f"raised {type(exc).__name__}: {exc}"
    return Kill(question.id, question.clause, answer) if answer is not None else None


def ask_questions(game: Game) -> Kill | None:
    """The first question the engine contradicts."""
    return next(contradictions(game), None)


def contradictions(game: Game) -> Iterator[Kill]:
    """The questions the engine contradicts, asked one at a time (a caller may stop at the first)."""
    for question in QUESTIONS:
        kill = _asked(question, game)
        if kill is not None:
            yield kill


def contradicted(game: Game) -> tuple[Kill, ...]:
    """Every question the engine contradicts. The reference engine contradicts none under rules
    that say what the texts say; under a spec that changes a number the texts state (3 copies where
    they say 4) it contradicts that question, which then tells no mutant from it."""
    return tuple(contradictions(game))


#: The play invariants: id -> the clause it cites (None: a rule the texts never write).
INVARIANTS: dict[str, str | None] = {
    "leader.no_pass": "lead.no_pass",
    "turn.passed": "action.pass.out",
    "round.end": "round.end",
    "match.end": "match.end",
    "cards.accounted": None,
    "moves.nonempty": None,
    "turn.next": None,
}

#: Rounds played at most per match when looking for an invariant's violation.
MAX_ROUNDS = 40


def _next_in_turn(game: Game, seat: int, passed: int) -> set[int]:
    """The seats that can come next in either direction round the table, skipping passed seats."""
    out = set()
    for step in (1, -1):
        s = (seat + step) % game.players
        while passed >> s & 1 and s != seat:
            s = (s + step) % game.players
        out.add(s)
    return out


def _step_violation(
    game: Game, state: State, move: Move, new: State, events: tuple[object, ...]
) -> str | None:
    mover = state.to_move
    if state.pile is None and move.action == "pass":
        return "leader.no_pass"
    went_out = move.action != "pass" and new.hands[mover] == 0
    if went_out != any(isinstance(e, RoundEnd) for e in events):
        return "round.end"
    if new.phase == "play":
        if new.passed >> new.to_move & 1:
            return "turn.passed"
        trick_ended = any(isinstance(e, TrickEnd) for e in events)
        if not trick_ended and new.to_move not in _next_in_turn(game, mover, new.passed):
            return "turn.next"
    return None


def _state_violation(game: Game, state: State) -> str | None:
    played = sum(game.codec.pack(p.move.cards) for p in state.trick)
    if sum(state.hands) + played + state.cleared + state.aside != game.full_deck:
        return "cards.accounted"
    if state.phase == "play":
        moves = game.legal_moves(state)
        if not moves:
            return "moves.nonempty"
        if state.pile is None and PASS in moves:
            return "leader.no_pass"
    over = max(state.scores) >= game.ruleset.match_end_score
    if over != (state.phase == "match_over"):
        return "match.end"
    return None


def play_violation(game: Game, seed: int, matches: int) -> Kill | None:
    """The first play invariant the engine breaks over `matches` seeded matches (random bots).
    Raises EndlessPlay where a round goes on past `move_limit` (rules that never end a trick)."""
    bot = get_bot("random")
    most = move_limit(game)
    for index in range(matches):
        match_seed = game_seed(seed, index)
        rngs = bot_rngs(match_seed, game.players)
        try:
            state = game.new_match(match_seed)
        except (ValueError, SpecError):
            return None  # a deal the engine cannot make is a difference in play, not an invariant
        for _ in range(MAX_ROUNDS):
            moves = 0
            while True:
                moves += 1
                if moves > most:
                    raise EndlessPlay(f"match {index}, round {state.round}", most)
                broken = _state_violation(game, state)
                if broken is not None:
                    return Kill(broken, INVARIANTS[broken], f"match {index}, round {state.round}")
                if state.phase != "play":
                    break
                move = bot.choose(game, state, game.legal_moves(state), rngs[state.to_move])
                new, events = game.apply(state, move)
                broken = _step_violation(game, state, move, new, events)
                if broken is not None:
                    return Kill(broken, INVARIANTS[broken], f"match {index}, round {state.round}: '{move}'")
                state = new
            if state.phase == "match_over":
                break
            state = game.next_round(state)
    return None
