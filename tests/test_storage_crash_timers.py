"""Crash safety of the timers: a writer killed with SIGKILL at random moments never loses an acknowledged turn
deadline, time bank, away period, quiet hours, digest time or opponents' choice, and never leaves one half-written.

The child plays on three tables at once (two on time banks, one on the fixed timer) on a fast clock, has their
players go away and come back, let their time run out (the bank to its end; three times in a row opens the opponents'
choice), answer that choice, rejoin, and change their quiet hours and digest. Before each store call it prints what
it is about to do ("BEGIN"); once the call has returned it prints everything the store holds about timers ("ACK").
After each kill the parent reopens the store: what it holds is the last acknowledged state, or that state with the
one unacknowledged call carried out whole.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from storage import Store, open_store
from storage.away import QUIET, TURN_TIMERS
from storage.clock import BANKS, FRACTIONS

ROOT = Path(__file__).resolve().parent.parent
USERS = {1: "Ana", 2: "Bo", 3: "Cy"}
# host, guest, bank ("" for the fixed timer of an hour a turn)
TABLES = ((1, 2, "1h"), (2, 3, "1h"), (3, 1, ""))
ALL = ("lobby", "active", "finished", "cancelled", "broken")
# The child's clock: simulated seconds run this much faster than real ones, from a start the parent fixes, so that
# an hour's bank runs out in 36 ms, away periods end within seconds, and every child reads one clock.
BASE = 1_800_000_000.0
SPEED = 100_000.0
# The longest a time-out waits for its deadline (real seconds): deadlines moved days later fire early instead.
LONGEST_WAIT = 0.05
CHILD = "from tests.test_storage_crash_timers import child; child()"


def sim_clock(started: float):
    return lambda: BASE + (time.time() - started) * SPEED


def turn_timers(now: float, turn_timer: int) -> list[tuple[str, float]]:
    """A turn's reminders and deadline from now, as the tables pass them (a bank game replaces them)."""
    return [(kind, now + part * turn_timer) for kind, part in FRACTIONS.items()]


async def snapshot(store: Store) -> dict[str, Any]:
    """Every timer the store holds, as JSON-ready values: per game its turn deadlines, banks, seats and choices;
    per player their away periods, quiet hours and digest."""
    ids = sorted({g.id for u in USERS for g in await store.games_for_user(u, ALL)})
    games: dict[str, Any] = {}
    for game_id in ids:
        record = await store.get_game(game_id)
        turn = None
        if record.status == "active":
            match, _version, _record = await store.load_match(game_id)
            seat = None if match.is_over else record.seats[match.waiting()[0]]
            turn = seat.user_id if seat is not None and not seat.ai else None
        choices = {}
        for seat in record.seats:
            choice = await store.seat_choice(game_id, seat.name)
            if choice is not None:
                choices[seat.name] = [choice.asked_at, choice.due_at, choice.answer, choice.answered_by]
        games[str(game_id)] = {
            "status": record.status,
            "version": record.version,
            "turn": turn,
            "timers": {t.kind: [t.due_at, t.version] for t in await store.timers(game_id)},
            "banks": await store.banks(game_id),
            "seats": {s.name: [s.ai, s.expired] for s in record.seats},
            "choices": choices,
        }
    users: dict[str, Any] = {}
    for user_id in USERS:
        digest = await store.digest(user_id)
        users[str(user_id)] = {
            "aways": [[a.began_at, a.ends_at] for a in await store.away_history(user_id)],
            "quiet": await store.user_setting(user_id, QUIET),
            "digest": None if digest is None else [digest.minute, digest.zone_name, digest.due_at],
        }
    return {"games": games, "users": users}


# ---------------------------------------------------------------------------------------------------- the child


class Writer:
    """The child's side: store calls, each announced before and acknowledged (with the state) after it returns."""

    def __init__(self, store: Store, seed: int) -> None:
        self.store = store
        self.rng = random.Random(seed)
        self.now = store._clock
        # One seat per table that often lets its time run out, so that third expiries in a row happen.
        self.sleepy = {table: self.rng.choice(table[:2]) for table in TABLES}

    async def call(self, op: str, work, **where: Any) -> Any:
        print("BEGIN " + json.dumps({"op": op, **where}), flush=True)
        result = await work
        print("ACK " + json.dumps({"op": op, **where, "state": await snapshot(self.store)}), flush=True)
        return result

    async def tables(self) -> dict[tuple[int, int, str], int]:
        """The active game of each table, dealing one where there is none (before the kills may come)."""
        found = {}
        for host, guest, bank in TABLES:
            for g in await self.store.games_for_user(host, ("active",)):
                if {s.user_id for s in g.seats} == {host, guest}:
                    found[(host, guest, bank)] = g.id
            if (host, guest, bank) in found:
                continue
            turn_timer = BANKS[bank].initial if bank else 3600
            game_id = await self.store.create_game(
                guild_id=1, channel_id=1, host_id=host, host_name=USERS[host], players=2, turn_timer=turn_timer,
                settings={"clock": bank} if bank else None,
            )  # fmt: skip
            await self.store.add_seat(game_id, guest, USERS[guest])
            _match, version = await self.store.start_match(game_id, self.rng.randrange(10**6))
            await self.store.set_match_timers(game_id, version, turn_timers(self.now(), turn_timer))
            found[(host, guest, bank)] = game_id
        return found

    async def run(self) -> None:
        tables = await self.tables()
        print("OPEN " + json.dumps({"state": await snapshot(self.store)}), flush=True)
        ops = (*[self.turn] * 6, self.answer, self.answer, self.away, self.quiet, self.digest)
        while True:
            table = self.rng.choice(TABLES)
            await self.rng.choice(ops)(table, tables[table])

    async def turn(self, table: tuple[int, int, str], game_id: int) -> None:
        """The player to move plays, or lets their time run out (the AI plays the turn; a third time in a row asks
        the opponents); an AI seat plays its turn."""
        record = await self.store.get_game(game_id)
        if record.status != "active":
            return
        match, version, _record = await self.store.load_match(game_id)
        (number,) = match.waiting()
        seat = record.seats[number]
        timers = turn_timers(self.now(), record.turn_timer or 3600)
        sleepy = seat.user_id == self.sleepy[table]
        if seat.ai or self.rng.random() > (0.95 if sleepy else 0.1):
            # A person's own decision also ends their run of expired turns, in its commit.
            source = "ai" if seat.ai else "button"
            action = self.rng.choice(match.legal_actions(number))
            played = self.store.play_match(game_id, version, number, action, source=source, timers=timers)
            await self.call("play", played, game=game_id, source=source)
            return
        # The deadline passes (the bank runs out), then the AI plays the turn, as the timer would have it.
        deadline = next((t.due_at for t in await self.store.timers(game_id) if t.kind == "deadline"), self.now())
        await asyncio.sleep(min(max(0.0, deadline - self.now()) / SPEED, LONGEST_WAIT))
        while not match.is_over and match.waiting() == (number,):
            action = self.rng.choice(match.legal_actions(number))
            played = self.store.play_match(game_id, version, number, action, source="timeout", timers=timers)
            saved = await self.call("play", played, game=game_id, source="timeout")
            match, version = saved.match, saved.record.version
        # The store counted the expired turn with the decision that ended it; the tables write the count again.
        expired = seat.expired + 1
        await self.call("seat", self.store.update_seat(game_id, seat.name, expired=expired), game=game_id)
        asked = await self.store.seat_choice(game_id, seat.name)
        if expired >= 3 and not match.is_over and (asked is None or not asked.open):
            await self.call("choice", self.store.ask_choice(game_id, seat.name, self.now() + 86400), game=game_id)

    async def answer(self, table: tuple[int, int, str], game_id: int) -> None:
        """An opponent answers an open choice (wait, the AI plays, end the game), or a taken seat's player rejoins."""
        record = await self.store.get_game(game_id)
        if record.status != "active":
            return
        for seat in record.seats:
            asked = await self.store.seat_choice(game_id, seat.name)
            other = next(s.user_id for s in record.seats if s.name != seat.name)
            if asked is not None and asked.open:
                answer = self.rng.choice(("wait", "wait", "ai", "end"))
                await self.call("choice", self.store.answer_choice(game_id, seat.name, answer, other), game=game_id)
                if answer == "wait":
                    await self.call("seat", self.store.update_seat(game_id, seat.name, expired=0), game=game_id)
                elif answer == "ai":
                    await self.call("seat", self.store.update_seat(game_id, seat.name, ai=True), game=game_id)
                else:
                    await self.call("cancel", self.store.cancel_game(game_id), game=game_id)
                return
            if seat.ai:
                await self.call("seat", self.store.update_seat(game_id, seat.name, ai=False, expired=0), game=game_id)
                return

    async def away(self, table: tuple[int, int, str], _game_id: int) -> None:
        """A player of the table goes away (up to 14 days), or comes back early."""
        user_id = self.rng.choice(table[:2])
        if await self.store.away(user_id) is None:
            ends_at = self.now() + self.rng.uniform(3600, 14 * 86400)
            await self.call("away", self.store.go_away(user_id, ends_at), user=user_id)
        else:
            await self.call("back", self.store.come_back(user_id), user=user_id)

    async def quiet(self, table: tuple[int, int, str], _game_id: int) -> None:
        user_id = self.rng.choice(table[:2])
        value = self.rng.choice(("23:00-08:00 Europe/Lisbon", "22:30-07:00 America/New_York", "01:00-06:00 UTC", None))
        await self.call("quiet", self.store.set_user_setting(user_id, QUIET, value), user=user_id)

    async def digest(self, table: tuple[int, int, str], _game_id: int) -> None:
        """A player asks for a digest (or stops it), or the one due is sent and the next set."""
        user_id = self.rng.choice(table[:2])
        digest = await self.store.digest(user_id)
        if digest is not None and self.rng.random() < 0.5:
            await self.call("digest", self.store.digest_sent(digest, digest.due_at + 86400), user=user_id)
        elif digest is not None and self.rng.random() < 0.3:
            await self.call("digest", self.store.set_digest(user_id, None), user=user_id)
        else:
            minute, zone_name = self.rng.randrange(1440), self.rng.choice(("Europe/Lisbon", "Asia/Tokyo", "UTC"))
            due = int(self.now()) + self.rng.randrange(86400)
            await self.call("digest", self.store.set_digest(user_id, minute, zone_name, due), user=user_id)


def child() -> None:
    """`python -c`: argv is the store, a seed and the parent's start time (for the shared clock)."""

    async def main(path: str, seed: int, started: float) -> None:
        store = await open_store(path, clock=sim_clock(started))
        await Writer(store, seed).run()

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))


# ---------------------------------------------------------------------------------------------------- the parent


def differences(before: dict[str, Any], after: dict[str, Any]) -> set[tuple[str, str, str]]:
    """(games|users, id, field) of every value that differs between two snapshots."""
    found = set()
    for part in ("games", "users"):
        for key in before[part].keys() | after[part].keys():
            old, new = before[part].get(key, {}), after[part].get(key, {})
            found |= {(part, key, f) for f in old.keys() | new.keys() if old.get(f) != new.get(f)}
    return found


def check_whole(begun: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> None:
    """The one call that was under way when the child died left nothing half-done: `after` is `before`, or
    `before` with that call carried out whole."""
    changed = differences(before, after)
    if not changed:
        return
    op = begun["op"]
    if op in ("play", "seat", "choice", "cancel"):
        game = str(begun["game"])
        fields = {
            "play": {"status", "version", "turn", "timers", "banks", "seats"},
            "seat": {"seats", "turn"},
            "choice": {"choices"},
            "cancel": {"status", "version", "turn", "timers"},
        }[op]
        assert changed <= {("games", game, f) for f in fields}, (begun, changed)
        old, new = before["games"][game], after["games"][game]
        if op in ("play", "cancel"):
            # The decision (or the end) and everything it sets commit together: one version further, or nothing.
            assert new["version"] == old["version"] + 1, (begun, old, new)
        if op == "cancel":
            assert new["status"] == "cancelled" and new["timers"] == {}, new
        if op == "play" and new["seats"] != old["seats"]:
            # A decision changes a seat's expired turns only in its own commit: one more for a time-out that ends
            # the turn, none after a person's own decision.
            for name, (ai, expired) in new["seats"].items():
                was_ai, was = old["seats"][name]
                counted = was + 1 if begun["source"] == "timeout" else 0
                assert ai == was_ai and expired in (was, counted), (begun, old, new)
        if op == "play" and new["timers"] != old["timers"]:
            # A decision carries the turn's timers to the new version, or ends the turn and sets the next turn's.
            assert {t[1] for t in new["timers"].values()} <= {new["version"]}, new
        return
    user = str(begun["user"])
    if op in ("quiet", "digest"):
        assert changed == {("users", user, op)}, (begun, changed)
        return
    # Away or back: the period and the deadlines it moves commit together.
    assert changed <= {("users", user, "aways")} | {("games", g, "timers") for g in after["games"]}, changed
    old_aways, new_aways = before["users"][user]["aways"], after["users"][user]["aways"]
    assert old_aways != new_aways, f"deadlines moved without the away period that moves them: {changed}"
    if op == "away":
        assert new_aways[:-1] == old_aways, (old_aways, new_aways)
        began, ends = new_aways[-1]
        shift, floor = ends - began, 0.0
    else:
        old_end = old_aways[-1][1]
        floor = new_aways[-1][1] if len(new_aways) == len(old_aways) else old_aways[-1][0]
        assert new_aways[:-1] == old_aways[:-1] or new_aways == old_aways[:-1], (old_aways, new_aways)
        shift = floor - old_end
    for key, game in before["games"].items():
        moved = after["games"][key]["timers"]
        if game["status"] == "active" and game["turn"] == int(user):
            expected = {
                kind: [max(due + shift, floor) if kind in TURN_TIMERS else due, version]
                for kind, (due, version) in game["timers"].items()
            }
        else:
            expected = game["timers"]
        assert moved == expected, (op, key, game["timers"], moved, shift)


@pytest.mark.slow
async def test_killing_the_writer_at_random_never_loses_or_half_writes_a_timer(database, tmp_path):
    rng = random.Random(2025)
    started = time.time()
    seen: dict[str, int] = {}
    for round_ in range(8):
        # What the child prints goes to a file, which never fills up as a pipe would (and stall the writer).
        said = tmp_path / f"round{round_}.out"
        with said.open("w") as out:
            child = subprocess.Popen(
                [sys.executable, "-c", CHILD, str(database), str(round_), repr(started)],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        # The kill comes at a random moment of the writing, once a random number of calls were acknowledged: not
        # during the start-up, and as much work per round on a busy machine as on an idle one.
        wanted = rng.randint(15, 45)
        while said.read_text().count("\nACK ") < wanted and child.poll() is None:
            time.sleep(0.02)
        time.sleep(rng.uniform(0.0, 0.2))
        child.send_signal(signal.SIGKILL)
        _, err = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL, err
        # A line the kill cut short was never acknowledged.
        lines = said.read_text().split("\n")[:-1]
        acknowledged = json.loads(lines[0][5:])["state"]
        begun = None
        for line in lines[1:]:
            kind, _, text = line.partition(" ")
            if kind == "BEGIN":
                begun = json.loads(text)
            elif kind == "ACK":
                acked = json.loads(text)
                acknowledged, begun = acked["state"], None
                seen[acked["op"]] = seen.get(acked["op"], 0) + 1
        store = await open_store(database)
        try:
            stored = await snapshot(store)
            if begun is None:
                assert differences(acknowledged, stored) == set(), "an acknowledged timer is not as acknowledged"
            else:
                check_whole(begun, acknowledged, stored)
            assert await store.verify() == []
        finally:
            await store.close()
    # Every kind of timer was written, several times over.
    assert all(seen.get(op, 0) >= 2 for op in ("play", "seat", "choice", "away", "back", "quiet", "digest")), seen
    assert seen["play"] >= 40, seen
