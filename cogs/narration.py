"""Kokeshi's short turn narrations for Discord messages, built from its engine's events."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.kokeshi import records, story, vocab
from games.kokeshi.engine import Event, Game
from i18n import _
from storage import LoggedAction

from .limits import MESSAGE, shorten
from .speech import escape

# A turn's record and the "so far" of a prompt stay well inside a Discord message.
MAX_STORY_CHARS = MESSAGE - 300
# One turn in a round's summary (a game only the AI plays).
MAX_LINE_CHARS = records.MAX_LINE_CHARS


def narrate(events: Iterable[Event], view: dict | None = None, *, limit: int = MAX_STORY_CHARS) -> str:
    """The story of a turn so far, one line per move with what it led to (`games.kokeshi.story`), names shown literally.
    `view` is the game's view now (its board side gives the discs' values); without it, a neutral one."""
    events = list(events)
    lines = story.turn_story(events, None, view or {"players": []}, limit=limit)
    return "\n".join(f"• {escape(line)}" for line in lines)


def turn_key(game: Game) -> str:
    """Which turn the game is in: its round, how many turns have ended, and who is to move."""
    prompt = game.prompt
    return f"{game.round_number}:{sum(game.turns)}:{prompt.player if prompt else '-'}"


# ------------------------------------------------------------------ turn records and the "since your turn" ping

TURN_ENDS = frozenset({"turn_ended", "setup_done", "game_over"})


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


def turn_record(turn: Sequence[LoggedAction], before: Game, after: Game) -> str:
    """A finished turn, for the thread's permanent history: who, when, the points and where they came from, then
    the whole story of the turn, one line per move (`games.kokeshi.records`, the platform's table says the same)."""
    player = turn[0].player
    old, new = before.view(), after.view()
    head = records.record_head(player, old, new, label=escape(vocab.seat_name(player)))
    lines = records.record_story([e for entry in turn for e in entry.events], old, new)
    body = "\n".join(f"• {escape(line)}" for line in lines)
    return f"{head}\n{body}" if body else head


def turn_line(turn: Sequence[LoggedAction], before: Game, after: Game, limit: int = MAX_LINE_CHARS) -> str:
    """The same turn in one line, for the round's summary of a game only the AI plays: 'Aiko +7 → 31: …'."""
    events = [e for entry in turn for e in entry.events]
    return shorten(escape(records.turn_summary(turn[0].player, events, before.view(), after.view(), limit)), limit)


def record_picture(player: str, before: Game, after: Game, events: Sequence[Event]) -> bytes:
    """The picture of a turn's record: the board of `player`, who just played, for a phone, the turn's changes
    marked and every player's points for the turn (a replay draws the same picture, `pictures.replay`)."""
    return records.record_picture(player, before.view(), after.view(), events)


def since_last_turn(me: str, turns: Sequence[Sequence[LoggedAction]], states: Sequence[Game]) -> str:
    """For a 'your turn' ping: one line per other player since `me`'s last turn (their points and why), then who
    is close to the end. `states[i]` is the game before `turns[i]`, `states[-1]` after the last one."""
    if not turns:
        return ""
    views = [state.view() for state in states]
    told = [
        story.Turn(turn[0].player, [e for entry in turn for e in entry.events], views[i], views[i + 1])
        for i, turn in enumerate(turns)
    ]
    return "\n".join(f"• {escape(line)}" for line in records.since_lines(me, told))


def round_heading(number: int) -> str:
    """The heading of a round's summary in a game only the AI plays (`games.kokeshi.records`)."""
    return records.round_heading(number)


def record_alt(number: int, player: str) -> str:
    """A turn record's picture, for a screen reader (Discord's alt text): in the words both tables use."""
    return _("{game} #{number}: {picture}").format(game="Kokeshi", number=number, picture=records.record_alt(player))


def prompt_alt(number: int, player: str, kind: str) -> str:
    """A prompt's picture, for a screen reader (Discord's alt text): in the words both tables use."""
    return _("{game} #{number}, {picture}").format(
        game="Kokeshi", number=number, picture=records.decision_alt(player, kind)
    )
