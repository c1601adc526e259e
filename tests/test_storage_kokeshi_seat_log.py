"""Kokeshi's games stored by older versions with a log by name, moved to a log by seat number (`Store.to_seat_log`,
`python -m storage seat-log`), on both backends: the contract reads them exactly as before, plays and undoes them on
to their end leaving the results an older version left for the same moves, and nothing else in the database
changes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from games.kokeshi.engine import CURRENT_RULES, RandomPolicy, new_game
from storage import BrokenGame, Store, StoreRefusal, is_url, open_store
from storage.logs import ENDS_TURN, REVEALS, unpack_log
from tests.dbkit import Clock, named_log_flags, named_log_game, on_backends, sql
from tests.test_storage_kokeshi_seating import SEED, SHAPES, _log, _reopened, _replayed, _stored
from tests.test_storage_operations import cli

GUILD = 1


def _tables(database: str) -> list[str]:
    if is_url(database):
        rows = sql(database, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
    else:
        rows = sql(database, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return sorted(r[0] for r in rows)


def _columns(database: str, table: str) -> list[str]:
    if is_url(database):
        rows = sql(
            database,
            "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? "
            "ORDER BY ordinal_position",
            (table,),
        )
    else:
        rows = sql(database, f"SELECT name FROM pragma_table_info('{table}') ORDER BY cid")
    return [r[0] for r in rows]


def _everything(database: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, by column name, in a stable order: the whole database."""
    out = {}
    for table in _tables(database):
        columns = _columns(database, table)
        rows = [
            dict(zip(columns, (bytes(v) if isinstance(v, memoryview) else v for v in r), strict=True))
            for r in sql(database, f"SELECT * FROM {table}")
        ]
        out[table] = sorted(rows, key=repr)
    return out


def _assert_only_the_log_moved(before: dict, after: dict, game_id: int, names: list[str]) -> None:
    """`after` is `before` with the game's log naming seats by number and `log_seats` 1: nothing else changed."""
    assert after.keys() == before.keys()
    for table in before:
        if table not in ("games", "actions"):
            assert after[table] == before[table], table
    old = next(r for r in before["games"] if r["id"] == game_id)
    new = next(r for r in after["games"] if r["id"] == game_id)
    assert [r for r in after["games"] if r["id"] != game_id] == [r for r in before["games"] if r["id"] != game_id]
    assert (old["log_seats"], new["log_seats"]) == (0, 1)
    assert {k: v for k, v in new.items() if k not in ("log", "log_seats")} == {
        k: v for k, v in old.items() if k not in ("log", "log_seats")
    }
    seat = {name: str(s) for s, name in enumerate(names)}
    if old["log"] is None:
        assert new["log"] is None
    else:  # packed it was, packed it stays: the same rows, each naming its seat's number
        assert unpack_log(new["log"], new["created_at"]) == [
            (seq, seat[p], a, src, at, fl) for seq, p, a, src, at, fl in unpack_log(old["log"], old["created_at"])
        ]
    moved = sorted(
        ({**r, "player": seat[r["player"]]} if r["game_id"] == game_id else r for r in before["actions"]), key=repr
    )
    assert after["actions"] == moved


async def _seen(store: Store, game_id: int) -> dict[str, Any]:
    """Everything the contract path reads of a game: its match, version, record (how its log names seats aside),
    every seat's view, standing, events, decisions, views along the log, results, and `verify`."""
    match, version, record = await store.load_match(game_id)
    events = await store.match_events(game_id)
    cut = sorted({0, len(events) // 3, len(events) // 2, len(events)})
    return {
        "match": match.to_json(),
        "version": version,
        "held": store.held_version(game_id),
        "record": dataclasses.replace(record, log_seats=None),
        "seat views": [match.view(s) for s in (None, *range(match.seats))],
        "standing": match.standing(),
        "events": events,
        "decisions": await store.match_decisions(game_id),
        "views": await store.match_views(game_id, cut),
        "results": await store.results(game_id),
        "verify": await store.verify(),
    }


def _unpacked(database: str, game_id: int, names: list[str]) -> None:
    """A finished game as stored before logs were packed: its actions rows, no packed log, its last snapshot."""
    game, logged, _states = _replayed(database, game_id, names, [])
    for (seq, player, action, source, at, _), (*_, flags) in zip(_log(database, game_id), logged, strict=True):
        sql(
            database,
            "INSERT INTO actions (game_id, seq, player, action, source, created_at, flags) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, player, action, source, at, flags),
        )
    sql(database, "UPDATE games SET log = NULL, snapshot = ? WHERE id = ?", (game.to_json(), game_id))


async def _move_and_read(store: Store, database: str, game_id: int, names: list[str]) -> Store:
    """Move the game; the contract reads it exactly as before, warm and cold. Returns the store (reopened)."""
    seen = await _seen(store, game_id)
    before = _everything(database)
    assert await store.to_seat_log(game_id) is True
    after = _everything(database)
    _assert_only_the_log_moved(before, after, game_id, names)
    assert await store.to_seat_log(game_id) is False  # already on seats: left as it is
    assert _everything(database) == after
    assert await _seen(store, game_id) == seen
    store = await _reopened(store, database)
    assert await _seen(store, game_id) == seen  # cold, from the moved log alone
    assert _everything(database) == after  # and reading it wrote nothing
    record = await store.get_game(game_id)
    assert record.log_seats and not record.named_log and game_id not in await store.named_log_games()
    return store


async def _played_on(store: Store, database: str, moved: int, twin: int, names: list[str]) -> int:
    """Play the moved game to its end through the contract with the decisions its twin's log holds (the same deal
    and first decisions, played to its end by an older version), the engine following; after each decision that can
    be taken back, take it back and make it again. The results are the twin's; returns how many were taken back."""
    rows = _log(database, twin)
    match, version, record = await store.load_match(moved)
    replayed = _replayed(database, twin, names, [record.moves])[2][record.moves]
    undone = 0
    for _seq, player, action, *_ in rows[record.moves :]:
        (seat,) = match.waiting()
        assert names[seat] == player
        played = await store.play_match(moved, version, seat, action)
        match, version = played.match, played.record.version
        replayed.apply(player, action)
        if not match.is_over:
            try:
                match, version = await store.undo_match(moved, seat)
            except StoreRefusal as refused:
                assert refused.code in ("undo_nothing", "undo_drew")
            else:
                undone += 1
                played = await store.play_match(moved, version, seat, action)  # the same decision again
                match, version = played.match, played.record.version
        else:
            assert played.results
        assert replayed.to_json() == match.to_json()
    assert match.is_over
    assert [(r.seat, r.name, r.rank, r.total, r.details) for r in await store.results(moved)] == [
        (r.seat, r.name, r.rank, r.total, r.details) for r in await store.results(twin)
    ]
    assert [(p, a) for _seq, p, a, *_ in _log(database, moved)] == [(str(names.index(p)), a) for _s, p, a, *_ in rows]
    assert await store.verify() == []
    return undone


def _shape_id(shape: tuple) -> str:
    names, side, rules, moves = shape
    return f"{len(names)}p-{side}-rules{rules}-{'end' if moves is None else moves}"


# Every shape on SQLite in the whole suite, two of them (two players in progress, solo) in `make check`; on
# PostgreSQL a game in progress and a finished one.
MOVED = on_backends(SHAPES, _shape_id, postgresql=(0, 4), quick=(0, 3))


@pytest.mark.parametrize(("database", "shape"), MOVED, indirect=["database"])
@pytest.mark.slow
async def test_a_kokeshi_game_moved_to_the_seat_log_reads_the_same_and_plays_on_through_the_contract(database, shape):
    names, side, rules, moves = shape
    seed = len(names) * 7 + rules
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        moved = _stored(database, names, side, rules, moves, seed)
        twin = _stored(database, names, side, rules, None, seed)  # the same deal and decisions, to its end
        if moves is None:
            # Finished: its packed log moved, and its twin's as stored before logs were packed, then packed.
            _unpacked(database, twin, names)
            store = await _reopened(store, database)
            store = await _move_and_read(store, database, moved, names)
            store = await _move_and_read(store, database, twin, names)
            seen = await _seen(store, twin)
            assert await store.compact() == 1
            assert sql(database, "SELECT COUNT(*) FROM actions WHERE game_id = ?", (twin,)) == [(0,)]
            assert [
                r[1] for r in unpack_log(*sql(database, "SELECT log, created_at FROM games WHERE id = ?", (twin,))[0])
            ] == [str(d.seat) for d in seen["decisions"]]
            store = await _reopened(store, database)
            assert await _seen(store, twin) == seen
            return
        store = await _move_and_read(store, database, moved, names)
        assert await _played_on(store, database, moved, twin, names) > 0
    finally:
        await store.close()


async def test_a_decision_logged_by_name_is_taken_back_through_the_contract_after_the_move(database):
    names = ["Ana", "Bo"]
    # Played until the last decision is one its player may take back (within the turn, nothing drawn).
    game, policy, flags = new_game(names, seed=SEED + len(names)), RandomPolicy(3), []
    while len(flags) <= 8 or flags[-1] & (ENDS_TURN | REVEALS):
        flags.append(named_log_flags(game.apply(game.prompt.player, policy.choose(game))))
    done = len(flags)
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        moved = _stored(database, names, "basic", CURRENT_RULES, done, seed=3)
        rows = _log(database, moved)
        player = rows[-1][1]
        store = await _move_and_read(store, database, moved, names)
        match, version = await store.undo_match(moved, names.index(player))
        expected = new_game(names, seed=SEED + len(names))
        for _seq, who, action, *_ in rows[:-1]:
            expected.apply(who, action)
        assert match.to_json() == expected.to_json() and expected.version == done - 1
        assert sql(database, "SELECT COUNT(*), MAX(seq) FROM actions WHERE game_id = ?", (moved,)) == [(done - 1,) * 2]
        assert await store.verify() == []
    finally:
        await store.close()


async def test_a_broken_game_is_refused_and_left_as_it_was(database):
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        renamed = _stored(database, ["Ana", "Bo"], "basic", CURRENT_RULES, 12, seed=3)
        marked = _stored(database, ["Cy", "Di"], "advanced", CURRENT_RULES, 6, seed=4)
        # A seat renamed behind the store's back: the log names someone who has no seat.
        sql(database, "UPDATE seats SET name = 'Zed' WHERE game_id = ? AND seat = 0", (renamed,))
        sql(database, "UPDATE games SET status = 'broken', broken_reason = 'damaged' WHERE id = ?", (marked,))
        store = await _reopened(store, database)
        before = _everything(database)
        for game_id, reason in ((renamed, "'Ana', who has no seat"), (marked, "damaged")):
            with pytest.raises(BrokenGame) as refused:
                await store.to_seat_log(game_id)
            assert refused.value.game_id == game_id and reason in refused.value.reason
        assert _everything(database) == before
    finally:
        await store.close()


async def test_a_game_already_on_seats_is_left_unchanged(database):
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        game_id = await store.create_game(guild_id=GUILD, channel_id=10, host_id=100, host_name="Ana", players=2)
        await store.add_seat(game_id, 101, "Bo")
        await store.start_match(game_id, SEED)
        before = _everything(database)
        assert await store.named_log_games() == []
        assert await store.to_seat_log(game_id) is False
        assert _everything(database) == before
    finally:
        await store.close()


async def test_a_lobby_moves_and_the_platform_deals_it_on_its_side(database):
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        game_id = named_log_game(database, ["Ana", "Bo"], seed=SEED, side="advanced", dealt=False)
        assert await store.named_log_games() == [game_id]
        with pytest.raises(StoreRefusal) as refused:
            await store.start_match(game_id, SEED)
        assert refused.value.code == "other_game"
        assert await store.to_seat_log(game_id) is True
        assert sql(database, "SELECT log_seats, settings FROM games WHERE id = ?", (game_id,)) == [(1, "{}")]
        match, _version = await store.start_match(game_id, SEED)
        assert match.to_json() == new_game(["seat1", "seat2"], seed=SEED, side="advanced").to_json()
        assert await store.named_log_games() == []
    finally:
        await store.close()


async def test_another_process_holding_the_game_by_name_reads_it_again_by_seat_once_moved(database):
    store = await open_store(database, clock=Clock(tick=1.0))
    other = None
    try:
        game_id = _stored(database, ["Ana", "Bo", "Cy"], "basic", CURRENT_RULES, 9, seed=5)
        other = await open_store(database, clock=Clock(tick=1.0))
        match, held, _record = await other.load_match(game_id)  # held by name over there
        (seat,) = match.waiting()
        with pytest.raises(StoreRefusal) as refused:
            await other.play_match(game_id, held, seat, match.legal_actions(seat)[0])
        assert refused.value.code == "other_game"
        assert await store.to_seat_log(game_id) is True
        match, now, _record = await other.load_match(game_id)  # read again: now the contract's to write
        assert now == held
        played = await other.play_match(game_id, now, seat, match.legal_actions(seat)[0])
        assert played.record.version == held + 1
        assert sql(database, "SELECT player FROM actions WHERE game_id = ? AND seq = 10", (game_id,)) == [(str(seat),)]
        assert await store.verify() == []
    finally:
        if other is not None:
            await other.close()
        await store.close()


@pytest.mark.slow
async def test_the_command_moves_every_game_whose_log_names_its_players_or_one(database):
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        active = _stored(database, ["Ana", "Bo"], "basic", CURRENT_RULES, 10, seed=1)
        finished = _stored(database, ["Solo"], "advanced", CURRENT_RULES, None, seed=2)
        broken = _stored(database, ["Cy", "Di"], "basic", CURRENT_RULES, 4, seed=3)
        sql(database, "UPDATE seats SET name = 'Zed' WHERE game_id = ? AND seat = 1", (broken,))
        contract = await store.create_game(
            guild_id=GUILD, channel_id=10, host_id=100, host_name="Ana", players=1, solo=True
        )
    finally:
        await store.close()
    code, out, err = await cli("seat-log", database, "--game", str(active))
    assert (code, out, err) == (0, "moved the logs of 1 game to seat numbers\n", "")
    code, out, err = await cli("seat-log", database, "--game", str(contract))
    assert code == 0 and out.splitlines() == [
        f"game {contract} already names its seats by number: nothing to move",
        "moved the logs of 0 games to seat numbers",
    ]
    code, out, err = await cli("seat-log", database)
    assert code == 1 and out.splitlines() == [
        f"game {broken}: not moved: the log no longer replays: the log names 'Di', who has no seat",
        "moved the logs of 1 game to seat numbers, 1 refused",
    ]
    assert sql(database, "SELECT id FROM games WHERE log_seats = 0 ORDER BY id") == [(broken,)]
    code, out, err = await cli("seat-log", database, "--game", "999")
    assert (code, err) == (2, "There is no game 999.\n")
    store = await open_store(database)
    try:
        assert [game for game, _problem in await store.verify()] == [broken]
        for game_id, names in ((active, ["Ana", "Bo"]), (finished, ["Solo"])):
            assert (await store.load_match(game_id))[0].view(None)["seating"] == names  # dealt with their names
    finally:
        await store.close()
