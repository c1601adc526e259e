"""Kokeshi's games written through the game contract (the log by seat number) beside those older versions wrote (the
log by name), on both backends: the same deal and moves leave the same rows behind (the game's, its seats, results
with the automa's row and score details, its log), with the community's facts besides (ratings, totals, favourites,
challenge attempts); the contract deals no lobby of an older version before it is moved to seat numbers."""

from __future__ import annotations

from typing import Any

import pytest

from storage import Store, StoreRefusal, open_store
from storage.logs import unpack_log
from tests.dbkit import Clock, named_log_game, on_backends, sql

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


async def _lobby(store: Store, people: list[str], ai: int, side: str, challenge: str | None) -> int:
    """A full lobby of Kokeshi, as `/games new` makes it."""
    settings = {"side": side}
    if challenge is not None:
        kind, key = challenge.split(":", 1)
        game_id, _rated = await store.create_challenge(
            kind=kind, key=key, guild_id=GUILD, channel_id=10, user_id=100, name=people[0], settings=settings
        )
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
        settings=settings,
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
        "SELECT status, players, side, solo, rules, moves, game, snapshot, log, created_at FROM games WHERE id = ?",
        (game_id,),
    )[0]
    mine = "game_id = ? ORDER BY seat"
    log = [
        (seq, action, source, flags) for seq, _player, action, source, _at, flags in unpack_log(bytes(game[8]), game[9])
    ]
    return {
        "game": game[:8],
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


def _shape_id(shape: tuple) -> str:
    people, ai, side, challenge, resign = shape
    return f"{len(people)}p{ai}ai-{side}-{challenge or 'plain'}{'-resigned' if resign else ''}"


# On PostgreSQL: a person against an AI seat, and a weekly challenge (the community rows a result leaves).
@pytest.mark.parametrize(
    ("database", "shape"), on_backends(SHAPES, _shape_id, postgresql=(1, 5)), indirect=["database"]
)
@pytest.mark.slow
async def test_a_kokeshi_game_through_the_contract_leaves_what_an_older_version_left(database, shape):
    people, ai, side, challenge, resign = shape
    seed = SEED + len(people) * 10 + ai
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        # Seated as a lobby seats them: the host, the AI seats, then the people who joined.
        robots = [f"AI {i + 1}" for i in range(ai)]
        names = [people[0], *robots, *people[1:]]
        resigned = {people[-1]: RESIGN_AT} if resign else {}
        old = named_log_game(database, names, seed=seed, side=side, moves=None, ai=robots, resigned=resigned)
        mine = _facts(database, old)
        actions = [action for _seq, action, _source, _flags in mine["log"]]
        played = await _lobby(store, people, ai, side, challenge)
        assert sql(database, "SELECT id, log_seats FROM games ORDER BY id") == [(old, 0), (played, 1)]
        await _played_contract(store, played, seed, actions, resign)
        theirs = _facts(database, played)
        assert {k: v for k, v in theirs.items() if k != "community"} == {
            k: v for k, v in mine.items() if k != "community"
        }
        assert len(theirs["results"]) == len(people) + ai + (len(people) + ai == 1)  # solo: the automa's row too
        assert theirs["community"][3 if challenge else 0]  # its totals, or its attempt
        if resign:  # ranked last, after the automa too
            last = max(row[5] for row in theirs["results"])
            assert [row[5] for row in theirs["results"] if row[4]] == [last]
        assert await store.verify() == []
        for game_id in (old, played):
            record = await store.get_game(game_id)
            assert record.named_log == (game_id == old)
        old_results = [(r.seat, r.name, r.rank, r.total, r.details) for r in await store.results(old)]
        assert old_results == [(r.seat, r.name, r.rank, r.total, r.details) for r in await store.results(played)]
    finally:
        await store.close()


async def test_the_contract_deals_no_lobby_whose_log_would_name_its_players(database):
    store = await open_store(database, clock=Clock(tick=1.0))
    try:
        old = named_log_game(database, ["Ana", "Bo"], seed=SEED, dealt=False)
        with pytest.raises(StoreRefusal) as refused:
            await store.start_match(old, SEED)
        assert (refused.value.code, refused.value.params["game"]) == ("other_game", "kokeshi")
        assert sql(database, "SELECT status, version FROM games WHERE id = ?", (old,)) == [("lobby", 1)]
        assert await store.to_seat_log(old) is True
        match, version = await store.start_match(old, SEED)
        assert version == 2 and not match.is_over
    finally:
        await store.close()
