"""Short turn narrations for Discord messages, built from the engine's events, and the language a game speaks."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import i18n
from engine import Event, Game, vocab
from i18n import _, ngettext
from storage import GameRecord, LoggedAction


def game_language(record: GameRecord) -> str:
    """The locale a game's thread and pictures speak: the one chosen when it was created, English for older games."""
    return i18n.resolve(record.language)


@contextmanager
def speaking(record: GameRecord) -> Iterator[str]:
    """`with speaking(record):` words a block (messages, buttons, pictures) in the game's language."""
    with i18n.using(game_language(record)) as locale:
        yield locale


# Steps a player does not need to read about after every turn; the full log still has them.
_QUIET = frozenset({"turn_ended", "setup_done", "tile_drawn", "effect_chosen"})
MAX_LINES = 12


# What a turn's record always keeps, however long its cascade: what was bought and where it went.
KEY_EVENTS = frozenset({"tile_bought", "quality_bought", "tile_placed", "top_passed", "game_over", "end_triggered"})


def narrate(events: Iterable[Event], *, limit: int = MAX_LINES) -> str:
    """A few lines saying what happened, the acting player's name in bold. Past `limit` lines the other steps
    give way to the purchases and placements."""
    lines: list[tuple[bool, str]] = []
    for event in events:
        if event.kind in _QUIET:
            continue
        text = _escape(event.text)
        name = _escape(vocab.seat_name(event.player)) if event.player else ""
        if name and text.startswith(name):
            text = f"**{name}**{text[len(name) :]}"
        lines.append((event.kind in KEY_EVENTS, f"• {text}"))
    if len(lines) > limit:
        keys = sum(key for key, _ in lines)
        room = max(0, limit - 1 - keys)
        kept, hidden = [], 0
        for key, line in lines:
            if key or room > 0:
                kept.append((key, line))
                room -= not key
            else:
                hidden += 1
        more = ngettext(
            "…and {count} more step (`/kokeshi log` shows them all)",
            "…and {count} more steps (`/kokeshi log` shows them all)",
            hidden,
        ).format(count=i18n.format_number(hidden))
        lines = [*kept, (False, f"• {more}")]
    return "\n".join(line for _, line in lines)


def _escape(text: str) -> str:
    """Show a player's name (or a line that contains one) literally: no formatting, masked link or mention."""
    for ch in ("\\", "*", "_", "~", "`", "|", ">", "<", "[", "]", "#", ":"):
        text = text.replace(ch, f"\\{ch}")
    return text


escape = _escape
QUOTE_LIMIT = 100


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Someone's input, quoted in a reply: shown literally and cut short, so a reply always fits."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{_escape(text)}'"


# ------------------------------------------------------------------ turn records and the "since your turn" ping

TURN_ENDS = frozenset({"turn_ended", "setup_done", "game_over"})
# What a player checking in wants to know of someone else's turn, in a line.
_HIGHLIGHTS = frozenset({"tile_bought", "quality_bought", "top_passed", "bonus_taken", "automa_tile", "automa_quality"})
MAX_SINCE_LINES = 6
MAX_SINCE_CHARS = 300


def split_turns(entries: Sequence[LoggedAction]) -> tuple[list[list[LoggedAction]], list[LoggedAction]]:
    """The finished turns among these logged actions, and the actions of the turn still going on."""
    turns: list[list[LoggedAction]] = []
    current: list[LoggedAction] = []
    for entry in entries:
        current.append(entry)
        if any(e.kind in TURN_ENDS for e in entry.events):
            turns.append(current)
            current = []
    return turns, current


def _gain(player: str, before: Game, after: Game) -> tuple[int, int]:
    total = after.scores()[player].total
    return total - before.scores()[player].total, total


def turn_record(turn: Sequence[LoggedAction], before: Game, after: Game) -> str:
    """A finished turn, for the thread's permanent history: who, what they did, the points it brought."""
    player = turn[0].player
    gained, total = _gain(player, before, after)
    head = ngettext(
        "**{player}** · {when} · {gained} → {total} point", "**{player}** · {when} · {gained} → {total} points", total
    ).format(
        player=escape(vocab.seat_name(player)),
        when=vocab.round_name(before.round_number),
        gained=_gained(gained),
        total=i18n.format_number(total),
    )
    story = narrate([e for entry in turn for e in entry.events], limit=8)
    return f"{head}\n{story}" if story else head


def turn_line(turn: Sequence[LoggedAction], before: Game, after: Game) -> str:
    """The same turn in one line, for a ping: 'Aiko +7: buys …; places …'."""
    player = turn[0].player
    gained, _total = _gain(player, before, after)
    bits = []
    for entry in turn:
        for event in entry.events:
            if event.kind in _HIGHLIGHTS:
                text = event.text.rstrip(".")
                if event.player and text.startswith(event.player):
                    text = text[len(event.player) :].lstrip(" :")
                bits.append(text)
    line = f"{escape(vocab.seat_name(player))} {_gained(gained)}"
    return f"{line}: {escape('; '.join(bits))}" if bits else line


def _clip(text: str, limit: int) -> str:
    """`text`, cut at a word with an ellipsis when it is longer than `limit` characters."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0] + "…"


def since_last_turn(lines: Sequence[str]) -> str:
    """The opening of a 'your turn' ping: the other turns since the player's own, newest kept, short enough for a
    lock screen (at most MAX_SINCE_LINES turns and MAX_SINCE_CHARS characters)."""
    if not lines:
        return ""
    shown = [_clip(line, MAX_SINCE_CHARS // 2) for line in lines[-MAX_SINCE_LINES:]]
    while len(shown) > 1 and len(" · ".join(shown)) > MAX_SINCE_CHARS:
        shown.pop(0)
    earlier = len(lines) - len(shown)
    if earlier:
        shown.insert(
            0,
            ngettext("…and {count} earlier turn", "…and {count} earlier turns", earlier).format(
                count=i18n.format_number(earlier)
            ),
        )
    return _("since your last turn: {turns}").format(turns=" · ".join(shown))


def _gained(points: int) -> str:
    """Points won (or lost) in a turn, always with a sign: "+7", "+0", "-3"."""
    return f"{points:+d}"
