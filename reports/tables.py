"""A witness's table drawn for the report: cards as small card faces showing the rank, tinted by the
weather group printed on the real cards (1-5 rain, 7-9 cloud, 11-15 sun; evidence E8), the 8s
outlined because of the Rule of 8; the seats with their hands, the central pile and the trick so far;
and a told scene (the table, then what happens under each side) in Markdown and HTML.

Every visible word is the words file's (`pages.tables`), handed in by the caller.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from markupsafe import Markup

from ..spec.words_model import PageWords
from .plain import player, quoted

#: A move's actions, as a witness's data writes them (`Move.to_json`).
_ACTIONS = ("lead", "overwrite", "add", "pass")


def _group(rank: int) -> str:
    if rank <= 5:
        return "rain"
    if rank <= 9:
        return "cloud"
    return "sun"


def cards_html(cards: Sequence[int], words: PageWords) -> Markup:
    if not cards:
        return Markup(f'<span class="none">{_said(words, "no_cards")}</span>')
    faces = "".join(
        f'<span class="card {_group(int(c))}{" eight" if int(c) == 8 else ""}">{int(c)}</span>' for c in cards
    )
    return Markup(f'<span class="cards">{faces}</span>')


def cards_md(cards: Sequence[int], words: PageWords) -> str:
    return " ".join(f"[{int(c)}]" for c in cards) if cards else words.tables("no_cards")


def move_html(play: Mapping[str, Any], words: PageWords) -> Markup:
    """A move of a witness's data (`{action, cards}`) with its cards as faces; what is no move, as
    its data shows it."""
    action, cards = str(play.get("action", "")), [int(c) for c in play.get("cards", [])]
    if action not in _ACTIONS:
        return Markup(escape(f"{action} {','.join(map(str, cards))}".strip()))
    return Markup(
        f'<span class="move"><span class="action">{action}</span> '
        f"{cards_html(cards, words) if cards else ''}</span>"
    )


def _said(words: PageWords, which: str, /, **blanks: object) -> Markup:
    """A sentence of `pages.tables` in HTML: the words as written, the blanks escaped (html.escape, as
    the rest of the page) unless they are markup already (card faces, a move)."""
    filled = {k: v if isinstance(v, Markup) else escape(str(v)) for k, v in blanks.items()}
    return Markup(words.tables(which, **filled))


def table_html(witness: Mapping[str, Any], words: PageWords) -> Markup:
    """The table of a witness drawn with card faces: the seats (numbered from 1) with their hands,
    whose turn it is, the central pile and the trick so far; then, when legal play reaches it, how
    to set it up by play. What happens next is told in words beside it (the scene)."""
    sit = witness.get("situation", {})
    players = sit.get("players")
    hands = sit.get("hands")
    to_move = sit.get("to_move")
    passed = set(sit.get("passed", []))
    parts = ['<div class="table-situation">']
    if isinstance(players, int) and not isinstance(players, bool) and (hands or sit.get("hand")):
        seats = []
        for seat in range(players):
            badges = []
            if seat == to_move:
                badges.append(Markup(f'<span class="badge turn">{_said(words, "to_move")}</span>'))
            if seat in passed:
                badges.append(Markup(f'<span class="badge passed">{_said(words, "passed")}</span>'))
            if hands is not None and seat < len(hands):
                hand = cards_html(hands[seat], words)
            elif seat == to_move and sit.get("hand") is not None:
                hand = cards_html(sit["hand"], words)
            else:
                hand = Markup(f'<span class="muted">{_said(words, "hand_not_shown")}</span>')
            cls = "seat mover" if seat == to_move else "seat"
            name = f"{player(seat).capitalize()} {''.join(badges)}"
            seats.append(f'<div class="{cls}"><div class="seat-name">{name}</div>{hand}</div>')
        parts.append('<div class="seats">' + "".join(seats) + "</div>")
    pile = sit.get("pile")
    if pile:
        parts.append(
            f'<div class="pile"><span class="label">{_said(words, "pile")}</span> '
            f"{escape(str(pile.get('kind', '')))} {cards_html(pile.get('cards', []), words)}</div>"
        )
    trick = sit.get("trick") or []
    if trick:
        plays = "".join(
            f"<li>{player(t.get('player', 0)).capitalize()}: {move_html(t, words)}</li>" for t in trick
        )
        parts.append(
            f'<div class="trick"><span class="label">{_said(words, "trick")}</span><ol>{plays}</ol></div>'
        )
    parts.append("</div>")
    position = witness.get("position")
    if position:
        dealt_to = [
            _said(words, "dealt", player=player(seat).capitalize(), cards=cards_html(hand, words))
            for seat, hand in enumerate(position["hands"])
        ]
        dealt = "".join(f"<li>{hand}</li>" for hand in dealt_to)
        moves = "".join(f"<li>{move_html(m, words)}</li>" for m in position["moves"])
        leads = _said(words, "leads", round=int(position["round"]), leader=player(position["leader"]))
        parts.append(
            f'<details class="position"><summary>{_said(words, "set_up")}</summary>'
            f"<p>{leads}</p><ul>{dealt}</ul>"
            + (f"<p>{_said(words, 'moves_so_far')}</p><ol>{moves}</ol>" if moves else "")
            + "</details>"
        )
    return Markup("".join(parts))


def scene_md(scene: Mapping[str, Any], words: PageWords, indent: int = 0) -> str:
    """A told scene as Markdown lines: the table, then what happens under each side."""
    pad = " " * indent
    lines = [scene["setup"]] if scene.get("setup") else []
    outcomes = scene.get("outcomes", [])
    say = words.tables
    if scene.get("same") and outcomes:
        names = say("and").join(quoted(o["label"]) for o in outcomes)
        lines.append(f"{pad}- " + say("same_under", names=names, words=outcomes[0]["words"]))
    else:
        lines += [f"{pad}- " + say("under", label=quoted(o["label"]), words=o["words"]) for o in outcomes]
    return "\n".join(lines)


def scene_html(scene: Mapping[str, Any], words: PageWords) -> Markup:
    """A told scene: the table in a sentence or two, then what happens under each side."""
    setup = f"<p>{escape(scene['setup'])}</p>" if scene.get("setup") else ""
    outcomes = scene.get("outcomes", [])
    if scene.get("same") and outcomes:
        names = words.tables("and").join(escape(quoted(o["label"])) for o in outcomes)
        rows = f"<li>{_said(words, 'same_under', names=Markup(names), words=outcomes[0]['words'])}</li>"
    else:
        said = [
            _said(words, "under", label=Markup(f"<em>{escape(quoted(o['label']))}</em>"), words=o["words"])
            for o in outcomes
        ]
        rows = "".join(f"<li>{row}</li>" for row in said)
    return Markup(f"{setup}<ul>{rows}</ul>")


def scene_key(scene: Mapping[str, Any]) -> str:
    """What a scene shows, whatever its sides are called: two findings with the same key tell the
    same table and the same outcomes."""
    return str(scene.get("setup", "")) + "|" + "|".join(str(o["words"]) for o in scene.get("outcomes", []))
