"""What a refusal from Discord means for a game, and when to try again: pure decisions, no Discord calls.

Discord answers a request the bot may not make with an HTTP status and a JSON error code. A refusal is never
retried on a fixed clock: a game whose posts are refused is tried again after 60 s, then twice as late after each
further refusal, up to an hour. After a day of refusals the game is marked unreachable and its host told once;
from then on it is tried every 6 hours, and at once whenever something suggests the cause is gone (the thread,
its channel or a role changed; someone uses a command or a button of that game).
"""

from __future__ import annotations

import dataclasses
import enum

from storage import GameReach

FIRST_RETRY = 60.0
MAX_RETRY = 3600.0
UNREACHABLE_AFTER = 86400.0
UNREACHABLE_RETRY = 6 * 3600.0
# A change Discord announces (a role, the thread, its channel) brings a stuck game's next attempt this close.
SOON = 5.0

# Discord's JSON error codes that matter here (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005


class Refusal(enum.StrEnum):
    """What a refusal says about the place the bot tried to post in."""

    GONE = "gone"  # the thread or channel no longer exists (404, Unknown Channel)
    FORBIDDEN = "forbidden"  # a permission was taken away, or the bot no longer sees the channel (403)
    LOCKED = "locked"  # a moderator locked the thread: only they can reopen it
    ARCHIVED = "archived"  # the thread went to sleep: the bot can reopen it itself
    DM_CLOSED = "dm_closed"  # the person does not accept DMs from the bot
    TRANSIENT = "transient"  # Discord failed or asked to slow down: the same request may pass later


def classify(status: int, code: int) -> Refusal:
    """The meaning of an HTTP status and Discord JSON code."""
    if code == THREAD_LOCKED:
        return Refusal.LOCKED
    if code == THREAD_ARCHIVED:
        return Refusal.ARCHIVED
    if code == CANNOT_DM:
        return Refusal.DM_CLOSED
    if status == 404 or code == UNKNOWN_CHANNEL:
        return Refusal.GONE
    if status in (401, 403) or code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        return Refusal.FORBIDDEN
    return Refusal.TRANSIENT


def refused(previous: GameReach | None, game_id: int, now: float, status: int, code: int) -> GameReach:
    """The game's run of refusals after one more: it starts now if there was none; the latest known refusal is kept
    (a failure whose cause is unknown, status and code 0, leaves the last known one)."""
    if previous is None:
        return GameReach(game_id, since=now, refusals=1, status=status, code=code)
    if status == 0 and code == 0:
        return dataclasses.replace(previous, refusals=previous.refusals + 1)
    return dataclasses.replace(previous, refusals=previous.refusals + 1, status=status, code=code)


def retry_delay(reach: GameReach) -> float:
    """How long to wait before the next attempt: 60 s after the first refusal, doubling, at most an hour; every
    6 hours once the game is marked unreachable."""
    if reach.unreachable_at is not None:
        return UNREACHABLE_RETRY
    return min(FIRST_RETRY * 2 ** max(0, reach.refusals - 1), MAX_RETRY)


def becomes_unreachable(reach: GameReach, now: float) -> bool:
    """True the first time a run of refusals has lasted a day: the game is then marked unreachable."""
    if reach.unreachable_at is not None:
        return False
    # A deleted channel will not come back: no point waiting a day to say so.
    gone = classify(reach.status, reach.code) is Refusal.GONE
    return gone or now - reach.since >= UNREACHABLE_AFTER


def attempts_within(seconds: float) -> int:
    """How many attempts a game refused all along gets in `seconds` (its first post included): for the figures."""
    reach, at, attempts = GameReach(0, since=0.0), 0.0, 1
    while True:
        if becomes_unreachable(reach, at):
            reach = dataclasses.replace(reach, unreachable_at=at)
        at += retry_delay(reach)
        if at > seconds:
            return attempts
        attempts += 1
        reach = dataclasses.replace(reach, refusals=reach.refusals + 1)


__all__ = [
    "CANNOT_DM",
    "FIRST_RETRY",
    "MAX_RETRY",
    "MISSING_ACCESS",
    "MISSING_PERMISSIONS",
    "Refusal",
    "SOON",
    "THREAD_ARCHIVED",
    "THREAD_LOCKED",
    "UNKNOWN_CHANNEL",
    "UNREACHABLE_AFTER",
    "UNREACHABLE_RETRY",
    "attempts_within",
    "becomes_unreachable",
    "classify",
    "refused",
    "retry_delay",
]
