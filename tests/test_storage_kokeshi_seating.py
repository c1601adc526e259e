"""Kokeshi's games stored through its own path (players by name), read through the game contract by their seating,
on both backends: the same match, views, events and results, and nothing written by reading."""

from __future__ import annotations

from typing import Any

import pytest

import games
from games.kokeshi.engine import CURRENT_RULES, RULES_VERSIONS, RandomPolicy, new_game
from games.kokeshi.module import engine_event
from storage import BrokenGame, Store, StoreRefusal, open_store
from storage.logs import unpack_log
from storage.matches import seat_ranks
from storage.store import flags_of
from tests.dbkit import Clock, build_at, on_backends, sql

GUILD = 1
SEED = 0x5EA7_1_5EA7_2_5EA7_3

# (the players' names, side, rules version, moves played or None for the whole game). "1" is a name that reads like
# a seat number: it is the name of seat 0, never seat 1.
SHAPES = [
    (["1", "Ana"], "basic", CURRENT_RULES, 40),
    (["Ana", "Bo", "Cy"], "advanced", 1, 55),
    (["Ana", "Bo", "Cy", "0"], "basic", 2, 30),
    (["Solo"], "advanced", 3, 25),
    (["Solo"], "basic", CURRENT_RULES, None),
    (["Ana", "2"], "advanced", 2, None),
]


async def _reopened(store: Store, database: str) -> Store:
    """The same database in a new store: nothing held in memory."""
    await store.close()
    return await open_store(database, clock=Clock(tick=1.0))


async def _dealt(store: Store, database: str, names: list[str], side: str, rules: int) -> tuple[Store, int]:
    """A game of Kokeshi's own path for these names, dealt under `rules` (as a challenge dealt under older rules
    is); returns the store (reopened when the rules were changed behind its back) and the game's id."""
    solo = len(names) == 1
    game_id = await store.create_game(
        guild_id=GUILD, channel_id=10, host_id=100, host_name=names[0], players=len(names), side=side, solo=solo
    )
    for i, name in enumerate(names[1:], start=1):
        await store.add_seat(game_id, 100 + i, name)
    game, _version = await store.start_game(game_id, SEED + len(names))
    if game.rules != rules:
        again = new_game(names, seed=SEED + len(names), side=side, solo=solo, rules=rules)
        sql(database, "UPDATE games SET rules = ?, snapshot = ? WHERE id = ?", (rules, again.to_json(), game_id))
        store = await _reopened(store, database)
    return store, game_id


async def _played(store: Store, game_id: int, moves: int | None, seed: int) -> None:
    """Play `moves` actions (None: to the end) through Kokeshi's own path, as `/kokeshi`'s buttons do."""
    policy = RandomPolicy(seed)
    game, version = await store.load_game(game_id)
    done = 0
    while game.prompt is not None and (moves is None or done < moves):
        applied = await store.apply(game_id, version, game.prompt.player, policy.choose(game), details=True)
        game, version = applied.game, applied.version
        done += 1


def _stored(database: str, game_id: int) -> tuple[Any, ...]:
    """Everything a read could change: the game's row, its seats, log rows and results."""
    return (
        sql(database, "SELECT * FROM games WHERE id = ?", (game_id,)),
        sql(database, "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)),
        sql(database, "SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)),
        sql(database, "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)),
    )


async def _read_alike(store: Store, database: str, game_id: int) -> None:
    """The contract path reads the game as its own path does, and writes nothing doing it."""
    before = _stored(database, game_id)
    module = games.get("kokeshi")
    match, version, record = await store.load_match(game_id)
    events = await store.match_events(game_id)
    decisions = await store.match_decisions(game_id)
    cut = [0, len(events) // 2, len(events)]
    views = await store.match_views(game_id, cut)
    assert await store.verify() == []
    assert _stored(database, game_id) == before  # read through the contract: not a byte changed

    names = [s.name for s in record.seats]
    game, own_version = await store.load_game(game_id)
    own = module.load(game.to_json())
    assert version == own_version == record.version == store.held_version(game_id)
    assert match.to_json() == game.to_json() and match.rules == game.rules
    for seat in (None, *range(len(names))):
        assert match.view(seat) == own.view(seat)
    assert match.standing() == own.standing()
    logged = await store.log(game_id)
    assert len(logged) == len(events) == record.moves > 0
    assert [(seq, names[seat], action, [engine_event(e, names) for e in evs]) for seq, seat, action, evs in events] == [
        (e.seq, e.player, e.action, list(e.events)) for e in logged
    ]
    assert [(d.seq, d.seat, d.action, d.events) for d in decisions] == events
    # A decision ends a turn through the contract exactly where the own path's log flags it.
    assert [d.ends_turn for d in decisions] == [bool(flags_of(e.events) & 1) for e in logged]
    states = await store.states_after(game_id, cut)
    assert views == {seq: module.load(states[seq].to_json()).view(None) for seq in cut}
    if record.status == "finished":
        results = await store.results(game_id)
        ranks = {r.seat: r.rank for r in results}
        assert [ranks[s] for s in range(len(names))] == seat_ranks(match.standing(), [s.resigned for s in record.seats])


def _shape_id(shape: tuple) -> str:
    names, side, rules, moves = shape
    return f"{len(names)}p-{side}-rules{rules}-{'end' if moves is None else moves}"


@pytest.mark.parametrize(
    ("database", "shape"), on_backends(SHAPES, _shape_id, postgresql=(0, 4)), indirect=["database"]
)
@pytest.mark.slow
async def test_a_kokeshi_game_of_its_own_path_reads_the_same_through_the_contract(database, shape):
    names, side, rules, moves = shape
    assert rules in games.get("kokeshi").rules_versions
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        store, game_id = await _dealt(store, database, names, side, rules)
        await _played(store, game_id, moves, seed=len(names) * 7 + rules)
        record = await store.get_game(game_id)
        assert record.status == ("finished" if moves is None else "active")
        await _read_alike(store, database, game_id)
        store = await _reopened(store, database)  # and read cold, from the log alone
        await _read_alike(store, database, game_id)
        if moves is not None:
            # Kokeshi's own path plays on after the contract read it, and the contract follows.
            await _played(store, game_id, 5, seed=99)
            await _read_alike(store, database, game_id)
            return
        # A finished game as stored before logs were packed: its actions rows, no packed log; then packed.
        row = sql(database, "SELECT log, created_at FROM games WHERE id = ?", (game_id,))[0]
        game = new_game(names, seed=SEED + len(names), side=side, solo=len(names) == 1, rules=rules)
        for seq, player, action, source, at, _ in unpack_log(bytes(row[0]), row[1]):
            flags = flags_of(game.apply(player, action))
            sql(
                database,
                "INSERT INTO actions (game_id, seq, player, action, source, created_at, flags) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, player, action, source, at, flags),
            )
        sql(database, "UPDATE games SET log = NULL, snapshot = ? WHERE id = ?", (game.to_json(), game_id))
        store = await _reopened(store, database)
        await _read_alike(store, database, game_id)
        assert await store.compact() == 1
        assert sql(database, "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)) == [(0,)]
        store = await _reopened(store, database)
        await _read_alike(store, database, game_id)
    finally:
        await store.close()


async def test_every_rules_version_is_among_the_shapes():
    assert {rules for _names, _side, rules, _moves in SHAPES} == set(RULES_VERSIONS)
    assert {len(names) for names, *_ in SHAPES} == {1, 2, 3, 4}
    assert {side for _names, side, *_ in SHAPES} == {"basic", "advanced"}


async def test_the_contract_only_reads_a_kokeshi_game_and_reports_a_seating_its_log_does_not_name(database):
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        store, game_id = await _dealt(store, database, ["Ana", "Bo"], "basic", CURRENT_RULES)
        await _played(store, game_id, 12, seed=3)
        match, version, _record = await store.load_match(game_id)
        seat = match.waiting()[0]
        for attempt in (
            store.play_match(game_id, version, seat, match.legal_actions(seat)[0]),
            store.undo_match(game_id, seat),
        ):
            with pytest.raises(StoreRefusal) as refused:
                await attempt
            assert refused.value.code == "other_game"
        assert (await store.load_game(game_id))[1] == version  # nothing written
        # A seat renamed behind the store's back: the log names someone who has no seat.
        sql(database, "UPDATE seats SET name = 'Zed' WHERE game_id = ? AND seat = 0", (game_id,))
        store = await _reopened(store, database)
        with pytest.raises(BrokenGame):
            await store.load_match(game_id)
        # Only read through the contract: the game is not marked broken by it (its own path decides).
        assert sql(database, "SELECT status FROM games WHERE id = ?", (game_id,)) == [("active",)]
        assert [game for game, _problem in await store.verify()] == [game_id]
    finally:
        await store.close()


async def test_the_migration_marks_how_each_stored_log_names_its_players(empty):
    game = (
        "INSERT INTO games (id, status, players, side, solo, created_at, updated_at, game) "
        "VALUES (?, 'finished', 2, 'basic', 0, 0, 0, ?)"
    )
    build_at(empty, 14, [(game, (101, "kokeshi")), (game, (102, "bids")), (game, (103, "kohaku"))])
    store = await open_store(empty)
    try:
        assert sql(empty, "SELECT id, log_seats FROM games ORDER BY id") == [(101, 0), (102, 1), (103, 1)]
        kokeshi = await store.create_game(guild_id=GUILD, channel_id=10, host_id=100, host_name="Ana", players=2)
        assert sql(empty, "SELECT log_seats FROM games WHERE id = ?", (kokeshi,)) == [(0,)]
    finally:
        await store.close()
