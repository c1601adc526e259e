"""Time banks and the opponents' choice: each seat's bank in a game played on a bank clock, charged per turn."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from .database import Row, Transaction
from .records import DEFAULT_GAME

HOUR = 3600
DAY = 24 * HOUR
# The lobby setting naming a game's bank (`Bank.key`); a game without it has the fixed per-turn timer.
CLOCK = "clock"
# Where a turn's reminders and deadline fall, as parts of the time the player has for it.
FRACTIONS = {"reminder_half": 0.5, "reminder_late": 0.9, "deadline": 1.0}
ANSWERS = ("wait", "ai", "end")
# How a choice closes without an answer: nobody chose in time, or the player came back first.
CLOSINGS = ("none", "back")


@dataclass(frozen=True, slots=True)
class Bank:
    """A time bank: `initial` seconds at the start, `increment` added after each of the player's turns, never more
    than `cap` in the bank."""

    key: str
    initial: int
    increment: int
    cap: int


# The banks `/kokeshi new` offers (BGA's model: a bank, time added after each move, a cap).
BANKS: dict[str, Bank] = {
    b.key: b
    for b in (
        Bank("1h", HOUR, 10 * 60, 2 * HOUR),
        Bank("1d", DAY, 6 * HOUR, 2 * DAY),
        Bank("3d", 3 * DAY, DAY, 7 * DAY),
        Bank("7d", 7 * DAY, 2 * DAY, 14 * DAY),
    )
}


def bank_of(settings: Any) -> Bank | None:
    """The bank a game's lobby settings name (a mapping, or its stored JSON text); None for a fixed timer."""
    if isinstance(settings, str):
        try:
            settings = json.loads(settings)
        except ValueError:
            return None
    if not isinstance(settings, dict):
        return None
    return BANKS.get(settings.get(CLOCK, ""))


@dataclass(frozen=True, slots=True)
class SeatChoice:
    """The opponents' choice about seat `name` after its third expired turn in a row."""

    game_id: int
    name: str
    asked_at: float
    due_at: float
    answer: str | None
    answered_by: int | None

    @property
    def open(self) -> bool:
        return self.answer is None


def _choice(r: Row) -> SeatChoice:
    return SeatChoice(r["game_id"], r["name"], r["asked_at"], r["due_at"], r["answer"], r["answered_by"])


class ClockStore:
    """Mixed into `Store`; runs its statements through the store's database."""

    _clock: Callable[[], float]  # provided by Store

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:  # provided by Store
        raise NotImplementedError

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:  # provided by Store
        raise NotImplementedError

    async def _one_on(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> Row | None:  # by Store
        raise NotImplementedError

    async def _run(self, db: Transaction, sql: str, params: Sequence[Any] = ()) -> int:  # provided by Store
        raise NotImplementedError

    def _tx(self, *, durable: bool = True) -> AbstractAsyncContextManager[Transaction]:  # provided by Store
        raise NotImplementedError

    # ------------------------------------------------------------------ the bank, inside the move's transaction

    async def _away_overlap(self, db: Transaction | None, user_id: int | None, start: float, end: float) -> float:
        """Seconds of [start, end] the player spent away: time that is not charged to their bank."""
        if user_id is None or end <= start:
            return 0.0
        sql = (
            "SELECT COALESCE(SUM(CASE WHEN ends_at < ? THEN ends_at ELSE ? END - "
            "CASE WHEN began_at > ? THEN began_at ELSE ? END), 0) AS away "
            "FROM aways WHERE user_id = ? AND ends_at > ? AND began_at < ?"
        )
        params = (end, end, start, start, user_id, start, end)
        r = await (self._one_on(db, sql, params) if db is not None else self._one(sql, params))
        return 0.0 if r is None else max(0.0, float(r["away"]))

    async def _spent(self, db: Transaction | None, user_id: int | None, began_at: float, now: float) -> float:
        """What a turn that began at `began_at` has used of the bank by `now`: the time since, less time away."""
        return max(0.0, now - began_at - await self._away_overlap(db, user_id, began_at, now))

    async def _bank_game(self, db: Transaction, game_id: int) -> Bank | None:
        r = await self._one_on(db, "SELECT settings FROM games WHERE id = ?", (game_id,))
        return None if r is None else bank_of(r["settings"])

    async def clock_people(
        self, db: Transaction, game_id: int, seats: Sequence[tuple[str, int]], timers: Sequence[tuple[str, float]]
    ) -> list[tuple[str, float]]:
        """Inside a transaction that sets the timers of a turn that waits for these seats ((name, user id) of each
        person; several choose at once in some games): in a bank game, each one's bank turn starts now or goes on
        from when it began, and the turn's reminders and deadline come from the bank that runs out first; the
        timers as given otherwise."""
        bank = await self._bank_game(db, game_id)
        if bank is None or not timers or not seats:
            return list(timers)
        now = self._clock()
        left = min([await self._turn_left(db, game_id, bank, name, user_id, now) for name, user_id in seats])
        return [(kind, now + FRACTIONS[kind] * left if kind in FRACTIONS else due_at) for kind, due_at in timers]

    async def _turn_left(self, db: Transaction, game_id: int, bank: Bank, name: str, user_id: int, now: float) -> float:
        """What is left in this seat's bank for its turn: the turn starts now (the seat's first with the initial
        bank), or goes on from when it began, less the time spent since (time away not counted)."""
        row = await self._one_on(
            db, "SELECT bank, turn_began_at FROM clocks WHERE game_id = ? AND name = ?", (game_id, name)
        )
        if row is None:
            await self._run(
                db,
                "INSERT INTO clocks (game_id, name, bank, turn_began_at) VALUES (?, ?, ?, ?)",
                (game_id, name, float(bank.initial), now),
            )
            return float(bank.initial)
        if row["turn_began_at"] is None:
            await self._run(
                db, "UPDATE clocks SET turn_began_at = ? WHERE game_id = ? AND name = ?", (now, game_id, name)
            )
            return float(row["bank"])
        return max(0.0, float(row["bank"]) - await self._spent(db, user_id, float(row["turn_began_at"]), now))

    async def restart_bank_turns(self, game_id: int) -> None:
        """The running bank turns of a game start again from now: its thread could not show the turn (Discord refused
        its posts, and the turn's clock stopped), so the time before is charged to nobody."""
        async with self._tx() as db:
            await self._run(
                db,
                "UPDATE clocks SET turn_began_at = ? WHERE game_id = ? AND turn_began_at IS NOT NULL",
                (self._clock(), game_id),
            )

    async def clock_charge(self, db: Transaction, game_id: int, player: str) -> None:
        """Inside the transaction of the move that ends `player`'s turn: the turn's time (less time away) comes off
        their bank, never below zero, then the bank's increment is added, never above its cap."""
        row = await self._one_on(
            db,
            "SELECT c.bank, c.turn_began_at, s.user_id, g.settings FROM clocks c "
            "JOIN seats s ON s.game_id = c.game_id AND s.name = c.name JOIN games g ON g.id = c.game_id "
            "WHERE c.game_id = ? AND c.name = ?",
            (game_id, player),
        )
        if row is None or row["turn_began_at"] is None:
            return
        bank = bank_of(row["settings"])
        left = float(row["bank"])
        if bank is not None:
            spent = await self._spent(db, row["user_id"], float(row["turn_began_at"]), self._clock())
            left = min(float(bank.cap), max(0.0, left - spent) + bank.increment)
        await self._run(
            db,
            "UPDATE clocks SET bank = ?, turn_began_at = NULL WHERE game_id = ? AND name = ?",
            (left, game_id, player),
        )

    # ------------------------------------------------------------------ reading the banks

    async def bank_left(self, game_id: int, name: str) -> float | None:
        """What is left in this seat's bank now (its running turn taken off); None when the seat has no bank."""
        row = await self._one(
            "SELECT c.bank, c.turn_began_at, s.user_id FROM clocks c "
            "JOIN seats s ON s.game_id = c.game_id AND s.name = c.name WHERE c.game_id = ? AND c.name = ?",
            (game_id, name),
        )
        if row is None:
            return None
        if row["turn_began_at"] is None:
            return float(row["bank"])
        spent = await self._spent(None, row["user_id"], float(row["turn_began_at"]), self._clock())
        return max(0.0, float(row["bank"]) - spent)

    async def banks(self, game_id: int) -> dict[str, float]:
        """Each seat's stored bank (seconds, before any running turn is taken off), by seat name."""
        rows = await self._all("SELECT name, bank FROM clocks WHERE game_id = ?", (game_id,))
        return {r["name"]: float(r["bank"]) for r in rows}

    # ------------------------------------------------------------------ the opponents' choice

    async def ask_choice(self, game_id: int, name: str, due_at: float) -> SeatChoice:
        """Open the opponents' choice about this seat (a new one replaces an old answered one)."""
        now = self._clock()
        async with self._tx() as db:
            await self._run(
                db,
                "INSERT INTO seat_choices (game_id, name, asked_at, due_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, name) DO UPDATE SET asked_at = excluded.asked_at, due_at = excluded.due_at, "
                "answer = NULL, answered_by = NULL",
                (game_id, name, now, due_at),
            )
        return SeatChoice(game_id, name, now, due_at, None, None)

    async def seat_choice(self, game_id: int, name: str) -> SeatChoice | None:
        """The latest choice asked about this seat, open or answered."""
        r = await self._one("SELECT * FROM seat_choices WHERE game_id = ? AND name = ?", (game_id, name))
        return None if r is None else _choice(r)

    async def answer_choice(self, game_id: int, name: str, answer: str, user_id: int | None = None) -> bool:
        """Close an open choice with this answer; False when it was no longer open (someone answered first)."""
        async with self._tx() as db:
            count = await self._run(
                db,
                "UPDATE seat_choices SET answer = ?, answered_by = ? WHERE game_id = ? AND name = ? AND answer IS NULL",
                (answer, user_id, game_id, name),
            )
        return count == 1

    async def due_choices(self, now: float) -> list[SeatChoice]:
        """The open choices nobody answered in time, earliest first."""
        rows = await self._all(
            "SELECT * FROM seat_choices WHERE answer IS NULL AND due_at <= ? ORDER BY due_at, game_id, name", (now,)
        )
        return [_choice(r) for r in rows]

    async def next_choice_due(self) -> float | None:
        """When the earliest open choice runs out, if any is open."""
        r = await self._one("SELECT MIN(due_at) AS due_at FROM seat_choices WHERE answer IS NULL")
        return None if r is None or r["due_at"] is None else float(r["due_at"])

    # ------------------------------------------------------------------ checking

    async def verify_clocks(self) -> list[str]:
        """What is wrong with the stored banks and choices: a bank in a game without a bank clock or past its cap, a
        turn running for two seats of one Kokeshi game (another game may wait for several seats at once), a bank or
        a choice of a seat the game does not have, a time that is not a number, a choice answered by someone but
        without an answer. Empty when they are sound."""
        problems = []
        running: dict[int, str] = {}
        rows = await self._all(
            "SELECT c.game_id, c.name, c.bank, c.turn_began_at, g.settings, g.status, g.game, g.log_seats, "
            "s.name AS seat "
            "FROM clocks c "
            "JOIN games g ON g.id = c.game_id LEFT JOIN seats s ON s.game_id = c.game_id AND s.name = c.name "
            "ORDER BY c.game_id, c.name"
        )
        for r in rows:
            bank = bank_of(r["settings"])
            where = f"game {r['game_id']}, seat {r['name']}"
            if r["seat"] is None:
                problems.append(f"{where}: a bank of a seat the game does not have")
            if not _finite(r["bank"], r["turn_began_at"]):
                problems.append(f"{where}: the bank or its turn's start is not a time")
            elif bank is None:
                problems.append(f"{where}: a bank in a game without a bank clock")
            elif not 0 <= r["bank"] <= bank.cap:
                problems.append(f"{where}: the bank ({r['bank']:.0f} s) is outside 0 to its cap ({bank.cap} s)")
            if (
                r["turn_began_at"] is not None
                and r["status"] == "active"
                and r["game"] == DEFAULT_GAME
                and not r["log_seats"]
            ):
                if r["game_id"] in running:
                    problems.append(f"game {r['game_id']}: turns running for {running[r['game_id']]} and {r['name']}")
                running[r["game_id"]] = r["name"]
        choices = await self._all(
            "SELECT c.*, s.name AS seat FROM seat_choices c "
            "LEFT JOIN seats s ON s.game_id = c.game_id AND s.name = c.name ORDER BY c.game_id, c.name"
        )
        for r in choices:
            where = f"game {r['game_id']}, the choice about {r['name']}"
            if r["seat"] is None:
                problems.append(f"{where}: the game has no such seat")
            if not _finite(r["asked_at"], r["due_at"]) or r["due_at"] < r["asked_at"]:
                problems.append(f"{where}: its times do not read (asked {r['asked_at']}, due {r['due_at']})")
            if r["answer"] is None and r["answered_by"] is not None:
                problems.append(f"{where}: answered by {r['answered_by']} but without an answer")
            elif r["answer"] is not None and r["answer"] not in (*ANSWERS, *CLOSINGS):
                problems.append(f"{where}: the answer {r['answer']!r} is none of the choice's")
        return problems


def _finite(*values: float | None) -> bool:
    """Whether every one of these stored times is a real number (None, an unset one, counts as one)."""
    return all(v is None or (isinstance(v, (int, float)) and math.isfinite(v)) for v in values)
