"""Kokeshi's games as older versions stored them (players by name), read through the game contract by their seating,
on both backends: the match, views, events and results of a replay by the engine, and nothing written by reading."""

from __future__ import annotations

from typing import Any

import pytest

import games
from games.kokeshi.engine import CURRENT_RULES, RULES_VERSIONS, Game, new_game
from games.kokeshi.module import engine_event
from storage import BrokenGame, Store, StoreRefusal, open_store
from storage.logs import ENDS_TURN, unpack_log
from storage.matches import seat_ranks
from tests.dbkit import Clock, build_at, named_log_flags, named_log_game, on_backends, sql

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


def _stored(database: str, names: list[str], side: str, rules: int, moves: int | None, seed: int) -> int:
    """A game of these names as an older version stored it, dealt under `rules` on `SEED + len(names)` and played
    `moves` random decisions (None: to its end); its id."""
    return named_log_game(database, names, seed=SEED + len(names), side=side, rules=rules, moves=moves, policy=seed)


def _log(database: str, game_id: int) -> list[tuple[int, str, str, str, float, int]]:
    """The game's log rows as stored: its `actions` rows, or its packed log once finished."""
    packed, created_at = sql(database, "SELECT log, created_at FROM games WHERE id = ?", (game_id,))[0]
    if packed is not None:
        return unpack_log(bytes(packed), created_at)
    return sql(
        database,
        "SELECT seq, player, action, source, created_at, flags FROM actions WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )


def _replayed(database: str, game_id: int, names: list[str], cut: list[int]) -> tuple[Game, list, dict[int, Game]]:
    """The engine's replay of the stored game: the game now, each logged action with its events and flags, and
    the game right after each action in `cut` (0: as dealt)."""
    side, solo, rules, seed = sql(database, "SELECT side, solo, rules, seed_text FROM games WHERE id = ?", (game_id,))[
        0
    ]
    game = new_game(names, seed=int(seed), side=side, solo=bool(solo), rules=rules)
    states = {0: game.clone()} if 0 in cut else {}
    logged = []
    for seq, player, action, *_ in _log(database, game_id):
        events = list(game.apply(player, action))
        logged.append((seq, player, action, events, named_log_flags(events)))
        if seq in cut:
            states[seq] = game.clone()
    return game, logged, states


def _written(database: str, game_id: int) -> tuple[Any, ...]:
    """Everything a read could change: the game's row, its seats, log rows and results."""
    return (
        sql(database, "SELECT * FROM games WHERE id = ?", (game_id,)),
        sql(database, "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)),
        sql(database, "SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)),
        sql(database, "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)),
    )


async def _read_alike(store: Store, database: str, game_id: int) -> None:
    """The contract path reads the game as the engine replays its log, and writes nothing doing it."""
    before = _written(database, game_id)
    module = games.get("kokeshi")
    match, version, record = await store.load_match(game_id)
    events = await store.match_events(game_id)
    decisions = await store.match_decisions(game_id)
    cut = [0, len(events) // 2, len(events)]
    views = await store.match_views(game_id, cut)
    assert await store.verify() == []
    assert _written(database, game_id) == before  # read through the contract: not a byte changed

    names = [s.name for s in record.seats]
    game, logged, states = _replayed(database, game_id, names, cut)
    own = module.load(game.to_json())
    assert version == record.version == store.held_version(game_id)
    assert match.to_json() == game.to_json() and match.rules == game.rules
    for seat in (None, *range(len(names))):
        assert match.view(seat) == own.view(seat)
    assert match.standing() == own.standing()
    assert len(logged) == len(events) == record.moves > 0
    assert [(seq, names[seat], action, [engine_event(e, names) for e in evs]) for seq, seat, action, evs in events] == [
        (seq, player, action, evs) for seq, player, action, evs, _flags in logged
    ]
    assert [(d.seq, d.seat, d.action, d.events) for d in decisions] == events
    # A decision ends a turn through the contract exactly where a log by name flags it.
    assert [d.ends_turn for d in decisions] == [bool(flags & ENDS_TURN) for *_, flags in logged]
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
async def test_a_kokeshi_game_stored_by_name_reads_through_the_contract_as_the_engine_replays_it(database, shape):
    names, side, rules, moves = shape
    assert rules in games.get("kokeshi").rules_versions
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        game_id = _stored(database, names, side, rules, moves, seed=len(names) * 7 + rules)
        record = await store.get_game(game_id)
        assert record.status == ("finished" if moves is None else "active") and record.named_log
        await _read_alike(store, database, game_id)
        store = await _reopened(store, database)  # and read cold, from the log alone
        await _read_alike(store, database, game_id)
        if moves is not None:
            return
        # A finished game as stored before logs were packed: its actions rows, no packed log; then packed.
        rows = _log(database, game_id)
        game, logged, _states = _replayed(database, game_id, names, [])
        for (seq, player, action, source, at, _), (*_, flags) in zip(rows, logged, strict=True):
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
        assert _log(database, game_id) == rows
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
        game_id = _stored(database, ["Ana", "Bo"], "basic", CURRENT_RULES, 12, seed=3)
        before = _written(database, game_id)
        match, version, _record = await store.load_match(game_id)
        seat = match.waiting()[0]
        for attempt in (
            store.play_match(game_id, version, seat, match.legal_actions(seat)[0]),
            store.undo_match(game_id, seat),
        ):
            with pytest.raises(StoreRefusal) as refused:
                await attempt
            assert refused.value.code == "other_game"
        assert _written(database, game_id) == before  # nothing written
        assert (await store.load_match(game_id))[1] == version
        # A seat renamed behind the store's back: the log names someone who has no seat.
        sql(database, "UPDATE seats SET name = 'Zed' WHERE game_id = ? AND seat = 0", (game_id,))
        store = await _reopened(store, database)
        with pytest.raises(BrokenGame):
            await store.load_match(game_id)
        # Only read: the game is not marked broken by it (`to_seat_log` refuses to move it, for a person to look at).
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
        assert sql(empty, "SELECT log_seats FROM games WHERE id = ?", (kokeshi,)) == [(1,)]  # a new game: by seat
    finally:
        await store.close()
