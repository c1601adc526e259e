"""Crash safety: a writer killed with SIGKILL at random moments never loses an acknowledged move."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storage import open_store

ROOT = Path(__file__).resolve().parent.parent

# The child plays random decisions on a few games, as the platform's table saves them (`play_match`), and prints
# "ACK <game> <seq>" once each has returned.
CHILD = """
import asyncio, random, sys
from storage import open_store

async def main(path, seed):
    store = await open_store(path)
    print("OPEN", flush=True)
    rng = random.Random(seed)
    games = [g.id for g in await store.active_games()]
    while True:
        while len(games) < 3:  # finished games are replaced, so a fast writer never runs out
            gid = await store.create_game(
                guild_id=1, channel_id=1, host_id=1, host_name="Ana", players=2
            )
            await store.add_seat(gid, 2, "Bo")
            await store.start_match(gid, rng.randrange(10**6))
            games.append(gid)
        gid = rng.choice(games)
        match, version, _record = await store.load_match(gid)
        if match.is_over:
            games.remove(gid)
            continue
        seat = match.waiting()[0]
        played = await store.play_match(gid, version, seat, rng.choice(match.legal_actions(seat)))
        print(f"ACK {gid} {len(played.decisions)}", flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


@pytest.mark.slow
async def test_killing_the_writer_at_random_never_loses_an_acknowledged_move(database):
    path = database
    rng = random.Random(2024)
    acked: dict[int, int] = {}
    kills = 0
    for round_ in range(14):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path), str(round_)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        # The kill comes at a random moment of the writing, not of the start-up (slow on a busy machine).
        assert child.stdout.readline().strip() == "OPEN", child.stderr.read()
        time.sleep(rng.uniform(0.4, 1.2))
        child.send_signal(signal.SIGKILL)
        out, err = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL, err
        kills += 1
        for line in out.splitlines():
            if line.startswith("ACK "):
                _, gid, seq = line.split()
                acked[int(gid)] = max(acked.get(int(gid), 0), int(seq))
        store = await open_store(path)
        try:
            for gid, seq in acked.items():
                logged = await store.match_decisions(gid)
                assert len(logged) >= seq, f"game {gid}: move {seq} was acknowledged but is gone"
                # No partial decision: every logged one has its events, and the move count matches the log.
                assert all(entry.events for entry in logged), [(e.seq, e.action) for e in logged if not e.events]
                assert (await store.get_game(gid)).moves == len(logged)
            assert await store.verify() == []
        finally:
            await store.close()
    assert kills == 14 and sum(acked.values()) > 50
