"""The store on both backends: round trips, races, undo, broken games, start-up errors, maintenance commands."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys

import pytest

import games
from games.kokeshi.engine import GreedyPolicy, new_game
from storage import (
    MIGRATIONS_PG,
    BrokenGame,
    GameNotFound,
    GameStateError,
    MatchPlayed,
    StaleVersion,
    Store,
    StoreError,
    StoreRefusal,
    clean_name,
    migrations,
    open_store,
)
from storage.postgres import pg_migration, pg_migrations
from storage.ratings import week_streak
from tests.dbkit import Clock, decide, fresh_pg_database, sql
from tests.pgserver import free_port


@pytest.fixture
async def store(database):
    s = await open_store(database, clock=Clock())
    yield s
    await s.close()


async def started(store: Store, players: int = 2, seed: int = 7, solo: bool = False, side: str = "basic") -> int:
    game_id = await store.create_game(
        guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=players, side=side, solo=solo
    )
    for i in range(1, 1 if solo else players):
        await store.add_seat(game_id, 100 + i, f"P{i}")
    await store.start_match(game_id, seed)
    return game_id


async def play_moves(store: Store, game_id: int, count: int, seed: int = 1) -> int:
    """Up to `count` random decisions (fewer once the game is over); the game's version after them."""
    rng = random.Random(seed)
    for _ in range(count):
        if not await decide(store, game_id, rng):
            break
    return (await store.load_match(game_id))[1]


# ---------------------------------------------------------------- schema


async def test_migrations_build_every_table_from_an_empty_file_and_rerunning_them_changes_nothing(tmp_path):
    path = tmp_path / "db.sqlite3"
    first = await open_store(path)
    assert await first.schema_version() == len(migrations())
    await first.close()
    schema = sqlite3.connect(path).execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
    again = await open_store(path)
    assert await again.schema_version() == len(migrations())
    await again.close()
    assert sqlite3.connect(path).execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall() == schema
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {
        "games",
        "seats",
        "actions",
        "results",
        "player_totals",
        "favourites",
        "board_steps",
        "timers",
        "messages",
        "guild_settings",
    } <= tables


async def test_the_postgresql_migrations_build_every_table_and_rerunning_them_changes_nothing(pg_server):
    url = fresh_pg_database(pg_server, migrated=False)
    columns = "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'"
    first = await open_store(url)
    assert await first.schema_version() == len(pg_migrations())
    await first.close()
    schema = sorted(sql(url, columns))
    again = await open_store(url)
    assert await again.schema_version() == len(pg_migrations())
    await again.close()
    assert sorted(sql(url, columns)) == schema
    tables = {t for t, _, _ in schema}
    expected = {"games", "seats", "actions", "results", "player_totals", "favourites", "board_steps", "turn_posts"}
    assert expected <= tables
    assert ("games", "language", "text") in schema and ("games", "log", "bytea") in schema
    assert ("games", "guild_id", "bigint") in schema and ("results", "finished_at", "double precision") in schema


def test_sqlite_migrations_are_translated_for_postgresql_where_it_has_no_file_of_its_own():
    sqlite = dict(migrations())
    own = {int(path.name.split("_", 1)[0]) for path in MIGRATIONS_PG.glob("*.sql")}
    assert 8 in own  # floor() and 32-bit counters of its own
    for number, script in pg_migrations():
        if number in sqlite:
            assert script == pg_migration(sqlite[number]) or number in own
    assert "WITHOUT ROWID" not in pg_migration(sqlite[5]) and "SUM(r.rank = 1)" not in pg_migration(sqlite[5])


async def test_database_uses_wal_and_foreign_keys(tmp_path):
    store = await open_store(tmp_path / "wal.sqlite3")
    assert (await (await store.database.writer.execute("PRAGMA journal_mode")).fetchone())[0] == "wal"
    assert (await (await store.database.writer.execute("PRAGMA foreign_keys")).fetchone())[0] == 1
    await store.close()


# ---------------------------------------------------------------- round trips


async def test_a_lobby_round_trips_with_its_seats_and_options(store):
    game_id = await store.create_game(
        guild_id=5,
        channel_id=50,
        host_id=1,
        host_name="  Ana  ",
        players=4,
        side="advanced",
        turn_timer=3600,
        ai_seats=1,
    )
    await store.add_seat(game_id, 2, "Bo")
    record = await store.get_game(game_id)
    assert (record.guild_id, record.channel_id, record.host_id, record.status) == (5, 50, 1, "lobby")
    assert (record.players, record.side, record.solo, record.turn_timer) == (4, "advanced", False, 3600)
    assert [(s.name, s.user_id, s.ai) for s in record.seats] == [
        ("Ana", 1, False),
        ("AI 1", None, True),
        ("Bo", 2, False),
    ]
    assert not record.is_full and record.seat_of(2).name == "Bo"
    assert [g.id for g in await store.open_lobbies(5)] == [game_id]
    assert [g.id for g in await store.games_in_channel(50)] == [game_id]
    assert [g.id for g in await store.games_for_user(2)] == [game_id]
    await store.remove_seat(game_id, 2)
    assert [s.name for s in (await store.get_game(game_id)).seats] == ["Ana", "AI 1"]


async def test_the_ai_seats_level_is_kept_on_its_seats_and_not_among_the_facts(store):
    game_id = await store.create_game(
        guild_id=5, channel_id=50, host_id=1, host_name="Ana", players=3, ai_seats=2, ai_level="hard"
    )
    assert [s.ai_level for s in (await store.get_game(game_id)).seats] == [None, "hard", "hard"]
    other = await store.create_game(guild_id=5, channel_id=50, host_id=1, host_name="Ana", players=2, ai_seats=1)
    assert [s.ai_level for s in (await store.get_game(other)).seats] == [None, None]
    assert await store.meta(f"ai_level:{game_id}:1") is None


async def test_a_game_keeps_its_key_and_settings(store):
    plain = await store.create_game(guild_id=5, channel_id=50, host_id=1, host_name="Ana", players=2)
    other = await store.create_game(
        guild_id=5, channel_id=50, host_id=1, host_name="Ana", players=2, game="kohaku", settings={"min_finish": 80}
    )
    first, second = await store.get_game(plain), await store.get_game(other)
    # A game's settings are completed with its own defaults; the platform's stay beside them.
    assert (first.game, dict(first.settings), first.log_seats) == ("kokeshi", {"side": "basic"}, True)
    assert (second.game, dict(second.settings)) == ("kohaku", {"min_finish": 80, "goals": False})


async def test_lobby_refuses_a_full_table_a_second_seat_and_a_leaving_host(store):
    game_id = await store.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Ana", players=2)
    with pytest.raises(GameStateError) as info:
        await store.add_seat(game_id, 1, "Ana again")
    assert info.value.code == "already_seated"
    await store.add_seat(game_id, 2, "Bo")
    with pytest.raises(GameStateError) as info:
        await store.add_seat(game_id, 3, "Cy")
    assert info.value.code == "full"
    with pytest.raises(GameStateError) as info:
        await store.remove_seat(game_id, 1)
    assert info.value.code == "host"


async def test_starting_deals_the_game_for_the_seated_players(store):
    game_id = await started(store, players=3, seed=42)
    match, version, _record = await store.load_match(game_id)
    assert match.to_json() == games.get("kokeshi").deal({"side": "basic"}, 42, 3).to_json()
    record = await store.get_game(game_id)
    assert record.status == "active" and record.seed == 42 and record.version == version
    assert [g.id for g in await store.games_for_user(102)] == [game_id]


async def test_thread_messages_timers_and_settings_round_trip(store):
    game_id = await started(store)
    await store.set_thread(game_id, 999)
    assert (await store.game_by_thread(999)).id == game_id
    assert [g.id for g in await store.games_in_channel(999)] == [game_id]
    await store.set_message(game_id, "prompt", 999, 12345)
    await store.set_message(game_id, "prompt", 999, 12346)
    assert await store.get_message(game_id, "prompt") == (999, 12346)
    assert await store.get_message(game_id, "lobby") is None
    await store.set_timer(game_id, "deadline", 500.0, 3)
    await store.set_timer(game_id, "reminder_half", 200.0, 3)
    await store.set_timer(game_id, "deadline", 600.0, 4)
    assert [(t.kind, t.due_at, t.version) for t in await store.timers(game_id)] == [
        ("reminder_half", 200.0, 3),
        ("deadline", 600.0, 4),
    ]
    assert [t.kind for t in await store.due_timers(300.0)] == ["reminder_half"]
    assert (await store.next_timer()).kind == "reminder_half"
    await store.clear_timers(game_id, ["reminder_half"])
    assert [t.kind for t in await store.due_timers(10_000.0)] == ["deadline"]
    await store.clear_timers(game_id)
    assert await store.next_timer() is None
    await store.set_guild_setting(1, "daily_channel", "77")
    assert await store.guild_setting(1, "daily_channel") == "77"
    await store.set_guild_setting(1, "daily_channel", None)
    assert await store.guild_setting(1, "daily_channel", "none") == "none"
    await store.set_user_setting(100, "notify", "on")
    assert await store.user_setting(100, "notify") == "on"
    await store.set_user_setting(100, "notify", None)
    assert await store.user_setting(100, "notify") is None
    await store.set_meta("command_hash", "abc")
    await store.set_meta("command_hash", "def")
    assert await store.meta("command_hash") == "def" and await store.meta("nothing") is None


async def test_seat_changes_round_trip_without_making_buttons_stale(store):
    game_id = await started(store)
    _, version, _record = await store.load_match(game_id)
    await store.update_seat(game_id, "P1", ai=True, expired=3, resigned=True)
    seat = (await store.get_game(game_id)).seat_named("P1")
    assert (seat.ai, seat.expired, seat.resigned) == (True, 3, True)
    assert (await store.load_match(game_id))[1] == version
    with pytest.raises(GameStateError):
        await store.update_seat(game_id, "Nobody", ai=True)


def test_player_names_are_trimmed_shortened_and_made_unique():
    assert clean_name("  Ana   Bo ") == "Ana Bo"
    assert len(clean_name("x" * 50)) == 32
    assert clean_name("Ana", ["Ana"]) == "Ana (2)"
    assert clean_name("Ana", ["Ana", "Ana (2)"]) == "Ana (3)"
    assert len(clean_name("y" * 40, ["y" * 32])) == 32
    assert clean_name("automa", unseated=["automa"]) == "Automa player" and clean_name("automa") == "automa"
    assert clean_name("") == "Player"


async def test_no_seat_takes_the_name_a_game_gives_its_opponent_without_a_seat(store):
    # Kokeshi's results name its solo opponent "automa": a player of that name is seated under another one.
    solo = await store.create_game(guild_id=1, channel_id=10, host_id=100, host_name="automa", players=1)
    table = await store.create_game(guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2)
    joined = await store.add_seat(table, 101, "automa")
    assert [s.name for s in (await store.get_game(solo)).seats] == ["Automa player"]
    assert [s.name for s in joined.seats] == ["Ana", "Automa player"]
    # A game without such an opponent leaves the name be.
    other = await store.create_game(
        guild_id=1, channel_id=10, host_id=100, host_name="automa", players=2, game="kohaku"
    )
    assert [s.name for s in (await store.get_game(other)).seats] == ["automa"]


# ---------------------------------------------------------------- decisions


async def test_a_decision_is_logged_with_its_events_and_moves_the_version_on(store):
    game_id = await started(store)
    match, version, _record = await store.load_match(game_id)
    (seat,) = match.waiting()
    action = match.legal_actions(seat)[0]
    expected = games.get("kokeshi").load(match.to_json()).apply(seat, action)
    played = await store.play_match(game_id, version, seat, action)
    assert [e.to_dict() for e in played.outcome.events] == [e.to_dict() for e in expected]
    assert [(seq, s, a, list(evs)) for seq, s, a, evs in await store.match_events(game_id)] == [
        (1, seat, action, expected)
    ]
    assert (await store.load_match(game_id))[1] == played.record.version == version + 1


async def test_two_connections_racing_on_one_game_save_only_one_decision(database):
    a, b = await open_store(database), await open_store(database)
    try:
        for seed in range(10):
            game_id = await started(a, seed=seed)
            match, version, _record = await a.load_match(game_id)
            await b.load_match(game_id)
            (seat,) = match.waiting()
            action = match.legal_actions(seat)[0]
            outcomes = await asyncio.gather(
                a.play_match(game_id, version, seat, action),
                b.play_match(game_id, version, seat, action),
                return_exceptions=True,
            )
            assert sum(isinstance(o, MatchPlayed) for o in outcomes) == 1, outcomes
            assert all(isinstance(o, (MatchPlayed, StaleVersion)) for o in outcomes)
            assert len(await a.match_events(game_id)) == 1
    finally:
        await a.close()
        await b.close()


@pytest.mark.parametrize(("players", "solo", "side"), [(2, False, "basic"), (4, False, "advanced"), (1, True, "basic")])
@pytest.mark.slow
async def test_a_game_played_to_the_end_through_the_store_equals_the_engine_alone(store, players, solo, side):
    game_id = await started(store, players=players, solo=solo, side=side, seed=11)
    names = [s.name for s in (await store.get_game(game_id)).seats]
    # The engine names the seats it was dealt for by number, the automa of a solo game by its own name.
    seat_names = [f"seat{s + 1}" for s in range(len(names))]
    alone = new_game(seat_names, seed=11, side=side, solo=solo)
    policies = {n: GreedyPolicy(3) for n in seat_names}
    while alone.prompt is not None:
        player = alone.prompt.player
        action = policies[player].choose(alone)
        alone.apply(player, action)
        _, version, _record = await store.load_match(game_id)
        await store.play_match(game_id, version, seat_names.index(player), action)
    stored, version, record = await store.load_match(game_id)
    assert stored.to_json() == alone.to_json() and stored.is_over
    assert record.status == "finished" and record.finished_at is not None
    results = await store.results(game_id)
    named = dict(zip(seat_names, names, strict=True))
    assert [r.name for r in results] == [named.get(n, n) for n in alone.ranking()]
    assert [r.rank for r in results] == list(range(1, len(results) + 1))
    for r in results:
        s = alone.scores()[seat_names[r.seat] if r.seat < len(names) else r.name]
        assert {"total": r.total, **r.details} == s.to_dict()
    with pytest.raises(GameStateError):
        await store.play_match(game_id, version, 0, "advance:princess")
    assert await store.verify() == []


# ---------------------------------------------------------------- undo


async def test_undo_never_takes_back_a_random_draw(store):
    game_id = await started(store, seed=3)
    rng = random.Random(8)
    for _ in range(2000):
        match, version, _record = await store.load_match(game_id)
        seat = match.waiting()[0]
        played = await store.play_match(game_id, version, seat, rng.choice(match.legal_actions(seat)))
        last = played.decisions[-1]
        if any(e.reveals for e in last.events) and not last.ends_turn and seat in played.match.waiting():
            break
    else:
        raise AssertionError("no decision that revealed a tile and left its seat to decide")
    moves = len(played.decisions)
    with pytest.raises(StoreRefusal) as info:
        await store.undo_match(game_id, seat)
    assert info.value.code == "undo_drew"
    assert len(await store.match_decisions(game_id)) == moves


# ---------------------------------------------------------------- broken games


async def test_a_game_whose_log_no_longer_replays_is_marked_broken_and_others_keep_working(database):
    store = await open_store(database)
    bad, good = await started(store, seed=1), await started(store, seed=2)
    await play_moves(store, bad, 6)
    await play_moves(store, good, 6)
    await store.close()
    sql(database, "UPDATE actions SET action = 'advance:dragon' WHERE game_id = ? AND seq = 3", (bad,))
    store = await open_store(database)
    try:
        with pytest.raises(BrokenGame) as info:
            await store.load_match(bad)
        assert "no longer replays" in info.value.reason
        record = await store.get_game(bad)
        assert record.status == "broken" and "advance:dragon" in record.broken_reason
        assert await play_moves(store, good, 3) > 0
        assert [g for g, _ in await store.verify()] == [bad]
    finally:
        await store.close()


async def test_loading_an_unknown_game_says_so(store):
    with pytest.raises(GameNotFound):
        await store.load_match(12345)
    lobby = await store.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Ana", players=2)
    with pytest.raises(GameStateError) as info:
        await store.load_match(lobby)
    assert info.value.code == "not_started"


# ---------------------------------------------------------------- start-up errors


async def test_a_file_that_is_not_a_database_gives_a_clear_error(tmp_path):
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"these are my notes, not a database" * 100)
    with pytest.raises(StoreError) as info:
        await open_store(path)
    assert str(path) in str(info.value) and "not a SQLite database" in str(info.value)


async def test_a_database_from_a_newer_version_gives_a_clear_error(tmp_path):
    path = tmp_path / "future.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError) as info:
        await open_store(path)
    assert str(path) in str(info.value) and "newer" in str(info.value)


@pytest.mark.slow
async def test_a_database_locked_by_another_process_gives_a_clear_error(tmp_path):
    path = tmp_path / "locked.sqlite3"
    await (await open_store(path)).close()  # create it
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError) as info:
            await open_store(path)
        assert str(path) in str(info.value) and "locked" in str(info.value)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def test_a_postgresql_server_that_does_not_answer_or_is_newer_gives_a_clear_error(pg_server):
    with pytest.raises(StoreError) as info:
        await open_store(f"postgresql://kokeshi:secret@127.0.0.1:{free_port()}/kokeshi")
    assert "Cannot connect" in str(info.value) and "DATABASE_URL" in str(info.value)
    assert "secret" not in str(info.value)
    url = fresh_pg_database(pg_server)
    sql(url, "UPDATE schema_version SET version = 99")
    with pytest.raises(StoreError) as info:
        await open_store(url)
    assert "newer" in str(info.value)


async def test_an_unwritable_location_gives_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError) as info:
        await open_store(blocker / "sub" / "db.sqlite3")
    assert "DATABASE_PATH" in str(info.value)


# ---------------------------------------------------------------- maintenance commands


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "storage", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
async def test_verify_command_is_clean_for_a_good_database_and_reports_tampered_logs_and_results(database, tmp_path):
    store = await open_store(database)
    game_id = await started(store)
    await play_moves(store, game_id, 20)
    finished = await started(store, seed=8)
    await play_moves(store, finished, 10_000)
    await store.close()
    ok = _cli("verify", database)
    assert ok.returncode == 0 and "2 games checked, 0 with problems" in ok.stdout
    sql(database, "UPDATE actions SET flags = (flags | 3) - (flags & 3) WHERE game_id = ? AND seq = 2", (game_id,))
    sql(database, "UPDATE results SET total = total + 1 WHERE game_id = ? AND rank = 1", (finished,))
    bad = _cli("verify", database)
    assert bad.returncode == 1 and f"game {game_id}: what is stored about move 2 differs from a replay" in bad.stdout
    assert f"game {finished}: the stored results differ from a replay" in bad.stdout
    missing = _cli("verify", str(tmp_path / "nothing.sqlite3"))
    assert missing.returncode == 2 and "no database" in missing.stderr


async def test_backup_command_copies_a_database_that_is_being_written(tmp_path):
    path, copy = tmp_path / "live.sqlite3", tmp_path / "backups" / "copy.sqlite3"
    store = await open_store(path)
    game_id = await started(store)
    writer = asyncio.create_task(play_moves(store, game_id, 40))
    done = await asyncio.to_thread(_cli, "backup", str(path), str(copy))
    await writer
    await store.close()
    assert done.returncode == 0, done.stderr
    restored = await open_store(copy)
    try:
        assert (await restored.get_game(game_id)).status == "active"
        assert await restored.verify() == []
    finally:
        await restored.close()


async def test_copy_command_moves_a_sqlite_database_into_postgresql_whole_and_verified(tmp_path, pg_server):
    path = tmp_path / "server.sqlite3"
    store = await open_store(path)
    finished, active = await started(store, players=3, seed=8), await started(store, seed=9)
    await play_moves(store, finished, 10_000)
    await play_moves(store, active, 15)
    lobby = await store.create_game(guild_id=2, channel_id=20, host_id=300, host_name="Cy", players=2)
    await store.set_guild_setting(1, "channel", "10")
    await store.set_timer(active, "deadline", 5000.0, 16)
    await store.ask_choice(active, "Ana", 4e9)
    games = [await store.get_game(g) for g in (finished, active, lobby)]
    board = await store.leaderboard("wins", 1)
    secret = await store.meta("challenge_secret")
    match, version, _record = await store.load_match(active)
    await store.close()
    url = fresh_pg_database(pg_server, migrated=False)
    done = _cli("copy", str(path), url)
    assert done.returncode == 0, done.stderr
    assert "copied 3 games" in done.stdout and "2 games checked, 0 with problems" in done.stdout
    copy = await open_store(url)
    try:
        assert [await copy.get_game(g) for g in (finished, active, lobby)] == games
        assert await copy.leaderboard("wins", 1) == board and await copy.meta("challenge_secret") == secret
        assert await copy.guild_setting(1, "channel") == "10" and len(await copy.timers(active)) == 1
        copied, copied_version, _record = await copy.load_match(active)
        assert (copied.to_json(), copied_version) == (match.to_json(), version)
        assert (await copy.seat_choice(active, "Ana")).due_at == 4e9
        (seat,) = match.waiting()
        await copy.play_match(active, version, seat, match.legal_actions(seat)[0])
        assert await copy.create_game(guild_id=1, channel_id=1, host_id=1, host_name="Di", players=2) == lobby + 1
    finally:
        await copy.close()
    again = _cli("copy", str(path), url)
    assert again.returncode == 2 and "already holds 4 games" in again.stderr and "--replace" in again.stderr


async def test_a_lobby_is_seated_in_the_order_asked_and_its_ai_seats_keep_their_levels(store):
    game_id = await store.create_game(
        guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=4, ai_seats=2, ai_level="hard"
    )
    await store.add_seat(game_id, 101, "Bo")
    record = await store.arrange_seats(game_id, ["Ana", "Bo", "AI 2"])
    assert [(s.seat, s.name) for s in record.seats] == [(0, "Ana"), (1, "Bo"), (2, "AI 2"), (3, "AI 1")]
    assert [s.ai_level for s in record.seats] == [None, None, "hard", "hard"]
    # Names not at the table are passed over; the same order again changes nothing.
    again = await store.arrange_seats(game_id, ["Ana", "Nobody", "Bo", "AI 2", "AI 1"])
    assert again.seats == record.seats and again.version == record.version
    match, _version = await store.start_match(game_id, 7)
    assert match.seats == 4 and [s.name for s in (await store.get_game(game_id)).seats] == ["Ana", "Bo", "AI 2", "AI 1"]
    # Nothing held: the stored game loads the same.
    store._forget(game_id)
    assert (await store.load_match(game_id))[0].to_json() == match.to_json()
    with pytest.raises(StoreRefusal):
        await store.arrange_seats(game_id, ["Bo", "Ana"])


def test_a_weekly_streak_counts_iso_weeks_in_a_row_across_a_new_year():
    weeks = ["2025-W51", "2025-W52", "2026-W01", "2026-W03"]
    assert week_streak(weeks, "2026-W01") == 3
    assert week_streak(weeks, "2026-W02") == 3  # this week not played yet
    assert week_streak(weeks, "2026-W03") == 1
    assert week_streak(weeks, "2026-W05") == 0
    assert week_streak(["nonsense"], "2026-W01") == 0


# ---------------------------------------------------------------- away


async def test_away_moves_the_running_turn_timers_of_the_player_and_back_returns_the_unused_part(store):
    clock = store._clock
    game_id = await started(store)
    match, version, record = await store.load_match(game_id)
    (mover,) = match.waiting()
    user_id = record.seats[mover].user_id
    await store.set_match_timers(game_id, version, [("reminder_half", clock.now + 50), ("deadline", clock.now + 100)])
    due = {t.kind: t.due_at for t in await store.timers(game_id)}

    change = await store.go_away(user_id, clock.now + 1000)
    assert change.games == (game_id,) and change.shift == 1000
    assert {t.kind: t.due_at for t in await store.timers(game_id)} == {k: v + 1000 for k, v in due.items()}
    with pytest.raises(ValueError):
        await store.go_away(user_id, clock.now + 10)
    # The other player is not away: their timers stay where they were set.
    other = next(s.user_id for s in (await store.get_game(game_id)).seats if s.user_id != user_id)
    assert (await store.aways([user_id, other])).keys() == {user_id}

    clock.now += 400
    back = await store.come_back(user_id)
    assert back is not None and back.shift == -600 and back.away.ends_at == clock.now
    assert {t.kind: t.due_at for t in await store.timers(game_id)} == {k: v + 400 for k, v in due.items()}
    assert await store.come_back(user_id) is None
    assert await store.away_used(user_id) == 400
    assert await store.verify() == []


async def test_the_away_allowance_counts_the_last_365_days_and_verify_finds_a_bad_period(store):
    clock = store._clock
    await store.go_away(5, clock.now + 3 * 86400)
    assert await store.away_used(5) == 3 * 86400
    clock.now += 366 * 86400
    assert await store.away_used(5) == 0 and await store.away(5) is None
    assert len(await store.away_history(5)) == 1
    async with store._tx() as db:
        await store._run(db, "INSERT INTO aways (user_id, began_at, ends_at) VALUES (6, 0, ?)", (30 * 86400,))
    assert [p for _, p in await store.verify()] == ["away periods: user 6: the away period from 0.0 has a bad length"]
