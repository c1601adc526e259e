"""Favourites on both backends: counted at the end of any game whose module keeps one, from its players' own
decisions, kept per game and scope, and carried over from the old per-kokeshi columns by migration 0013."""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from collections import Counter
from collections.abc import Sequence
from typing import Any

import asyncpg
import pytest

import games
from games.kokeshi.engine import KOKESHI
from storage import migrations, open_store, scope_of
from tests.dbkit import Clock, build_at, sql

BEFORE = 12  # the schema before favourites knew no game
GUILD = 7
NOW = dt.datetime(2026, 11, 28, 12, tzinfo=dt.UTC)


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock(tick=1.0))
    yield s
    await s.close()


def _rows(database: str, scope: str) -> dict[tuple[int, str], int]:
    found = sql(database, "SELECT user_id, item, times FROM favourites WHERE scope = ?", (scope,))
    return {(user_id, item): times for user_id, item, times in found}


# ---------------------------------------------------------------- the contract's side


def test_a_game_keeps_no_favourite_unless_it_says_so(bids):
    assert bids.favourite_items == () and bids.favourite_of("bid:3") is None
    assert bids.favourite({}) is None


def test_kokeshi_counts_the_kokeshi_a_player_chose_to_advance():
    kokeshi = games.get("kokeshi")
    assert kokeshi.favourite_items == KOKESHI
    assert [kokeshi.favourite_of(f"advance:{k}") for k in KOKESHI] == list(KOKESHI)
    # Choosing a kokeshi for a track step, or anything else, is not advancing it.
    assert {kokeshi.favourite_of(a) for a in ("kokeshi:samurai", "advance:nobody", "advance", "pass")} == {None}


def test_kohaku_counts_the_goal_card_a_player_kept():
    from games.kohaku.data import GOALS

    kohaku = games.get("kohaku")
    assert kohaku.favourite_items == GOALS
    assert kohaku.favourite_of(f"g:{GOALS[0]}") == GOALS[0]
    assert {kohaku.favourite_of(a) for a in ("t:1-2", "p:0:0", "z:1", "g:no_such_card")} == {None}


def test_the_favourite_is_the_most_counted_and_a_tie_goes_to_the_earlier_item():
    kokeshi = games.get("kokeshi")
    assert kokeshi.favourite({"samurai": 3, "princess": 1}) == "samurai"
    assert kokeshi.favourite({"sumotori": 2, "batchan": 2, "samurai": 2}) == "batchan"
    # An item no longer among the game's comes after those that are; nothing counted is no favourite.
    assert kokeshi.favourite({"gone": 2, "sumotori": 2}) == "sumotori"
    assert kokeshi.favourite({"princess": 0}) is None


# ---------------------------------------------------------------- counted at a game's end


@pytest.mark.slow
async def test_a_kokeshi_game_counts_what_each_person_advanced_in_its_world_and_server_scopes(store, database):
    game_id = await store.create_game(guild_id=GUILD, channel_id=10, host_id=1, host_name="Ana", players=2)
    await store.add_seat(game_id, 2, "Bo")
    await store.start_match(game_id, 11)
    rng = random.Random(11)
    users = {s.seat: s.user_id for s in (await store.get_game(game_id)).seats}
    chosen: Counter[tuple[int, str]] = Counter()
    while True:
        match, version, _record = await store.load_match(game_id)
        if match.is_over:
            break
        [seat] = match.waiting()
        action = rng.choice(match.legal_actions(seat))
        # Some decisions are the AI's after a timeout: they are not the person's choice.
        source = "timeout" if rng.random() < 0.3 else "player"
        await store.play_match(game_id, version, seat, action, source=source)
        if source == "player" and action.startswith("advance:"):
            chosen[users[seat], action.split(":", 1)[1]] += 1
    assert chosen and len({uid for uid, _ in chosen}) == 2
    for scope in (scope_of(None), scope_of(GUILD)):
        assert _rows(database, scope) == dict(chosen)
    for uid in (1, 2):
        mine = {k: chosen[uid, k] for k in KOKESHI}
        expected = max(KOKESHI, key=lambda k: (mine[k], -KOKESHI.index(k)))  # as the old columns were read
        assert (await store.stats(uid)).favourite == expected
        assert (await store.stats(uid, GUILD)).favourite == expected
        assert (await store.stats(uid, GUILD + 1)).favourite is None
    # A second game, solo, adds to the counts.
    again = await store.create_game(guild_id=GUILD, channel_id=10, host_id=1, host_name="Ana", players=1, solo=True)
    await store.start_match(again, 12)
    while True:
        match, version, _record = await store.load_match(again)
        if match.is_over:
            break
        assert match.waiting() == (0,)  # the automa plays within the match
        action = rng.choice(match.legal_actions(0))
        await store.play_match(again, version, 0, action)
        if action.startswith("advance:"):
            chosen[1, action.split(":", 1)[1]] += 1
    assert _rows(database, scope_of(None)) == dict(chosen)


@pytest.fixture
def favourite_bids(bids, monkeypatch):
    """Bids keeping a favourite: the card a player bid, cards of higher value first in a tie."""
    monkeypatch.setattr(bids, "favourite_items", ("4", "3", "2", "1"), raising=False)
    monkeypatch.setattr(bids, "favourite_of", lambda action: action.split(":")[1], raising=False)
    return bids


async def test_a_contract_game_counts_the_favourites_of_the_people_who_decided(store, database, favourite_bids):
    game_id = await store.create_game(
        guild_id=GUILD, channel_id=10, host_id=1, host_name="P1", players=3, game="bids", solo=False
    )
    await store.add_seat(game_id, 2, "P2")
    await store.add_seat(game_id, 3, "P3")
    match, version = await store.start_match(game_id, 5)
    chosen: Counter[tuple[int, str]] = Counter()
    rng = random.Random(5)
    while not match.is_over:
        seat = match.waiting()[0]
        action = rng.choice(match.legal_actions(seat))
        # The third seat's bids are the computer's (a timeout): they count for nobody.
        source = "timeout" if seat == 2 else "button"
        played = await store.play_match(game_id, version, seat, action, source=source)
        match, version = played.match, played.record.version
        if source == "button":
            chosen[seat + 1, action.split(":")[1]] += 1
    assert sum(chosen.values()) == 6  # three prizes, two people
    for scope in (scope_of(None, "bids"), scope_of(GUILD, "bids")):
        assert _rows(database, scope) == dict(chosen)
    assert _rows(database, scope_of(None)) == {}  # Kokeshi's are its own
    for uid in (1, 2):
        expected = favourite_bids.favourite({item: n for (u, item), n in chosen.items() if u == uid})
        assert expected is not None
        assert (await store.stats(uid, game="bids")).favourite == expected
        assert (await store.game_stats(uid, ("total",), NOW, game="bids")).favourite == expected
    assert (await store.game_stats(3, ("total",), NOW, game="bids")).favourite is None


async def test_a_contract_game_that_keeps_no_favourite_counts_nothing(store, database, bids):
    game_id = await store.create_game(guild_id=GUILD, channel_id=10, host_id=1, host_name="P1", players=2, game="bids")
    await store.add_seat(game_id, 2, "P2")
    match, version = await store.start_match(game_id, 6)
    while not match.is_over:
        seat = match.waiting()[0]
        played = await store.play_match(game_id, version, seat, match.legal_actions(seat)[0])
        match, version = played.match, played.record.version
    assert (await store.get_game(game_id)).status == "finished"
    assert sql(database, "SELECT COUNT(*) FROM favourites") == [(0,)]
    assert (await store.game_stats(1, ("total",), NOW, game="bids")).favourite is None


# ---------------------------------------------------------------- migration 0013


def _build(database: str, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    build_at(database, BEFORE, statements)


# (scope, user_id, princess, batchan, fisherman, samurai, sumotori) as schema 12 kept them.
OLD_CHOICES = [
    ("kokeshi:global", 1, 5, 0, 0, 2, 0),  # a clear favourite
    ("kokeshi:global", 2, 0, 3, 1, 0, 3),  # a tie: the earlier kokeshi
    ("kokeshi:global", 3, 0, 0, 0, 0, 0),  # nothing chosen: no favourite
    ("kokeshi:global", 4, 1, 1, 1, 1, 1),  # all tied
    (f"kokeshi:guild:{GUILD}", 2, 0, 0, 4, 0, 9),
]


def _old_favourite(counts: Sequence[int]) -> str | None:
    """The favourite as schema 12's store read it from the columns."""
    if not any(counts):
        return None
    return max(KOKESHI, key=lambda k: (counts[KOKESHI.index(k)], -KOKESHI.index(k)))


async def test_migration_0013_keeps_every_players_favourite(empty):
    columns = ", ".join(KOKESHI)
    _build(
        empty,
        [
            (f"INSERT INTO kokeshi_choices (scope, user_id, {columns}) VALUES (?, ?, ?, ?, ?, ?, ?)", r)
            for r in OLD_CHOICES
        ],
    )
    store = await open_store(empty)
    try:
        assert await store.schema_version() == len(migrations())
        # One row per kokeshi chosen at least once; the old table is gone.
        expected = {
            (scope, uid, k): n for scope, uid, *counts in OLD_CHOICES for k, n in zip(KOKESHI, counts, strict=True) if n
        }
        assert {(s, u, k): n for s, u, k, n in sql(empty, "SELECT scope, user_id, item, times FROM favourites")} == (
            expected
        )
        with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError)):
            sql(empty, "SELECT * FROM kokeshi_choices")
        for scope, uid, *counts in OLD_CHOICES:
            guild = None if scope == "kokeshi:global" else GUILD
            assert (await store.stats(uid, guild)).favourite == _old_favourite(counts), (scope, uid)
        assert [(await store.stats(uid)).favourite for uid in (1, 2, 3, 4)] == ["princess", "batchan", None, "princess"]
        assert (await store.stats(2, GUILD)).favourite == "sumotori"
    finally:
        await store.close()
