"""How the bot speaks in a game of any kind: in the game's own language, with players' names shown literally."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import i18n
from storage import GameRecord

QUOTE_LIMIT = 100


def game_language(record: GameRecord) -> str:
    """The locale a game's thread and pictures speak: the one chosen when it was created, English for older games."""
    return i18n.resolve(record.language)


@contextmanager
def speaking(record: GameRecord) -> Iterator[str]:
    """`with speaking(record):` words a block (messages, buttons, pictures) in the game's language."""
    with i18n.using(game_language(record)) as locale:
        yield locale


def escape(text: str) -> str:
    """Show a player's name (or a line that contains one) literally: no formatting, masked link or mention."""
    for ch in ("\\", "*", "_", "~", "`", "|", ">", "<", "[", "]", "#", ":"):
        text = text.replace(ch, f"\\{ch}")
    return text


def escaped(names: Iterable[str]) -> list[str]:
    """Players' names as a message's words take them: each shown literally (`escape`)."""
    return [escape(name) for name in names]


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Someone's input, quoted in a reply: shown literally and cut short, so a reply always fits."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"'{escape(text)}'"


__all__ = ["QUOTE_LIMIT", "escape", "game_language", "quote", "speaking"]
