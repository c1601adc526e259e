"""Kokeshi's games written through the game contract (`/games new`, the log by seat number) beside those of its own
path (`/kokeshi new`, the log by name), on both backends: the same deal and moves leave the same facts behind
(results, the automa's row, score details, ratings, totals, favourites, challenge attempts), and each path refuses
to write the other's games."""

from __future__ import annotations

from typing import Any

import pytest

from games.kokeshi.engine import RandomPolicy
from storage import Store, StoreRefusal, open_store
from storage.logs import unpack_log
from tests.dbkit import Clock, on_backends, sql

GUILD = 1
SEED = 0x5EA7_0_C0_17

# (the people's names, the AI seats after them, side, the challenge it is, if any, whether the last person resigns
# partway: the AI plays their seat on, and they rank last).
SHAPES = [
    (["Ana", "Bo"], 0, "basic", None, False),
    (["Ana"], 1, "advanced", None, False),
    (["Ana", "Bo", "Cy"], 0, "advanced", None, True),
    (["Solo"], 0, "basic", None, False),
    (["Solo"], 0, "advanced", None, True),
    (["Solo"], 0, "advanced", "weekly:2026-W48", False),
]
# The action after which the resigning person leaves.
RESIGN_AT = 20
# What a finished game leaves behind for the people who played it, beside its own rows.
COMMUNITY = (
    "SELECT scope, solo, user_id, games, wins, best FROM player_totals ORDER BY scope, solo, user_id",
    "SELECT scope, user_id, item, times FROM favourites ORDER BY scope, user_id, item",
    "SELECT scope, user_id, mu, sigma, games FROM ratings ORDER BY scope, user_id",
    "SELECT game, kind, key, user_id, guild_id, rated, score, won FROM challenge_attempts ORDER BY user_id",
)


async def _lobby(store: Store, people: list[str], ai: int, side: str, challenge: str | None, contract: bool) -> int:
    """A full lobby of Kokeshi, dealt through its own path or through the contract (`/games new` makes it so)."""
    settings = {"side": side}
    if challenge is not None:
        kind, key = challenge.split(":", 1)
        game_id, _rated = await store.create_challenge(
            kind=kind, key=key, guild_id=GUILD, channel_id=10, user_id=100, name=people[0], settings=settings,
            contract=contract,
        )  # fmt: skip
        return game_id
    game_id = await store.create_game(
        guild_id=GUILD,
        channel_id=10,
        host_id=100,
        host_name=people[0],
        players=len(people) + ai,
        side=side,
        solo=len(people) + ai == 1,
        ai_seats=ai,
        settings=settings if contract else None,
        contract=contract,
    )
    for i, name in enumerate(people[1:], start=1):
        await store.add_seat(game_id, 100 + i, name)
    return game_id


async def _resigned(store: Store, game_id: int, resign: bool, done: int) -> None:
    """The last person leaves after action `RESIGN_AT`, as `/kokeshi resign` and `/games resign` mark the seat."""
    if resign and done == RESIGN_AT:
        record = await store.get_game(game_id)
        last = max((s for s in record.seats if not s.ai), key=lambda s: s.seat)
        await store.update_seat(game_id, last.name, resigned=True, ai=True)


async def _played_own(store: Store, game_id: int, seed: int, resign: bool) -> list[str]:
    """The game dealt and played to its end through its own path, as `/kokeshi`'s buttons do; its actions."""
    game, version = await store.start_game(game_id, seed)
    policy, actions = RandomPolicy(seed), []
    while game.prompt is not None:
        await _resigned(store, game_id, resign, len(actions))
        record = await store.get_game(game_id)
        player = game.prompt.player
        seat = record.seat_named(player)
        action = policy.choose(game)
        source = "ai" if seat is not None and seat.ai else "player"
        applied = await store.apply(game_id, version, player, action, source=source, details=True)
        game, version = applied.game, applied.version
        actions.append(action)
    return actions


async def _played_contract(store: Store, game_id: int, seed: int, actions: list[str], resign: bool) -> None:
    """The same deal and actions through the contract, as the platform's table plays them."""
    match, version = await store.start_match(game_id, seed)
    for done, action in enumerate(actions):
        await _resigned(store, game_id, resign, done)
        record = await store.get_game(game_id)
        (seat,) = match.waiting()
        source = "ai" if record.seats[seat].ai else "button"
        played = await store.play_match(game_id, version, seat, action, source=source)
        match, version = played.match, played.record.version
    assert match.is_over


def _facts(database: str, game_id: int) -> dict[str, Any]:
    """What a finished game left behind, where its path does not show: the row, results, log and the rest."""
    game = sql(
        database,
        "SELECT status, players, side, solo, rules, moves, challenge, game, turn_timer, snapshot, log, created_at "
        "FROM games WHERE id = ?",
        (game_id,),
    )[0]
    mine = "game_id = ? ORDER BY seat"
    log = [
        (seq, action, source, flags)
        for seq, _player, action, source, _at, flags in unpack_log(bytes(game[10]), game[11])
    ]
    return {
        "game": game[:10],
        "seats": sql(database, f"SELECT seat, name, user_id, ai, resigned FROM seats WHERE {mine}", (game_id,)),
        "results": sql(
            database,
            f"SELECT seat, name, user_id, ai, resigned, rank, total, details FROM results WHERE {mine}",
            (game_id,),
        ),
        "log": log,
        "actions": sql(database, "SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)),
        "timers": sql(database, "SELECT COUNT(*) FROM timers WHERE game_id = ?", (game_id,)),
        "community": [sql(database, q) for q in COMMUNITY],
    }


def _forget_community(database: str) -> None:
    """The people's totals, favourites, ratings and attempts cleared: the next game starts from the same place."""
    for table in ("player_totals", "favourites", "ratings", "rating_changes", "challenge_attempts"):
        sql(database, f"DELETE FROM {table}")


def _shape_id(shape: tuple) -> str:
    people, ai, side, challenge, resign = shape
    return f"{len(people)}p{ai}ai-{side}-{challenge or 'plain'}{'-resigned' if resign else ''}"


# On PostgreSQL: a person against an AI seat, and a weekly challenge (the community rows a result leaves).
@pytest.mark.parametrize(
    ("database", "shape"), on_backends(SHAPES, _shape_id, postgresql=(1, 5)), indirect=["database"]
)
@pytest.mark.slow
async def test_a_kokeshi_game_through_the_contract_leaves_what_its_own_path_leaves(database, shape):
    people, ai, side, challenge, resign = shape
    seed = SEED + len(people) * 10 + ai
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        own = await _lobby(store, people, ai, side, challenge, contract=False)
        actions = await _played_own(store, own, seed, resign)
        mine = _facts(database, own)
        _forget_community(database)
        played = await _lobby(store, people, ai, side, challenge, contract=True)
        assert sql(database, "SELECT id, log_seats FROM games ORDER BY id") == [(own, 0), (played, 1)]
        await _played_contract(store, played, seed, actions, resign)
        theirs = _facts(database, played)
        assert theirs == mine
        assert len(theirs["results"]) == len(people) + ai + (len(people) + ai == 1)  # solo: the automa's row too
        assert theirs["community"][3 if challenge else 0]  # its totals, or its attempt
        if resign:  # ranked last, after the automa too
            last = max(row[5] for row in theirs["results"])
            assert [row[5] for row in theirs["results"] if row[4]] == [last]
        assert await store.verify() == []
        # Read back through either store API, and its stats, as players see them.
        for game_id in (own, played):
            record = await store.get_game(game_id)
            assert record.named_log == (game_id == own)
        own_results = [(r.seat, r.name, r.rank, r.total, r.details) for r in await store.results(own)]
        assert own_results == [(r.seat, r.name, r.rank, r.total, r.details) for r in await store.results(played)]
    finally:
        await store.close()


async def test_each_path_refuses_to_write_the_others_kokeshi_games(database):
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        played = await _lobby(store, ["Ana", "Bo"], 0, "basic", None, contract=True)
        with pytest.raises(StoreRefusal) as refused:
            await store.start_game(played, SEED)
        assert (refused.value.code, refused.value.params["game"]) == ("other_game", "kokeshi")
        match, version = await store.start_match(played, SEED)
        (seat,) = match.waiting()
        name = (await store.get_game(played)).seats[seat].name
        for attempt in (
            store.load_game(played),
            store.apply(played, version, name, match.legal_actions(seat)[0]),
            store.undo(played, name),
            store.log(played),
            store.states_after(played, [0]),
        ):
            with pytest.raises(StoreRefusal) as refused:
                await attempt
            assert refused.value.code == "other_game"
        assert (await store.load_match(played))[1] == version  # nothing written
        # And the contract still refuses to write a game of the own path.
        own = await _lobby(store, ["Ana", "Bo"], 0, "basic", None, contract=False)
        with pytest.raises(StoreRefusal) as refused:
            await store.start_match(own, SEED)
        assert refused.value.code == "other_game"
        assert sql(database, "SELECT status FROM games WHERE id = ?", (own,)) == [("lobby",)]
    finally:
        await store.close()
