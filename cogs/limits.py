"""Discord's documented size limits for what the bot sends, and the one way a text is made to fit them.

Discord refuses a payload over a limit (or, for a few fields, cuts it wherever the limit falls). Every label, name
and message the bot builds goes through `shorten` first: cut at a word, marked with "…", never by Discord.
"""

from __future__ import annotations

import unicodedata
from collections import deque

MESSAGE = 2000  # message content
BUTTON_LABEL = 80
SELECT_OPTION = 100  # a menu option's label, value and description
SELECT_PLACEHOLDER = 150
CHOICE_NAME = 100  # an autocomplete or command choice's name
CHOICE_VALUE = 100  # a string choice's value
MAX_CHOICES = 25  # autocomplete choices, menu options
THREAD_NAME = 100
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048

FILES = 10  # attachments in one message
FILE_BYTES = 10 * 1024 * 1024  # attachments of one message, in all

ELLIPSIS = "…"

# Discord's rate for posting in one channel, as its clients and libraries observe it: 5 messages per 5 seconds.
CHANNEL_MESSAGES = 5
CHANNEL_SECONDS = 5.0
# Channels remembered before the quiet ones (nothing posted within the rate's window) are dropped.
QUIET_KEPT = 1000


def shorten(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else cut after its last whole word that fits, with "…".

    A single word longer than the limit (a name without spaces) is cut inside it; the result is never longer than
    `limit` and never empty when the text was not.
    """
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return text[:limit]
    room = limit - len(ELLIPSIS)
    cut = text[: room + 1]
    space = max(cut.rfind(" "), cut.rfind("\n"))
    # Keep at least half of the room: a cut inside a very long word beats a label of two letters.
    head = cut[:space] if space >= room // 2 else text[:room]
    return (head.rstrip(" \n,;:.—–-(·→") or text[:room]) + ELLIPSIS


def in_messages(text: str, limit: int = MESSAGE) -> list[str]:
    """A text cut into messages of at most `limit` characters, at line ends (a line longer than that is
    shortened)."""
    pieces = [""]
    for line in text.split("\n"):
        joined = f"{pieces[-1]}\n{line}" if pieces[-1] else line
        if len(joined) <= limit:
            pieces[-1] = joined
        else:
            pieces.append(shorten(line, limit))
    return pieces


def fit_files(sizes: list[int], files: int = FILES, total: int = FILE_BYTES) -> int:
    """How many of these attachments, in order (their sizes in bytes), one message holds: at most `files`, and
    at most `total` bytes in all."""
    kept, used = 0, 0
    for size in sizes[:files]:
        if used + size > total:
            break
        kept, used = kept + 1, used + size
    return kept


# What a component's emoji may hold: Discord takes one unicode emoji (a sequence of a few code points at most).
EMOJI_LENGTH = 16
# Code points an emoji sequence goes on with: symbols, skin tones, joiners, variation selectors, keycaps, tags.
_EMOJI_PARTS = ("So", "Sk", "Cf", "Mn", "Me")


def one_emoji(text: str | None) -> str | None:
    """`text` if it reads as one unicode emoji Discord takes on a button or a menu line ("⚔️", "1️⃣", "🇯🇵"), else
    None (nothing, words, a custom emoji's markup): an emoji Discord refuses would refuse the whole message."""
    if not text or len(text) > EMOJI_LENGTH:
        return None
    head, rest = text[0], text[1:]
    keycap = head in "#*0123456789" and text.endswith("\u20e3")
    if not keycap and unicodedata.category(head) != "So":
        return None
    return text if all(unicodedata.category(c) in _EMOJI_PARTS for c in rest) else None


class ChannelPace:
    """The bot's recent posts per channel, so that a long burst keeps Discord's per-channel rate on purpose."""

    def __init__(self, messages: int = CHANNEL_MESSAGES, seconds: float = CHANNEL_SECONDS) -> None:
        self.messages = messages
        self.seconds = seconds
        self._sent: dict[int, deque[float]] = {}

    def sent(self, channel_id: int, now: float) -> None:
        """A message was posted in the channel at `now`."""
        if channel_id not in self._sent and len(self._sent) >= QUIET_KEPT:
            self.forget(now - self.seconds)
        stamps = self._sent.setdefault(channel_id, deque(maxlen=self.messages))
        stamps.append(now)

    def free_at(self, channel_id: int, now: float) -> float:
        """When the next message may be posted in the channel without going over the rate (`now` if at once)."""
        stamps = self._sent.get(channel_id)
        if stamps is None or len(stamps) < self.messages:
            return now
        return max(now, stamps[0] + self.seconds)

    def forget(self, before: float) -> None:
        """Drop channels that have been quiet since `before` (the map stays small)."""
        for channel_id in [c for c, stamps in self._sent.items() if not stamps or stamps[-1] < before]:
            del self._sent[channel_id]


__all__ = [
    "CHANNEL_MESSAGES",
    "CHANNEL_SECONDS",
    "ChannelPace",
    "BUTTON_LABEL",
    "CHOICE_NAME",
    "CHOICE_VALUE",
    "ELLIPSIS",
    "EMOJI_LENGTH",
    "EMBED_DESCRIPTION",
    "EMBED_FIELD_NAME",
    "EMBED_FIELD_VALUE",
    "EMBED_FOOTER",
    "EMBED_TITLE",
    "FILES",
    "FILE_BYTES",
    "MAX_CHOICES",
    "MESSAGE",
    "SELECT_OPTION",
    "SELECT_PLACEHOLDER",
    "THREAD_NAME",
    "fit_files",
    "in_messages",
    "one_emoji",
    "shorten",
]
