"""Plain records the store hands out, and the errors it raises."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# The key of the game of every row stored before games were keyed (`migrations/*_game_keyed.sql`), and of a game
# created without naming one.
DEFAULT_GAME = "kokeshi"


class StoreError(RuntimeError):
    """The database cannot be used at all; the message names the file and what to do."""


class GameNotFound(LookupError):
    """No game has that id."""


class StaleVersion(Exception):
    """The game changed since the caller looked at it: the action was made against an old prompt (code `stale`)."""

    code = "stale"

    def __init__(self, game_id: int, expected: int, current: int) -> None:
        super().__init__(f"game {game_id} is at version {current}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.current = current
        self.params = {"game_id": game_id, "expected": expected, "current": current}


# Why the store refuses (`StoreRefusal.code`), with the values some name (`StoreRefusal.params`). The cogs word them.
REFUSALS: tuple[str, ...] = (
    "bad_players",  # a game has 2 to 4 players, or 1 in solo
    "no_person_seat",  # at least one seat must be left for a person
    "bad_side",  # the happiness board side is basic or advanced
    "not_lobby",  # the game has already started or ended (joining, starting)
    "started",  # leaving a game that has started (resign instead)
    "already_seated",
    "full",
    "not_seated",  # (name, game_id when it is a seat the caller named)
    "host",  # the host cannot leave
    "too_few",  # at least two players are needed to start
    "ended",  # the game has already ended
    "not_started",
    "not_active",  # the game is not being played
    "broken",  # (game_id, reason): the game's log no longer replays
    "undo_nothing",  # undo: no move of yours this turn
    "undo_timed_out",  # undo: the move was made when the time ran out
    "undo_drew",  # undo: the move drew a tile from the bag
)


class StoreRefusal(Exception):
    """The game is not in a state that allows this (not started, finished, lobby full, …): `code` says why, one of
    `REFUSALS`, and `params` the values it names (names, ids; never words)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        values = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code} ({values})" if values else self.code


# The same class, by the name callers first caught it under.
GameStateError = StoreRefusal


class BrokenGame(StoreRefusal):
    """The game's log no longer replays; it is kept, marked broken, with the reason."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__("broken", game_id=game_id, reason=reason)
        self.game_id = game_id
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat at a game: a Discord user, or the AI."""

    seat: int
    name: str
    user_id: int | None
    ai: bool
    expired: int = 0
    resigned: bool = False
    ai_level: str | None = None  # the level an AI seat was given when the game was created; None: the default


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything the store knows about a game except its engine state."""

    id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    host_id: int | None
    status: str
    players: int
    side: str
    solo: bool
    turn_timer: int | None
    seed: int | None
    version: int
    moves: int
    broken_reason: str | None
    created_at: float
    updated_at: float
    finished_at: float | None
    seats: tuple[Seat, ...] = field(default=())
    challenge: str | None = None  # e.g. daily:2026-11-22
    language: str | None = None  # the locale its thread and pictures speak, e.g. pt_BR; None: English
    game: str = DEFAULT_GAME  # the key of the game played
    settings: Mapping[str, Any] = field(default_factory=dict, hash=False)  # the lobby's settings, chosen at creation
    # How its log names the seats (`games.log_seats`): True by number, False by the players' names (a game stored
    # by an older version of the bot); None when not read, taken then from the game's key.
    log_seats: bool | None = None

    @property
    def named_log(self) -> bool:
        """Its log names its players (stored by an older version of the bot): it is read as it is, and played on
        once `MatchStore.to_seat_log` has moved it to a log by seat number."""
        return self.game == DEFAULT_GAME if self.log_seats is None else not self.log_seats

    @property
    def is_full(self) -> bool:
        """Every seat of the lobby is taken."""
        return len(self.seats) >= self.players

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat this user holds, if any."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat_named(self, name: str) -> Seat | None:
        """The seat with this engine name, if any."""
        return next((s for s in self.seats if s.name == name), None)


@dataclass(frozen=True, slots=True)
class Result:
    """One seat's line in a finished game's results."""

    game_id: int
    seat: int
    name: str
    user_id: int | None
    ai: bool
    resigned: bool
    rank: int
    total: int
    details: Mapping[str, int] = field(hash=False)  # the score item by item, as the game counts it (the total aside)
    finished_at: float


@dataclass(frozen=True, slots=True)
class Timer:
    """Something due for a game at a time: a reminder or a turn deadline."""

    game_id: int
    kind: str
    due_at: float
    version: int


@dataclass(frozen=True, slots=True)
class TurnPosts:
    """How far a game's thread is posted: turn records, the live prompt, and the turn its timers belong to."""

    game_id: int
    recorded_seq: int = 0
    shown_version: int = -1
    turn_key: str = ""
    turn_version: int = -1


@dataclass(frozen=True, slots=True)
class ThreadPosts:
    """What a game's thread shows, read at once: how far it is posted, where its live prompt is, and whether a run of
    refusals is under way (so a show that goes through knows whether it ends one)."""

    posts: TurnPosts
    prompt: tuple[int, int] | None = None  # (channel id, message id)
    refused: bool = False
    lobby: tuple[int, int] | None = None  # the game's lobby message, in the channel it was opened in


@dataclass(frozen=True, slots=True)
class Glance:
    """One open game of a person at a glance (`Store.glances`), of any game: its record, the people it waits for
    (user ids; computer players left out), its turn deadline and its live prompt (channel id, message id), and since
    when it is marked unreachable (Discord refuses its posts), each None when there is none."""

    record: GameRecord
    waiting: tuple[int, ...] = ()
    deadline: float | None = None
    prompt: tuple[int, int] | None = None
    unreachable_at: float | None = None


@dataclass(frozen=True, slots=True)
class GameReach:
    """A run of refusals: since when Discord has refused the bot's posts for a game, how often, the last refusal
    (HTTP status and Discord's JSON code), and when the game was marked unreachable and its host told."""

    game_id: int
    since: float
    refusals: int = 1
    status: int = 0
    code: int = 0
    unreachable_at: float | None = None
    told_at: float | None = None
