#!/usr/bin/env python3
"""A small, independent 535 engine speaking the five35 engine protocol (version 1).

It stands for "someone else's engine": it does not import five35, it was written from the rule
text and docs/protocol.md alone, and it implements one choice of readings (five35's `published`
profile). Rule bugs can be planted with --bug NAME (repeatable) so that `535-check fuzz` and
`535-check perft` have something to find; --fault KIND makes it misbehave as a program (garbage
output, a hang, a crash, an oversized line) after --fault-after N requests.

    python examples/engine535.py                      # a correct engine
    python examples/engine535.py --bug lead-pass      # the leader may pass
    535-check fuzz --engine "python examples/engine535.py --bug run-gap"

Only the standard library is used.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections import Counter
from typing import Any

NAME = "engine535 example"
RANKS = (1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 14, 15)
POINTS = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 7: 2, 8: 5, 9: 2, 11: 3, 12: 3, 13: 3, 14: 3, 15: 3}
MAX_CARDS = 3
RUN_CLOSE = 5
MATCH_END = 20

READINGS = {
    "run_gaps": "gaps_break",
    "run_wrap": "no_wrap",
    "run_order": "lower_beats",
    "five_player_copies": "five_is_large",
    "five_player_set_close": "five_is_large",
    "add_to_single": "allowed",
    "add_run_ends": "either_end",
    "add_past_closing": "capped",
    "add_count": "turn_limit",
    "eight_forms": "any_eight",
    "eight_on_add": "adds_trigger",
    "eight_exemption": "whole_trick",
    "eight_rank": "by_number",
    "deal": "table",
    "first_leader": "drawn",
    "round_leader": "went_out",
    "turn_order": "ascending_seats",
}
PARAMETERS = {
    "ranks": list(RANKS),
    "players": {"min": 2, "max": 6},
    "copies": {"small_game": 4, "large_game": 5},
    "max_cards_per_turn": MAX_CARDS,
    "min_set_size": 2,
    "min_run_size": 2,
    "set_closing_size": {"small_game": 4, "large_game": 5},
    "run_closing_size": RUN_CLOSE,
    "match_end_score": MATCH_END,
    "points": {str(r): p for r, p in POINTS.items()},
    "hand_size": {"2": 12, "3": 13, "4": 12, "5": 12, "6": 10},
}

# The planted rule bugs: name -> what the engine gets wrong.
BUGS = {
    "lead-pass": "the player who leads a trick may pass",
    "opening-eight": "an 8 in the opening pile triggers the Rule of 8 (the exemption is ignored)",
    "run-gap": "runs continue across the missing 6 and 10 (5,7 and 9,11 are runs)",
    "set-close": "a set is only closed by its 5th card, even with 2-4 players",
    "eight-points": "an 8 left in hand costs 2 points instead of 5",
    "passed-winner": "when all but one pass, the trick goes to the player who passed last",
    "run-order": "a higher run beats a lower one (11,12,13 beats 1,2,3)",
    # Bugs that only show late in a match or at a full table: the fuzzer must still shrink them
    # to a short replay (a witness starts from a round with scores, not from a whole match).
    "late-penalty": "a player who already has 15 points or more pays half the penalty (rounded down)",
    "match-end-over": "the match ends only when a score passes 20, not when it reaches 20",
    "six-set-close": "with 6 players a set is closed by its 4th card instead of its 5th",
    "five-winner-lead": "with 5 players, after seat 4 wins a trick, seat 0 leads the next one",
}
LATE_SCORE = 15
FAULTS = ("garbage", "hang", "crash", "oversized")


class Rejected(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Engine:
    def __init__(self, bugs: set[str]) -> None:
        self.bugs = bugs
        self.round: dict[str, Any] | None = None

    # ---- rules ---------------------------------------------------------------------------------

    def follows(self, a: int, b: int) -> bool:
        if "run-gap" in self.bugs:
            return a in RANKS and RANKS.index(a) + 1 < len(RANKS) and RANKS[RANKS.index(a) + 1] == b
        return b == a + 1 and a in RANKS and b in RANKS

    def is_run(self, cards: list[int]) -> bool:
        return len(cards) >= 2 and all(self.follows(x, y) for x, y in itertools.pairwise(cards))

    def kind(self, cards: list[int]) -> str | None:
        if len(cards) == 1:
            return "single"
        if len(set(cards)) == 1:
            return "set"
        if self.is_run(sorted(cards)):
            return "run"
        return None

    def set_close(self, players: int) -> int:
        if "set-close" in self.bugs:
            return 5
        if "six-set-close" in self.bugs and players == 6:
            return 4
        return 5 if players >= 5 else 4

    def copies(self, players: int) -> int:
        return 5 if players >= 5 else 4

    def beats(self, new: list[int], old: list[int], kind: str) -> bool:
        if kind == "run":
            if "run-order" in self.bugs:
                return new[0] > old[0]
            return new[0] < old[0]
        return new[0] > old[0]

    def plays_from(self, hand: list[int]) -> list[list[int]]:
        """Every single, set and run of 1-3 cards the hand can place, sorted."""
        count = Counter(hand)
        out = []
        for r in sorted(count):
            for n in range(1, min(count[r], MAX_CARDS) + 1):
                out.append([r] * n)
        for r in sorted(count):
            run = [r]
            while len(run) < MAX_CARDS:
                nxt = next((x for x in sorted(count) if self.follows(run[-1], x)), None)
                if nxt is None:
                    break
                run = [*run, nxt]
                out.append(list(run))
        return out

    def adds(self, rnd: dict[str, Any], hand: list[int]) -> list[tuple[list[int], list[int], str]]:
        """(cards added, the new pile, its kind) for every add the hand can make."""
        pile, kind = rnd["pile"], rnd["kind"]
        count = Counter(hand)
        out = []
        if kind in ("single", "set"):
            r = pile[0]
            for k in range(1, MAX_CARDS + 1):
                if count[r] < k or len(pile) + k > min(
                    self.set_close(rnd["players"]), self.copies(rnd["players"])
                ):
                    break
                out.append(([r] * k, [r] * (len(pile) + k), "set"))
        if kind in ("single", "run"):
            for below in range(MAX_CARDS + 1):
                for above in range(MAX_CARDS + 1 - below):
                    if below + above == 0 or len(pile) + below + above > RUN_CLOSE:
                        continue
                    run = list(pile)
                    ok = True
                    for _ in range(above):
                        nxt = next((x for x in RANKS if self.follows(run[-1], x)), None)
                        if nxt is None:
                            ok = False
                            break
                        run.append(nxt)
                    for _ in range(below):
                        prev = next((x for x in RANKS if self.follows(x, run[0])), None)
                        if prev is None:
                            ok = False
                            break
                        run.insert(0, prev)
                    if not ok:
                        continue
                    added = run[:below] + run[below + len(pile) :]
                    need = Counter(added)
                    if all(count[c] >= n for c, n in need.items()):
                        out.append((sorted(added), run, "run"))
        return out

    def legal(self, rnd: dict[str, Any]) -> list[dict[str, Any]]:
        if rnd["phase"] != "play":
            return []
        hand = rnd["hands"][rnd["to_move"]]
        moves = []
        if rnd["pile"] is None:
            moves = [{"action": "lead", "cards": c} for c in self.plays_from(hand)]
            if "lead-pass" in self.bugs:
                moves.append({"action": "pass", "cards": []})
            return moves
        kind = rnd["kind"]
        for cards in self.plays_from(hand):
            if (
                self.kind(cards) == kind
                and len(cards) == len(rnd["pile"])
                and self.beats(cards, rnd["pile"], kind)
            ):
                moves.append({"action": "overwrite", "cards": cards})
        if not (kind == "single" and READINGS["add_to_single"] != "allowed"):
            moves.extend({"action": "add", "cards": added} for added, _, _ in self.adds(rnd, hand))
        moves.append({"action": "pass", "cards": []})
        return moves

    # ---- requests ------------------------------------------------------------------------------

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        kind = req.get("type")
        if kind == "hello":
            return {"name": NAME, "protocol": 1, "readings": READINGS, "parameters": PARAMETERS}
        if kind == "quit":
            return {}
        if kind == "new_round":
            players = req["players"]
            hands = [sorted(h) for h in req["hands"]]
            if not 2 <= players <= 6 or len(hands) != players:
                raise Rejected("bad_request", "2 to 6 players, one hand each")
            deck = Counter({r: self.copies(players) for r in RANKS})
            held = Counter(c for h in hands for c in h)
            if any(held[c] > deck[c] for c in held) or not all(hands):
                raise Rejected("bad_request", "the hands do not fit the deck")
            aside = sorted((deck - held).elements())
            self.round = {
                "players": players,
                "hands": hands,
                "to_move": req["leader"],
                "pile": None,
                "kind": None,
                "trick": [],
                "passed": [],
                "cleared": [],
                "aside": aside,
                "scores": list(req["scores"]),
                "phase": "play",
                "last": -1,
                "opening_eight": False,
            }
            return {}
        rnd = self.round
        if rnd is None:
            raise Rejected("no_round", "send new_round first")
        if kind == "legal":
            return {"to_move": rnd["to_move"] if rnd["phase"] == "play" else None, "moves": self.legal(rnd)}
        if kind == "state":
            return {"state": self.state(rnd)}
        if kind == "apply":
            move = req["move"]
            if rnd["phase"] != "play" or move not in self.legal(rnd):
                raise Rejected("illegal_move", f"{move} is not legal now")
            return {"events": self.apply(rnd, move)}
        raise Rejected("bad_request", f"unknown request type {kind!r}")

    def state(self, rnd: dict[str, Any]) -> dict[str, Any]:
        return {
            "players": rnd["players"],
            "phase": rnd["phase"],
            "to_move": rnd["to_move"] if rnd["phase"] == "play" else None,
            "hands": [sorted(h) for h in rnd["hands"]],
            "pile": None if rnd["pile"] is None else {"kind": rnd["kind"], "cards": sorted(rnd["pile"])},
            "trick": [dict(p) for p in rnd["trick"]],
            "passed": sorted(rnd["passed"]),
            "cleared": sorted(rnd["cleared"]),
            "aside": rnd["aside"],
            "scores": rnd["scores"],
        }

    def next_seat(self, rnd: dict[str, Any], seat: int) -> int:
        seat = (seat + 1) % rnd["players"]
        while seat in rnd["passed"]:
            seat = (seat + 1) % rnd["players"]
        return seat

    def end_trick(self, rnd: dict[str, Any], winner: int, reasons: list[str]) -> list[dict[str, Any]]:
        for play in rnd["trick"]:
            rnd["cleared"].extend(play["cards"])
        leader = winner
        if "five-winner-lead" in self.bugs and rnd["players"] == 5 and winner == 4:
            leader = 0
        rnd.update(pile=None, kind=None, trick=[], passed=[], last=-1, opening_eight=False, to_move=leader)
        return [{"event": "trick_end", "winner": winner, "reasons": sorted(reasons)}]

    def apply(self, rnd: dict[str, Any], move: dict[str, Any]) -> list[dict[str, Any]]:
        player = rnd["to_move"]
        rnd["trick"].append({"player": player, "action": move["action"], "cards": list(move["cards"])})
        if move["action"] == "pass":
            rnd["passed"].append(player)
            if rnd["players"] - len(rnd["passed"]) <= 1:
                winner = player if "passed-winner" in self.bugs else rnd["last"]
                if winner < 0:
                    winner = self.next_seat(rnd, player)
                return self.end_trick(rnd, winner, ["all_passed"])
            rnd["to_move"] = self.next_seat(rnd, player)
            return []
        cards = move["cards"]
        hand = rnd["hands"][player]
        for c in cards:
            hand.remove(c)
        opening = rnd["pile"] is None
        if move["action"] == "add":
            new = next(run for added, run, _ in self.adds_for(rnd, cards) if added == cards)
            rnd["pile"], rnd["kind"] = new
        else:
            rnd["pile"], rnd["kind"] = sorted(cards), self.kind(cards)
        if opening:
            rnd["opening_eight"] = 8 in cards
        reasons = []
        eight_counts = not opening or "opening-eight" in self.bugs
        if 8 in cards and eight_counts and (not rnd["opening_eight"] or "opening-eight" in self.bugs):
            reasons.append("rule_of_8")
        if rnd["kind"] == "set" and len(rnd["pile"]) >= self.set_close(rnd["players"]):
            reasons.append("set_closed")
        if rnd["kind"] == "run" and len(rnd["pile"]) >= RUN_CLOSE:
            reasons.append("run_closed")
        rnd["last"] = player
        if not hand:
            events = [{"event": "trick_end", "winner": player, "reasons": sorted(reasons)}] if reasons else []
            return events + self.end_round(rnd, player)
        if reasons:
            return self.end_trick(rnd, player, reasons)
        rnd["to_move"] = self.next_seat(rnd, player)
        return []

    def adds_for(
        self, rnd: dict[str, Any], cards: list[int]
    ) -> list[tuple[list[int], tuple[list[int], str], str]]:
        # The cards were removed from the hand already: offer the adds as if they were still held.
        hand = rnd["hands"][rnd["to_move"]] + list(cards)
        return [(added, (run, kind), kind) for added, run, kind in self.adds(rnd, hand)]

    def end_round(self, rnd: dict[str, Any], went_out: int) -> list[dict[str, Any]]:
        points = dict(POINTS)
        if "eight-points" in self.bugs:
            points[8] = 2
        penalties = [sum(points[c] for c in h) for h in rnd["hands"]]
        if "late-penalty" in self.bugs:
            penalties = [
                p // 2 if s >= LATE_SCORE else p for s, p in zip(rnd["scores"], penalties, strict=True)
            ]
        rnd["scores"] = [s + p for s, p in zip(rnd["scores"], penalties, strict=True)]
        events = [
            {"event": "round_end", "went_out": went_out, "penalties": penalties, "scores": rnd["scores"]}
        ]
        rnd["phase"] = "round_over"
        over = (
            max(rnd["scores"]) > MATCH_END
            if "match-end-over" in self.bugs
            else max(rnd["scores"]) >= MATCH_END
        )
        if over:
            rnd["phase"] = "match_over"
            best = min(rnd["scores"])
            winners = [i for i, s in enumerate(rnd["scores"]) if s == best]
            events.append({"event": "match_end", "scores": rnd["scores"], "winners": winners})
        return events


def respond(engine: Engine, line: str) -> dict[str, Any]:
    try:
        req = json.loads(line)
    except ValueError as exc:
        return {"id": None, "type": None, "ok": False, "error": {"code": "bad_request", "message": str(exc)}}
    try:
        body = engine.handle(req)
    except Rejected as exc:
        return {
            "id": req.get("id"),
            "type": req.get("type"),
            "ok": False,
            "error": {"code": exc.code, "message": str(exc)},
        }
    except (KeyError, TypeError, ValueError) as exc:
        return {
            "id": req.get("id"),
            "type": req.get("type"),
            "ok": False,
            "error": {"code": "bad_request", "message": repr(exc)},
        }
    return {"id": req["id"], "type": req["type"], "ok": True, **body}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="append", default=[], choices=sorted(BUGS), help="plant a rule bug")
    parser.add_argument("--fault", choices=FAULTS, help="misbehave as a program")
    parser.add_argument("--fault-after", type=int, default=0, metavar="N", help="answer N requests first")
    parser.add_argument("--list-bugs", action="store_true", help="list the planted bugs and exit")
    args = parser.parse_args()
    if args.list_bugs:
        for name, what in BUGS.items():
            print(f"{name}: {what}")
        return 0
    engine = Engine(set(args.bug))
    served = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        if args.fault and served >= args.fault_after:
            if args.fault == "garbage":
                sys.stdout.write("this is not JSON\n")
            elif args.fault == "oversized":
                sys.stdout.write('{"junk": "' + "x" * (2 << 20) + '"}\n')
            elif args.fault == "crash":
                sys.stderr.write("engine535: planted crash\n")
                sys.stderr.flush()
                os._exit(70)
            elif args.fault == "hang":
                while True:
                    time.sleep(60)
            sys.stdout.flush()
            served += 1
            continue
        response = respond(engine, line)
        sys.stdout.write(json.dumps(response, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        served += 1
        if response.get("type") == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
