"""Any game of the contract (`games.base`) stored and played: dealt from (rules, options, seed, seats), its log by seat.

Every game goes through `start_match`, `play_match`, `undo_match`, `load_match` and `match_events`. Its log is
kept in the `actions` rows and, once it is finished, a packed log, with the seat's number (as decimal text: "0",
"1", …) in the `player` column.

A game whose log names its players instead (`games.log_seats` = 0: stored by an older version of the bot, Kokeshi's
only) is read here too, by its seating: a row's player is the seat of that name (`seats`, in seat order), the match
is dealt with those names (`GameModule.deal_named`) and options its settings lack come from the row's columns
(`_COLUMN_SETTINGS`). It is only read (`other_game` for dealing, playing and undoing it), and a read writes nothing.
`to_seat_log` moves such a game to a log by seat number, after which it is played here; its match stays the one
dealt with its players' names (`games.dealt_named`).
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

import games
from games.base import Event, GameModule, Match, Refusal, Standing
from service.play import Outcome, Refused, play

from .away import TURN_TIMERS
from .clock import CLOCK, bank_of
from .community import found
from .database import Database, Row, Transaction
from .logs import ENDS_TURN, REVEALS, pack_log, unpack_log
from .records import DEFAULT_GAME, BrokenGame, GameNotFound, GameRecord, Result, StaleVersion, StoreRefusal

log = logging.getLogger(__name__)

# Why the store refuses a contract game (`StoreRefusal.code`), besides the codes of `records.REFUSALS` it shares.
MATCH_REFUSALS: tuple[str, ...] = (
    "other_game",  # (game_id, game): its log names its players, to be moved to seat numbers first (`to_seat_log`)
    "unknown_game",  # (game): no game with this key is known to this process
    "bad_settings",  # (game): the lobby settings are not among the game's
)
# Lobby settings the platform keeps beside a game's own, never handed to the game: the bank clock (`clock.CLOCK`),
# the finish rate asked of joiners (`min_finish`) and the game a lobby is the rematch of (`rematch`).
PLATFORM_SETTINGS = frozenset({CLOCK, "min_finish", "rematch"})
# The source of a decision as the caller names it, and as the log keeps it.
_SOURCES = {"button": "player", "player": "player", "timeout": "timeout", "ai": "ai"}
# Contract matches held in memory, the most recently used (a match evicted is replayed once when next loaded).
_HELD = 256
_SEED = "COALESCE(seed_text, CAST(seed AS TEXT)) AS seed"
# The turn timer whose absence means a turn has no timers of its own yet.
_DEADLINE = "deadline"
# What a game is dealt from: its options, seed, seats and rules, and how its log names the seats.
_DEAL = f"settings, side, {_SEED}, players, rules, log_seats, dealt_named"
# Settings a game kept in a column of its own before its settings were kept as JSON: read from the column when the
# settings lack them and the game has a setting of that name.
_COLUMN_SETTINGS = ("side",)


@dataclass(frozen=True, slots=True)
class MatchDecision:
    """One logged decision of a contract game: its place in the log, the seat that made it, the action, the events
    it caused (the automatic steps after it included) and whether it ended a turn (a new turn began, or the match
    ended)."""

    seq: int
    seat: int
    action: str
    events: tuple[Event, ...]
    ends_turn: bool


@dataclass(frozen=True, slots=True)
class TurnShown:
    """What the live prompt of the turn a decision leaves under way says of its people, read in the decision's call
    (so that showing it asks the store nothing more): the turn's timers at the new version (kind → due at: its
    reminders and deadline, those carried within the turn or set for a new one), whether the decision set them, the
    settings about pings of the people it waits for (by user id, as `Store.ping_settings`), and the away periods
    running now of the people seated (as `AwayStore.aways`)."""

    timers: Mapping[str, float]
    timers_set: bool
    settings: Mapping[int, Mapping[str, str]]
    aways: Mapping[int, Any]  # storage.away.Away by user id


@dataclass(frozen=True, slots=True)
class MatchPlayed:
    """One decision saved: the game's record after the commit (status 'finished' if it ended), a private copy of
    the match after it, the service's `Outcome`, the results written when it ended the game (else []), the whole
    log after it, decision by decision (what the thread's records and "since" are cut from), and, while the match
    goes on, what its live prompt says of its people (`TurnShown`)."""

    record: GameRecord
    match: Match
    outcome: Outcome
    results: list[Result]
    decisions: tuple[MatchDecision, ...] = ()
    shown: TurnShown | None = None


@dataclass(slots=True)
class _Held:
    """A contract match held in memory at a store version, with its whole log: each decision, the events it caused
    and whether it ended a turn (`Match.turn_key` changed, or the match ended)."""

    version: int
    match: Match
    module: GameModule
    decisions: list[MatchDecision] = field(default_factory=list)
    # The seat names its log names the players by (in seat order), or None for a log by seat number.
    names: list[str] | None = None
    # The seat names its match was dealt with (in seat order), or None for a match dealt for its number of seats.
    dealt: list[str] | None = None


def game_options(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The lobby settings that are the game's own (the platform's, such as a bank clock, left out)."""
    return {k: v for k, v in settings.items() if k not in PLATFORM_SETTINGS}


def contract_module(key: str) -> GameModule:
    """The registered game with this key; StoreRefusal `unknown_game` when this process knows none."""
    try:
        return games.get(key)
    except KeyError:
        raise StoreRefusal("unknown_game", game=key) from None


def lobby_settings(key: str, settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """A contract game's lobby settings checked and completed: every setting of the game (given or its default)
    and the platform's; StoreRefusal `bad_settings` for a setting the game does not have or a value it does not
    offer."""
    given = dict(settings or {})
    try:
        options = contract_module(key).options(game_options(given))
    except ValueError:
        raise StoreRefusal("bad_settings", game=key) from None
    return {**{k: v for k, v in given.items() if k in PLATFORM_SETTINGS}, **options}


def seat_ranks(standing: Standing, resigned: Sequence[bool]) -> list[int]:
    """Each seat's rank in the results: its place, except that a resignation ranks after every seat that did not
    resign (as Kokeshi's results rank it), whatever the score; a solo seat that resigned is second at best."""
    places = list(standing.places)
    if not any(resigned):
        return places
    if len(places) == 1:
        return [max(places[0], 2)]
    keys = list(zip(resigned, places, strict=True))
    return [1 + sum(other < mine for other in keys) for mine in keys]


def flags_of_events(events: Sequence[Event], turn_changed: bool, over: bool) -> int:
    """The `actions.flags` bits of a contract decision: it ended a turn (a new turn began, or the match ended),
    it revealed something drawn at random."""
    flags = ENDS_TURN if turn_changed or over else 0
    return flags | (REVEALS if any(e.reveals for e in events) else 0)


def _details(score: Mapping[str, int]) -> str:
    return json.dumps({k: int(v) for k, v in score.items() if k != "total"}, separators=(",", ":"))


class MatchStore:
    """Mixed into `Store`; runs its statements through the store's database, under the store's game locks."""

    database: Database
    readonly: bool
    _clock: Callable[[], float]  # provided by Store
    _matches: OrderedDict[int, _Held]

    # ------------------------------------------------------------------ provided by Store

    def _game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:  # provided by Store
        raise NotImplementedError

    def _tx(self, *, durable: bool = True) -> AbstractAsyncContextManager[Transaction]:  # provided by Store
        raise NotImplementedError

    async def _run(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> int:  # provided by Store
        raise NotImplementedError

    async def _run_many(self, db: Transaction, sql: str, rows: Sequence[Sequence[Any]]) -> None:  # by Store
        raise NotImplementedError

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:  # provided by Store
        raise NotImplementedError

    async def _challenge_rules(self, db: Transaction, record: GameRecord) -> int | None:  # provided by Store
        raise NotImplementedError

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:  # provided by Store
        raise NotImplementedError

    async def _action_rows(self, game_id: int) -> list[tuple[int, str, str, str, float, int]]:  # by Store
        raise NotImplementedError

    async def _broken(self, game_id: int, exc: Exception) -> BrokenGame:  # provided by Store
        raise NotImplementedError

    async def _mend_snapshot(self, game_id: int, packed: bool, rebuilt: str, stored: str | None) -> None:  # by Store
        raise NotImplementedError

    def _forget(self, game_id: int) -> None:  # provided by Store
        raise NotImplementedError

    async def get_game(self, game_id: int) -> GameRecord:  # provided by Store
        raise NotImplementedError

    async def results(self, game_id: int) -> list[Result]:  # provided by Store
        raise NotImplementedError

    async def ping_settings(self, user_ids: Iterable[int]) -> dict[int, dict[str, str]]:  # provided by Store
        raise NotImplementedError

    async def aways(self, user_ids: Iterable[int]) -> dict[int, Any]:  # provided by AwayStore
        raise NotImplementedError

    async def people_timers(  # provided by AwayStore
        self, db: Transaction, user_ids: Sequence[int], timers: Sequence[tuple[str, float]]
    ) -> list[tuple[str, float]]:
        raise NotImplementedError

    async def clock_people(  # provided by ClockStore
        self,
        db: Transaction,
        game_id: int,
        seats: Sequence[tuple[str, int]],
        timers: Sequence[tuple[str, float]],
    ) -> list[tuple[str, float]]:
        raise NotImplementedError

    async def clock_charge(self, db: Transaction, game_id: int, player: str) -> None:  # provided by ClockStore
        raise NotImplementedError

    async def _rate_finished(  # provided by CommunityStore
        self, db: Transaction, game_id: int, guild_id: int | None, now: float, game: str = DEFAULT_GAME
    ) -> None:
        raise NotImplementedError

    async def _add_favourites(  # provided by CommunityStore
        self,
        db: Transaction,
        guild_id: int | None,
        chosen: Sequence[tuple[int | None, str]],
        game: str = DEFAULT_GAME,
    ) -> None:
        raise NotImplementedError

    async def _add_totals(  # provided by CommunityStore
        self,
        db: Transaction,
        guild_id: int | None,
        solo: bool,
        rows: Sequence[Sequence[Any]],
        game: str = DEFAULT_GAME,
    ) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ the public API

    async def start_match(self, game_id: int, seed: int) -> tuple[Match, int]:
        """Deal a game's lobby for its seated players on `seed` (kept in the game's row, never logged);
        returns a private copy of the match and the game's store version."""
        async with self._game_lock(game_id), self._tx() as db:
            record = await self.get_game(game_id)
            module = self._module_of(record)
            await self._writable(game_id, record.game)
            if record.status != "lobby":
                raise StoreRefusal("not_lobby")
            seats = len(record.seats)
            if seats not in module.players or (not record.solo and seats < 2):
                raise StoreRefusal("too_few")
            # Everyone plays a challenge on the same deal: under the rules its first attempt was dealt with, even
            # when a newer version of the rules came out since (the day a new version ships).
            rules = await self._challenge_rules(db, record)
            rules = rules if rules in module.rules_versions else None
            # A lobby stored before settings were kept as JSON (moved by `to_seat_log`) keeps its side in its column.
            columns = found(await self._one("SELECT settings, side FROM games WHERE id = ?", (game_id,)))
            try:
                match = module.deal(stored_options(module, columns), seed, seats, rules)
            except ValueError:  # settings stored before the game checked them
                raise StoreRefusal("bad_settings", game=record.game) from None
            version = record.version + 1
            await self._run(
                db,
                "UPDATE games SET status = 'active', seed = NULL, seed_text = ?, rules = ?, players = ?, version = ?, "
                "moves = 0, snapshot = ?, updated_at = ?, dealt_named = 0 WHERE id = ?",
                (str(seed), match.rules, seats, version, match.to_json(), self._clock(), game_id),
            )
        self._hold(game_id, _Held(version, match, module, []))
        return match.copy(), version

    async def load_match(self, game_id: int) -> tuple[Match, int, GameRecord]:
        """A private copy of a started game's match, its store version and its record, read at the same moment. A
        game whose log names its players (stored by an older version) is read by its seating."""
        async with self._game_lock(game_id):
            record = await self.get_game(game_id)
            held = await self._held_match(game_id)
        return held.match.copy(), held.version, record

    async def play_match(
        self,
        game_id: int,
        version: int,
        seat: int,
        action: str,
        *,
        source: str = "button",
        timers: Sequence[tuple[str, float]] = (),
    ) -> MatchPlayed:
        """Carry out `seat`'s `action` on a contract game at store `version`, and save it in one commit: the log
        row (the seat's number as `player`), the snapshot, the version and move count, and when the decision ends
        the game, its results, ratings, totals and packed log, its timers cleared. The turn's timers (`TURN_TIMERS`:
        its reminders and deadline) follow the turn, not the click: a decision within the turn carries them to the
        new version, and one that ends the turn clears them (the next turn's are set when it is shown). In a game on a
        bank clock, the seats whose part of the turn is over are charged its time, and a turn that goes on for fewer
        people gets the timers of their banks. A seat's run of expired turns (`Seat.expired`) ends with a decision of
        its own and grows with a time-out that ends its part of the turn.

        `timers`: the reminders and deadline of a turn starting now ((kind, due at) pairs), set in the same commit, as
        `set_match_timers` sets them, when the decision leaves a turn that waits for people and has no deadline yet (a
        new turn, or one whose timers were stopped): what its live prompt would set when shown. Returns all the
        thread needs to show the decision (`MatchPlayed`), read in this one call: the record, the match, the
        outcome, the results at the end, the log, and what the live prompt says of its people.

        `source` is "button" (a person's click, logged as 'player'), "timeout" or "ai". Raises StaleVersion if the
        game moved on, StoreRefusal `not_active` if it is not being played, and `service.play.Refused` as the
        service raised it for a decision the rules refuse; nothing is written then.
        """
        stored = _SOURCES.get(source)
        if stored is None:
            raise ValueError(f"a decision's source is one of {', '.join(_SOURCES)}, not {source!r}")
        async with self._game_lock(game_id):
            held = await self._held_match(game_id)
            self._played_here(game_id, held)
            if held.version != version:
                raise StaleVersion(game_id, version, held.version)
            record = await self.get_game(game_id)
            if record.status != "active":
                raise StoreRefusal("not_active")
            match = held.match
            waited = match.waiting()
            # Until the commit succeeds the held match may carry an unsaved decision: it leaves the cache.
            self._matches.pop(game_id, None)
            try:
                outcome = play(record.game, match, match.version, seat, action)
            except Refused:
                self._hold(game_id, held)  # the rules refused: the match is unchanged
                raise
            now = self._clock()
            seq = len(held.decisions) + 1
            over = outcome.standing is not None  # set exactly when the match is over
            flags = flags_of_events(outcome.events, outcome.turn_changed, over)
            async with self._tx() as db:
                count = await self._run(
                    db,
                    "UPDATE games SET version = version + 1, moves = ?, snapshot = ?, updated_at = ? "
                    "WHERE id = ? AND version = ?",
                    (seq, match.to_json(), now, game_id, version),
                )
                if count != 1:
                    current = found(await self._one("SELECT version FROM games WHERE id = ?", (game_id,)))
                    raise StaleVersion(game_id, version, current["version"])
                await self._run(
                    db,
                    "INSERT INTO actions (game_id, seq, player, action, source, created_at, flags) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, seq, str(seat), action, stored, now, flags),
                )
                # The seats whose part of the turn is over: every one the turn waited for when it ends, else
                # those the match no longer waits for.
                waited_after = () if over else match.waiting()
                done = waited if outcome.turn_changed or over else tuple(s for s in waited if s not in waited_after)
                await self._count_expired(db, record, seat, stored, done)
                if over:
                    await self._finish_match(db, game_id, held.module, match, now)
                elif bank_of(dict(record.settings)) is not None:
                    await self._bank_turn(db, record, version, done, waited, waited_after, outcome.turn_changed)
                elif outcome.turn_changed:
                    await self._clear_turn_timers(db, game_id)
                else:
                    await self._carry_turn_timers(db, game_id, version)
                turn_timers: dict[str, float] = {}
                timers_set = False
                if not over:
                    turn_timers, timers_set = await self._next_turn_timers(db, record, match, version + 1, timers)
            held.version = version + 1
            held.decisions.append(MatchDecision(seq, seat, action, outcome.events, outcome.turn_changed or over))
            self._hold(game_id, held)
            after = await self.get_game(game_id)
            results = await self.results(game_id) if over else []
            shown = None if over else await self._turn_shown(after, match, turn_timers, timers_set)
            decisions = tuple(held.decisions)
        return MatchPlayed(after, match.copy(), outcome, results, decisions, shown)

    async def _next_turn_timers(
        self, db: Transaction, record: GameRecord, match: Match, version: int, plan: Sequence[tuple[str, float]]
    ) -> tuple[dict[str, float], bool]:
        """In a decision's transaction, for a match that goes on: the turn's timers at the new `version` (kind →
        due at), and whether they were set here: `plan`'s, moved as `set_match_timers` moves them, when the turn
        waits for people and has no deadline yet."""
        marks = ",".join("?" * len(TURN_TIMERS))
        rows = await self._all(
            f"SELECT kind, due_at FROM timers WHERE game_id = ? AND version = ? AND kind IN ({marks})",
            (record.id, version, *TURN_TIMERS),
        )
        kept = {r["kind"]: float(r["due_at"]) for r in rows}
        waiting = set(match.waiting())
        people = [(s.name, s.user_id) for s in record.seats if s.seat in waiting and not s.ai and s.user_id is not None]
        if not plan or not people or _DEADLINE in kept:
            return kept, False
        # A bank game's turn runs on the banks of the people it waits for (`ClockStore.clock_people`).
        moved = await self.people_timers(
            db, [user for _name, user in people], await self.clock_people(db, record.id, people, plan)
        )
        await self._run_many(
            db,
            "INSERT INTO timers (game_id, kind, due_at, version) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version",
            [(record.id, kind, at, version) for kind, at in moved],
        )
        return {**kept, **dict(moved)}, True

    async def _turn_shown(
        self, record: GameRecord, match: Match, timers: Mapping[str, float], timers_set: bool
    ) -> TurnShown:
        """What the live prompt of the turn under way says of its people (`TurnShown`), read at once."""
        waiting = set(match.waiting())
        asked = [s.user_id for s in record.seats if s.seat in waiting and not s.ai and s.user_id is not None]
        people = [s.user_id for s in record.seats if s.user_id is not None and not s.ai]
        settings = await self.ping_settings(asked) if asked else {}
        aways = await self.aways(people) if people else {}
        return TurnShown(timers, timers_set, settings, aways)

    async def undo_match(self, game_id: int, seat: int) -> tuple[Match, int]:
        """Take back `seat`'s last decision of a contract game, within its turn: the match replayed from its deal
        without it, the log row gone, the version moved on (buttons made before are stale). Returns (a private copy
        of the match, the store version).

        Refused (`StoreRefusal`, nothing written): `not_active` for a game not being played, `undo_nothing` when the
        last decision is not the seat's or it ended a turn, `undo_timed_out` when the AI made it when the time ran
        out, `undo_drew` when it showed something drawn at random.
        """
        async with self._game_lock(game_id):
            held = await self._held_match(game_id)
            self._played_here(game_id, held)
            record = await self.get_game(game_id)
            if record.status != "active":
                raise StoreRefusal("not_active")
            if not held.decisions or held.decisions[-1].seat != seat:
                raise StoreRefusal("undo_nothing")
            seq = held.decisions[-1].seq
            row = found(
                await self._one("SELECT source, flags FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
            )
            if row["source"] != "player":
                raise StoreRefusal("undo_timed_out")
            if row["flags"] & REVEALS:
                raise StoreRefusal("undo_drew")
            if row["flags"] & ENDS_TURN:
                raise StoreRefusal("undo_nothing")
            dealt = found(await self._one(f"SELECT {_DEAL} FROM games WHERE id = ?", (game_id,)))
            kept = [(d.seq, str(d.seat), d.action) for d in held.decisions[:-1]]
            match = _replayed(held.module, dealt, kept, None, held.dealt).match
            self._matches.pop(game_id, None)
            async with self._tx() as db:
                await self._run(db, "DELETE FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
                count = await self._run(
                    db,
                    "UPDATE games SET version = version + 1, moves = ?, snapshot = ?, updated_at = ? "
                    "WHERE id = ? AND version = ?",
                    (seq - 1, match.to_json(), self._clock(), game_id, held.version),
                )
                if count != 1:
                    raise StaleVersion(game_id, held.version, held.version + 1)
                # An undo never leaves its turn: the turn's reminders and deadline stay as they were.
                await self._carry_turn_timers(db, game_id, held.version)
            rebuilt = _Held(held.version + 1, match, held.module, held.decisions[:-1], dealt=held.dealt)
            self._hold(game_id, rebuilt)
        return match.copy(), rebuilt.version

    async def set_match_deadline(self, game_id: int, version: int, due_at: float, kind: str = "deadline") -> float:
        """Set one of a contract game's turn timers for `version` (created or moved), as `set_match_timers` does;
        returns when it is due."""
        return (await self.set_match_timers(game_id, version, [(kind, due_at)]))[kind]

    async def set_match_timers(
        self, game_id: int, version: int, timers: Sequence[tuple[str, float]]
    ) -> dict[str, float]:
        """Set a contract game's turn timers ((kind, due at) pairs: its reminders and deadline) for `version` in one
        commit, as the people the game waits for would have them (`AwayStore.people_timers`): all later by the rest
        of the away period that ends last, and the deadline out of their quiet hours. Returns when each is due."""
        async with self._game_lock(game_id):
            seats = await self._match_waiting_seats(game_id)
            async with self._tx() as db:
                # A bank game's turn runs on the banks of the people it waits for (`ClockStore.clock_people`).
                timers = await self.clock_people(db, game_id, seats, timers)
                moved = await self.people_timers(db, [user for _name, user in seats], timers)
                await self._run_many(
                    db,
                    "INSERT INTO timers (game_id, kind, due_at, version) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at, version = excluded.version",
                    [(game_id, kind, at, version) for kind, at in moved],
                )
        return dict(moved)

    async def _count_expired(
        self, db: Transaction, record: GameRecord, seat: int, source: str, done: Sequence[int]
    ) -> None:
        """In a decision's transaction: a person's own decision ends their run of expired turns; a decision the AI
        made when their time ran out, that ends their part of the turn, adds one to it (in the same commit, so that
        a crash loses no expired turn, nor with it the opponents' choice after the third in a row)."""
        mine = next((s for s in record.seats if s.seat == seat), None)
        if mine is None:
            return
        if source == "player" and mine.expired:
            await self._run(db, "UPDATE seats SET expired = 0 WHERE game_id = ? AND seat = ?", (record.id, seat))
        elif source == "timeout" and seat in done:
            await self._run(
                db, "UPDATE seats SET expired = expired + 1 WHERE game_id = ? AND seat = ?", (record.id, seat)
            )

    async def _bank_turn(
        self,
        db: Transaction,
        record: GameRecord,
        version: int,
        done: Sequence[int],
        waited: Sequence[int],
        after: Sequence[int],
        turn_changed: bool,
    ) -> None:
        """In a decision's transaction, in a game played on a bank clock: the seats whose part of the turn is over
        are charged its time (`ClockStore.clock_charge`); the turn's timers go with the turn when it ends (the next
        turn's are set when it is shown), and within it follow the banks of the people it still waits for when they
        change (a person who chose at once no longer counts) or stay as they were."""
        names = {s.seat: s.name for s in record.seats}
        for s in done:
            if s in names:
                await self.clock_charge(db, record.id, names[s])
        if turn_changed:
            await self._clear_turn_timers(db, record.id)
            return
        if set(after) == set(waited):
            await self._carry_turn_timers(db, record.id, version)
            return
        await self._clear_turn_timers(db, record.id)
        people = [(s.name, s.user_id) for s in record.seats if s.seat in after and not s.ai and s.user_id is not None]
        if not people:
            return
        start = self._clock()
        timers = await self.clock_people(db, record.id, people, [(kind, start) for kind in TURN_TIMERS])
        moved = await self.people_timers(db, [user for _name, user in people], timers)
        await self._run_many(
            db,
            "INSERT INTO timers (game_id, kind, due_at, version) VALUES (?, ?, ?, ?)",
            [(record.id, kind, at, version + 1) for kind, at in moved],
        )

    async def _carry_turn_timers(self, db: Transaction, game_id: int, version: int) -> None:
        """In a decision's transaction that stays within the turn: the turn's timers set for `version` now belong
        to the version after it (a timer of an older turn, not carried, does nothing when due)."""
        marks = ",".join("?" * len(TURN_TIMERS))
        await self._run(
            db,
            f"UPDATE timers SET version = version + 1 WHERE game_id = ? AND version = ? AND kind IN ({marks})",
            (game_id, version, *TURN_TIMERS),
        )

    async def _clear_turn_timers(self, db: Transaction, game_id: int) -> None:
        """In a decision's transaction that ends the turn: the turn's reminders and deadline go with it."""
        marks = ",".join("?" * len(TURN_TIMERS))
        await self._run(db, f"DELETE FROM timers WHERE game_id = ? AND kind IN ({marks})", (game_id, *TURN_TIMERS))

    async def match_events(self, game_id: int, since: int = 0) -> list[tuple[int, int, str, tuple[Event, ...]]]:
        """(seq, seat, action, events) of every decision of a contract game's log after action `since`."""
        async with self._game_lock(game_id):
            held = await self._held_match(game_id)
        return [(d.seq, d.seat, d.action, d.events) for d in held.decisions if d.seq > since]

    async def match_decisions(self, game_id: int) -> list[MatchDecision]:
        """Every decision of a contract game's log, in order, each with the events it caused and whether it ended
        a turn: what a "since your last turn" and a replay are cut from. No replay when the match is held."""
        async with self._game_lock(game_id):
            held = await self._held_match(game_id)
            return list(held.decisions)

    async def match_views(self, game_id: int, after: Sequence[int]) -> dict[int, dict[str, Any]]:
        """A spectator's view (`Match.view(None)`) of a contract game after each decision `seq` in `after` (0: as
        dealt), from one replay of its log from the deal. The seed stays here: only public views leave."""
        wanted = set(after)
        async with self._game_lock(game_id):
            held = await self._held_match(game_id)
            dealt = found(await self._one(f"SELECT {_DEAL} FROM games WHERE id = ?", (game_id,)))
            entries = list(held.decisions)
        match = _dealt(held.module, dealt, held.dealt)
        views = {0: match.view(None)} if 0 in wanted else {}
        last = max(wanted, default=0)
        for decision in entries:
            if decision.seq > last:
                break
            match.apply(decision.seat, decision.action)
            if decision.seq in wanted:
                views[decision.seq] = match.view(None)
        return views

    async def _match_waiting_users(self, game_id: int) -> tuple[int, ...]:
        """The people (user ids) a contract game waits for: those seated at the seats of `Match.waiting()` (the
        seat's number is its `seats.seat`), computer players left out; the caller holds the game's lock."""
        return tuple(user for _name, user in await self._match_waiting_seats(game_id))

    async def _match_waiting_seats(self, game_id: int) -> list[tuple[str, int]]:
        """(seat name, user id) of each person a contract game waits for, as `_match_waiting_users`."""
        waiting = set((await self._held_match(game_id)).match.waiting())
        rows = await self._all("SELECT seat, name, user_id, ai FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [
            (r["name"], int(r["user_id"]))
            for r in rows
            if r["seat"] in waiting and not r["ai"] and r["user_id"] is not None
        ]

    # ------------------------------------------------------------------ held matches

    def _init_matches(self) -> None:
        self._matches = OrderedDict()

    def _hold(self, game_id: int, held: _Held) -> None:
        self._matches[game_id] = held
        self._matches.move_to_end(game_id)
        while len(self._matches) > _HELD:
            self._matches.popitem(last=False)

    def _module_of(self, record: GameRecord) -> GameModule:
        """The contract module a game is played with."""
        return contract_module(record.game)

    async def _writable(self, game_id: int, game: str) -> None:
        """Refuse (`other_game`) to deal a lobby whose log would name its players: `to_seat_log` moves it first."""
        row = found(await self._one("SELECT log_seats FROM games WHERE id = ?", (game_id,)))
        if not row["log_seats"]:
            raise StoreRefusal("other_game", game_id=game_id, game=game)

    @staticmethod
    def _played_here(game_id: int, held: _Held) -> None:
        """Refuse (`other_game`) to play or undo in a game whose log names its players: `to_seat_log` moves it
        first."""
        if held.names is not None:
            raise StoreRefusal("other_game", game_id=game_id, game=held.module.key)

    async def _seating(self, game_id: int, row: Row) -> tuple[list[str] | None, list[str] | None]:
        """The seat names, in seat order, that a game's log names its players by (None: a log by seat number) and
        that its match was dealt with (None: dealt for its number of seats); `row` holds its `log_seats` and
        `dealt_named`. A log by name was always dealt with those names."""
        if row["log_seats"] and not row["dealt_named"]:
            return None, None
        names = [
            r["name"] for r in await self._all("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        ]
        return (None if row["log_seats"] else names), names

    async def _held_match(self, game_id: int) -> _Held:
        """The held match, or the match replayed from its log (a cold load: the snapshot is checked and repaired);
        the caller holds the game's lock."""
        row = await self._one(
            f"SELECT status, {_SEED}, version, broken_reason, game, log_seats FROM games WHERE id = ?", (game_id,)
        )
        if row is None:
            raise GameNotFound(f"there is no game {game_id}")
        if row["status"] == "broken":
            raise BrokenGame(game_id, row["broken_reason"] or "unknown")
        if row["seed"] is None:
            raise StoreRefusal("not_started")
        held = self._matches.get(game_id)
        # A game moved to a log by seat number keeps its version: held by name, it is read again.
        if held is not None and held.version == row["version"] and (held.names is None) == bool(row["log_seats"]):
            self._matches.move_to_end(game_id)
            return held
        module = contract_module(row["game"])
        row = found(
            await self._one(
                f"SELECT {_DEAL}, version, snapshot, log, created_at FROM games WHERE id = ?",
                (game_id,),
            )
        )
        names, dealt = await self._seating(game_id, row)
        packed = row["log"] is not None
        rows = unpack_log(row["log"], row["created_at"]) if packed else await self._action_rows(game_id)
        try:
            held = _replayed(module, row, rows, names, dealt)
        except (Refusal, ValueError) as exc:
            if names is not None:  # only read: a read writes nothing, `to_seat_log` refuses to move it
                raise BrokenGame(game_id, f"its log no longer replays: {exc}") from None
            raise await self._broken(game_id, exc) from None
        if names is None:
            await self._mend_snapshot(game_id, packed, held.match.to_json(), row["snapshot"])
        held.version = row["version"]
        self._hold(game_id, held)
        return held

    # ------------------------------------------------------------------ the end of a match

    async def _result_rows(
        self, game_id: int, module: GameModule, standing: Standing, now: float
    ) -> list[tuple[int, int, str, int | None, int, int, int, int, str, float]]:
        """The results rows of a finished match: one per seat, then one per
        opponent that holds no seat (`GameModule.unseated`: a solo game's automa), numbered past the seats."""
        seats = await self._all(
            "SELECT seat, name, user_id, ai, resigned FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        resigned = [bool(s["resigned"]) for s in seats]
        others = module.unseated(standing)
        if others:
            # Every opponent ranked together: a resignation after every one that did not resign, else by place.
            keys = [*zip(resigned, standing.places, strict=True), *((False, place) for _n, place, _s in others)]
            ranks = [1 + sum(other < mine for other in keys) for mine in keys]
        else:
            ranks = seat_ranks(standing, resigned)
        extra = [
            (
                game_id,
                len(seats) + i,
                name,
                None,
                1,
                0,
                ranks[len(seats) + i],
                int(score["total"]),
                _details(score),
                now,
            )
            for i, (name, _place, score) in enumerate(others)
        ]
        return [
            (
                game_id,
                s["seat"],
                s["name"],
                s["user_id"],
                int(s["ai"]),
                int(s["resigned"]),
                rank,
                int(score["total"]),
                _details(score),
                now,
            )
            for s, rank, score in zip(seats, ranks[: len(seats)], standing.scores, strict=True)
        ] + extra

    async def _finish_match(self, db: Transaction, game_id: int, module: GameModule, match: Match, now: float) -> None:
        """In the last decision's transaction: results, ratings, totals (or the challenge attempt), the status, no
        timers, and the log packed into the game's row."""
        await self.database.lock_shared_totals(db)
        rows = await self._result_rows(game_id, module, match.standing(), now)
        await self._run_many(
            db,
            "INSERT INTO results (game_id, seat, name, user_id, ai, resigned, rank, total, details, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
        await self._run(db, "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?", (now, game_id))
        await self._run(db, "DELETE FROM timers WHERE game_id = ?", (game_id,))
        info = found(
            await self._one("SELECT guild_id, solo, challenge, created_at, game FROM games WHERE id = ?", (game_id,))
        )
        if not info["solo"]:
            await self._rate_finished(db, game_id, info["guild_id"], now, info["game"])
        if info["challenge"]:
            # A challenge is solo: its one seat's score, and whether it beat the game's own opponent.
            await self._run(
                db,
                "UPDATE challenge_attempts SET score = ?, won = ?, finished_at = ? WHERE game_id = ?",
                (rows[0][7], int(rows[0][6] == 1), now, game_id),
            )
        else:
            await self._add_totals(db, info["guild_id"], bool(info["solo"]), rows, info["game"])
        actions = await self._action_rows(game_id)
        # A person's own decisions count towards their favourite; a timed-out seat's or the AI's do not.
        people = {str(row[1]): row[3] for row in rows}  # a seat the AI took over keeps its person's own choices
        chosen = [(people.get(player), action) for _, player, action, source, _, _ in actions if source == "player"]
        await self._add_favourites(db, info["guild_id"], chosen, info["game"])
        await self._run(
            db,
            "UPDATE games SET log = ?, snapshot = NULL WHERE id = ?",
            (pack_log(actions, info["created_at"]), game_id),
        )
        await self._run(db, "DELETE FROM actions WHERE game_id = ?", (game_id,))

    # ------------------------------------------------------------------ maintenance

    async def named_log_games(self) -> list[int]:
        """The ids of every game whose log names its players (stored by an older version), lobbies and ended games
        included, in order: those `to_seat_log` moves."""
        return [r["id"] for r in await self._all("SELECT id FROM games WHERE log_seats = 0 ORDER BY id")]

    async def to_seat_log(self, game_id: int) -> bool:
        """Move a game whose log names its players (stored by an older version) to a log by seat number, so that it
        is played on through the contract (`play_match`, `undo_match`); True when moved, False when its log already
        named seats by number (nothing is written then).

        In one commit, every log row's player becomes its seat's number (`_seating`: the seat of that name), in the
        packed log of a finished game or the `actions` rows of another, and `games.log_seats` becomes 1; nothing else
        of any row changes (not the version: the game reads the same through the contract, match, views, events and
        results). A lobby has no log: only its `log_seats` changes.

        Refused, nothing written: BrokenGame for a game marked broken or whose log `verify` finds fault with (it stays
        as it is, for a person to look at); GameNotFound for no such game."""
        async with self._game_lock(game_id):
            g = await self._one(
                f"SELECT id, status, {_SEED}, rules, side, solo, snapshot, broken_reason, moves, log, created_at, "
                "game, settings, players, log_seats, dealt_named, version FROM games WHERE id = ?",
                (game_id,),
            )
            if g is None:
                raise GameNotFound(f"there is no game {game_id}")
            if g["log_seats"]:
                return False
            if g["status"] == "broken":
                raise BrokenGame(game_id, g["broken_reason"] or "unknown")
            rows: list[tuple[int, str, str, str, float, int]] = []
            packed = g["log"] is not None
            if g["seed"] is not None:
                problem = await self._verify_match(g)
                if problem is not None:
                    raise BrokenGame(game_id, problem)
                names, _dealt_with = await self._seating(game_id, g)
                stored = unpack_log(g["log"], g["created_at"]) if packed else await self._action_rows(game_id)
                rows = [(seq, str(_seat_of(p, names)), a, src, at, fl) for seq, p, a, src, at, fl in stored]
            async with self._tx() as db:
                # The version and `log_seats = 0` checked in the same commit: a move another process made meanwhile
                # (by an older version of the bot, sharing the database) leaves this one undone.
                # A started game with a log by name was dealt with its players' names (the migration that added
                # `dealt_named` marked it so; this marks a row written without it, as a copy of an older one).
                count = await self._run(
                    db,
                    "UPDATE games SET log_seats = 1, dealt_named = ? WHERE id = ? AND version = ? AND log_seats = 0",
                    (1 if g["seed"] is not None else g["dealt_named"], game_id, g["version"]),
                )
                if count != 1:
                    current = found(await self._one("SELECT version FROM games WHERE id = ?", (game_id,)))
                    raise StaleVersion(game_id, g["version"], current["version"])
                if packed:
                    await self._run(
                        db, "UPDATE games SET log = ? WHERE id = ?", (pack_log(rows, g["created_at"]), game_id)
                    )
                elif rows:
                    await self._run_many(
                        db,
                        "UPDATE actions SET player = ? WHERE game_id = ? AND seq = ?",
                        [(player, game_id, seq) for seq, player, *_ in rows],
                    )
            self._forget(game_id)
        return True

    async def _verify_match(self, g: Row) -> str | None:
        """What is wrong with a started contract game (`Store.verify`'s check of one game), or None."""
        try:
            module = games.get(g["game"])
        except KeyError:
            return f"its game {g['game']!r} is not known to this process"
        names, dealt = await self._seating(g["id"], g)
        packed = g["log"] is not None
        rows = unpack_log(g["log"], g["created_at"]) if packed else await self._action_rows(g["id"])
        if [r[0] for r in rows] != list(range(1, len(rows) + 1)) or len(rows) != g["moves"]:
            return "the action log has gaps or disagrees with the move count"
        if packed and g["status"] != "finished":
            return "the log is packed but the game is not finished"
        try:
            match = _dealt(module, g, dealt)
            for seq, player, action, _, _, flags in rows:
                before = match.turn_key()
                events = match.apply(_seat_of(player, names), action)
                if not packed and flags != flags_of_events(events, match.turn_key() != before, match.is_over):
                    return f"what is stored about move {seq} differs from a replay"
        except (Refusal, ValueError) as exc:
            return f"the log no longer replays: {exc}"
        if not packed and match.to_json() != g["snapshot"]:
            return "the snapshot differs from a replay of the log"
        if (g["status"] == "finished") != match.is_over:
            return "the status disagrees with the replayed game"
        if g["status"] == "finished":
            stored = [
                (r["seat"], r["rank"], r["total"], json.loads(r["details"]))
                for r in await self._all(
                    "SELECT seat, rank, total, details FROM results WHERE game_id = ? ORDER BY seat", (g["id"],)
                )
            ]
            replayed = [
                (r[1], r[6], r[7], json.loads(r[8]))
                for r in await self._result_rows(g["id"], module, match.standing(), 0.0)
            ]
            if stored != replayed:
                return "the stored results differ from a replay"
        return None


def stored_options(module: GameModule, row: Row) -> dict[str, Any]:
    """A stored game's options: its settings (the platform's left out), completed by the columns that kept them
    before settings were kept as JSON (`_COLUMN_SETTINGS`) when the game has such a setting and they lack it."""
    options = game_options(json.loads(row["settings"]))
    for key in _COLUMN_SETTINGS:
        if key not in options and row[key] is not None and any(s.key == key for s in module.settings):
            options[key] = row[key]
    return options


def _dealt(module: GameModule, row: Row, names: Sequence[str] | None) -> Match:
    """The game dealt from its row (options, seed, seats, rules): with its seat names when it was dealt with them
    (their number is the seats', as older versions of the bot dealt Kokeshi)."""
    options, seed = stored_options(module, row), int(row["seed"])
    if names is None:
        return module.deal(options, seed, row["players"], row["rules"])
    return module.deal_named(options, seed, names, row["rules"])


def _seat_of(player: str, names: Sequence[str] | None) -> int:
    """The seat a log row's player stands for: its number, or in a log by name the seat of that name."""
    if names is None:
        return int(player)
    try:
        return names.index(player)
    except ValueError:
        raise ValueError(f"the log names {player!r}, who has no seat") from None


def _replayed(
    module: GameModule,
    row: Row,
    rows: Sequence[tuple[Any, ...]],
    names: Sequence[str] | None,
    dealt: Sequence[str] | None,
) -> _Held:
    """The game dealt from its row (with the seat names `dealt`, if any) and replayed through these log rows
    (players by number, or by `names`)."""
    match = _dealt(module, row, dealt)
    held = _Held(
        -1,
        match,
        module,
        [],
        names=None if names is None else list(names),
        dealt=None if dealt is None else list(dealt),
    )
    for seq, player, action, *_ in rows:
        before = match.turn_key()
        seat = _seat_of(player, names)
        try:
            events = tuple(match.apply(seat, action))
        except Refusal as exc:  # the reason a game is marked broken names the move
            raise ValueError(f"move {seq}, {action!r}: {exc}") from None
        held.decisions.append(MatchDecision(seq, seat, action, events, match.turn_key() != before or match.is_over))
    return held
