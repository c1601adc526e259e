"""How a game's seats are named in its thread: a person's mention, or the seat's name with the AI's level beside it."""

from __future__ import annotations

from collections.abc import Callable

from games.base import LEVELS
from i18n import _
from storage import GameRecord, Store

from .client import Client
from .common import level_word
from .speech import escape
from .thinking import DEFAULT_LEVEL


class Names:
    """The level of every AI seat, per game, as stored (a seat's level never changes once it is the AI's), and the
    names shown from them."""

    def __init__(self, bot: Client, seat_word: Callable[[str], str] = str) -> None:
        self.bot = bot
        # A seat's name as players read it (a game's own opponent has a word of its own: Kokeshi's automa).
        self.seat_word = seat_word
        self._levels: dict[int, dict[int, str]] = {}

    @property
    def store(self) -> Store:
        return self.bot.store

    async def load_levels(self, record: GameRecord) -> dict[int, str]:
        """The level of each AI seat of a game (seat number → level), as its seats keep it; then kept here."""
        known = self._levels.get(record.id)
        if known is not None and all(s.seat in known for s in record.seats if s.ai):
            return known
        levels = dict(known or {})
        for seat in record.seats:
            if seat.ai and seat.seat not in levels:
                levels[seat.seat] = seat.ai_level if seat.ai_level in LEVELS else DEFAULT_LEVEL
        self._levels[record.id] = levels
        return levels

    def forget_levels(self, game_id: int) -> None:
        """The AI seats of a lobby were seated anew: their levels are read again from its seats."""
        self._levels.pop(game_id, None)

    def level_of(self, record: GameRecord, name: str) -> str | None:
        """The level playing a seat, or None for a person (seats handed over without one play `normal`)."""
        seat = record.seat_named(name)
        if seat is None or not seat.ai:
            return None
        return self._levels.get(record.id, {}).get(seat.seat, DEFAULT_LEVEL)

    def label(self, record: GameRecord, name: str, bold: bool = False) -> str:
        """A seat's name as shown, with the AI level beside an AI's name: "Hana (AI, hard)"."""
        shown = escape(self.seat_word(name))
        shown = f"**{shown}**" if bold else shown
        level = self.level_of(record, name)
        if level is None:
            return shown
        return _("{name} (AI, {level})").format(name=shown, level=level_word(level))

    def mention(self, record: GameRecord, name: str) -> str:
        """A person's mention (it pings them where mentions are allowed), or the seat's label in bold."""
        seat = record.seat_named(name)
        if seat is not None and seat.user_id is not None and not seat.ai:
            return f"<@{seat.user_id}>"
        return self.label(record, name, bold=True)
