"""Ratings, challenges, leaderboards and stats as the store keeps them."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

import games
from storage import Rating, Store, challenge_key, challenge_seed, open_store, scope_of, streak
from storage.ratings import human_ranks, rate
from tests.dbkit import play_out


@pytest.fixture
async def store(tmp_path):
    s = await open_store(tmp_path / "ratings.sqlite3")
    yield s
    await s.close()


async def finished_game(
    store: Store, users: list[int], *, guild: int = 1, ai: int = 0, seed: int = 1, resign: tuple[int, ...] = ()
) -> int:
    """A game between these users (plus `ai` AI seats), dealt and played to the end with random decisions as the
    platform's table saves them."""
    game_id = await store.create_game(
        guild_id=guild,
        channel_id=guild * 10,
        host_id=users[0],
        host_name=f"u{users[0]}",
        players=len(users) + ai,
        ai_seats=ai,
    )
    for uid in users[1:]:
        await store.add_seat(game_id, uid, f"u{uid}")
    await store.start_match(game_id, seed)
    for uid in resign:
        await store.update_seat(game_id, f"u{uid}", ai=True, resigned=True)
    await play_out(store, game_id, seed)
    return game_id


# ---------------------------------------------------------------- the rating model


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_moves_ratings_in_the_order_of_the_ranking(players):
    new = rate([(Rating(uid), rank) for uid, rank in zip(range(players), range(1, players + 1), strict=True)])
    mus = [r.mu for r in new]
    assert mus == sorted(mus, reverse=True) and mus[0] > 25 > mus[-1]
    assert all(r.games == 1 and r.sigma < 25 / 3 for r in new)


def test_tied_players_with_equal_ratings_move_equally():
    new = rate([(Rating(1), 1), (Rating(2), 2), (Rating(3), 2)])
    assert new[1].mu == pytest.approx(new[2].mu) and new[0].mu > new[1].mu


def test_resigned_players_share_the_last_place_and_ai_seats_are_not_ranked():
    rows = [(10, 1, True), (20, 2, False), (30, 4, True), (40, 3, False)]
    assert human_ranks(rows) == [(20, 1), (40, 2), (10, 3), (30, 3)]


def test_new_players_are_provisional_for_five_games():
    assert Rating(1, games=4).provisional and not Rating(1, games=5).provisional
    assert Rating(1).display == 1000


# ---------------------------------------------------------------- ratings kept by the store


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_finishing_a_game_rates_its_players_in_the_server_and_globally(store, players):
    users = [100 + i for i in range(players)]
    game_id = await finished_game(store, users, seed=players)
    results = await store.results(game_id)
    for scope in (scope_of(None), scope_of(1)):
        ratings = {r.user_id: r for r in await store.ratings(scope)}
        assert set(ratings) == set(users) and all(r.games == 1 for r in ratings.values())
        by_rank = [ratings[r.user_id].mu for r in results]
        assert by_rank == sorted(by_rank, reverse=True)


async def test_a_resignation_ranks_last_in_the_rating(store):
    game_id = await finished_game(store, [1, 2, 3], seed=5, resign=(1,))
    ratings = {r.user_id: r for r in await store.ratings(scope_of(None))}
    assert ratings[1].mu < 25 and ratings[1].mu == min(r.mu for r in ratings.values())
    assert (await store.results(game_id))[-1].user_id == 1


@pytest.mark.slow
async def test_ai_seats_are_left_out_and_one_human_against_ai_is_not_rated(store):
    await finished_game(store, [1, 2], ai=2, seed=6)
    assert {r.user_id for r in await store.ratings(scope_of(None))} == {1, 2}
    await finished_game(store, [3], ai=1, seed=7)
    assert await store.rating(scope_of(None), 3) == Rating(3)


@pytest.mark.slow
async def test_server_ratings_are_separate_and_the_global_one_counts_every_server(store):
    await finished_game(store, [1, 2], guild=1, seed=8)
    await finished_game(store, [1, 2], guild=2, seed=9)
    assert (await store.rating(scope_of(None), 1)).games == 2
    assert (await store.rating(scope_of(1), 1)).games == 1 and (await store.rating(scope_of(2), 1)).games == 1
    board = await store.leaderboard("rating", None)
    assert [row.user_id for row in board] == [r.user_id for r in await store.ratings(scope_of(None))]
    assert all(row.provisional for row in board)


@pytest.mark.slow
async def test_wins_and_best_boards_count_results_per_server(store):
    first = await finished_game(store, [1, 2], guild=1, seed=10)
    await finished_game(store, [1, 2], guild=2, seed=11)
    winner = (await store.results(first))[0]
    wins = await store.leaderboard("wins", 1)
    assert wins[0].user_id == winner.user_id and wins[0].value == 1 and wins[0].games == 1
    best = await store.leaderboard("best", None)
    totals = [r.total for g in (1, 2) for r in await store.results(g)]
    assert best[0].value == max(totals)
    assert [row.rank for row in best] == list(range(1, len(best) + 1))


# ---------------------------------------------------------------- challenges


def test_the_daily_seed_is_the_same_for_everyone_on_a_date_and_differs_across_dates():
    key = b"installation secret"
    assert challenge_seed("daily", "2026-11-22", key) == challenge_seed("daily", "2026-11-22", key)
    days = [(dt.date(2026, 1, 1) + dt.timedelta(days=i)).isoformat() for i in range(365)]
    assert len({challenge_seed("daily", day, key) for day in days}) == 365
    assert challenge_seed("weekly", "2026-W47", key) != challenge_seed("daily", "2026-W47", key)


def test_a_challenge_seed_cannot_be_computed_from_the_date_alone():
    public = int.from_bytes(hashlib.sha256(b"kokeshi:daily:2026-11-22").digest()[:8], "big") >> 2
    one, other = challenge_seed("daily", "2026-11-22", b"one"), challenge_seed("daily", "2026-11-22", b"other")
    assert public not in (one, other) and one != other
    with pytest.raises(ValueError):
        challenge_seed("daily", "2026-11-22", b"")


async def test_the_challenge_secret_is_made_on_first_start_kept_and_overridable(tmp_path):
    path = tmp_path / "secret.sqlite3"
    first = await open_store(path)
    seed = first.challenge_seed("daily:2026-11-22")
    secret = await first.meta("challenge_secret")
    await first.close()
    assert secret and len(secret) >= 64  # 256 bits, hex
    again = await open_store(path)
    assert again.challenge_seed("daily:2026-11-22") == seed
    await again.close()
    other = await open_store(tmp_path / "other.sqlite3")
    assert other.challenge_seed("daily:2026-11-22") != seed  # another installation, another secret
    await other.close()
    shared = [await open_store(tmp_path / f"bot{i}.sqlite3", challenge_secret="shared by every bot") for i in (1, 2)]
    assert shared[0].challenge_seed("weekly:2026-W47") == shared[1].challenge_seed("weekly:2026-W47")
    assert shared[0].challenge_seed("daily:2026-11-22") == challenge_seed("daily", "2026-11-22", b"shared by every bot")
    for s in shared:
        await s.close()


def test_the_challenge_day_is_the_utc_date_and_the_week_the_iso_week():
    late = dt.datetime(2026, 11, 22, 23, 59, 59, tzinfo=dt.UTC)
    assert challenge_key("daily", late) == "2026-11-22"
    assert challenge_key("daily", late + dt.timedelta(seconds=1)) == "2026-11-23"
    tokyo = dt.datetime(2026, 11, 23, 8, 0, tzinfo=dt.timezone(dt.timedelta(hours=9)))
    assert challenge_key("daily", tokyo) == "2026-11-22"
    assert challenge_key("weekly", dt.datetime(2027, 1, 1, tzinfo=dt.UTC)) == "2026-W53"


def test_streaks_count_consecutive_days_across_month_and_year_ends():
    days = ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]
    assert streak(days, dt.date(2027, 1, 2)) == 4
    assert streak(days, dt.date(2027, 1, 3)) == 4  # today not played yet: the streak still stands
    assert streak(days, dt.date(2027, 1, 4)) == 0
    assert streak(["2026-02-28", "2026-03-01"], dt.date(2026, 3, 1)) == 2
    assert streak(["2026-01-01", "2026-01-03"], dt.date(2026, 1, 3)) == 1


async def _play_challenge(store: Store, user: int, kind: str = "daily", key: str = "2026-11-22", guild: int = 1):
    game_id, rated = await store.create_challenge(
        kind=kind,
        key=key,
        guild_id=guild,
        channel_id=10,
        user_id=user,
        name=f"u{user}",
        settings=next(c.options for c in games.get("kokeshi").challenges if c.kind == kind),  # as the table asks
    )
    await store.start_match(game_id, store.challenge_seed(f"{kind}:{key}"))
    await play_out(store, game_id, user)
    return game_id, rated


async def test_only_the_first_daily_attempt_is_rated_and_the_board_ranks_rated_scores(store):
    first, rated = await _play_challenge(store, 1)
    second, rated_again = await _play_challenge(store, 1)
    other, _ = await _play_challenge(store, 2)
    assert rated and not rated_again
    board = await store.leaderboard("daily", None, "2026-11-22")
    assert sorted(row.user_id for row in board) == [1, 2]
    score = next(r.total for r in await store.results(first) if r.name == "u1")
    assert next(row.value for row in board if row.user_id == 1) == score
    assert await store.leaderboard("daily", None, "2026-11-23") == []
    games = [await store.get_game(g) for g in (first, second, other)]
    assert {g.side for g in games} == {"basic"}
    assert {g.seed for g in games} == {store.challenge_seed("daily:2026-11-22")}


async def test_the_weekly_challenge_is_played_on_the_advanced_side(store):
    game_id, rated = await _play_challenge(store, 3, kind="weekly", key="2026-W47")
    assert rated and (await store.get_game(game_id)).side == "advanced"
    assert [row.user_id for row in await store.leaderboard("weekly", None, "2026-W47")] == [3]


async def test_the_store_counts_daily_streaks(store):
    for key in ("2026-12-31", "2027-01-01"):
        await store.create_challenge(kind="daily", key=key, guild_id=1, channel_id=1, user_id=5, name="u5")
    assert await store.streak(5, dt.date(2027, 1, 1)) == 2
    assert await store.streak(6, dt.date(2027, 1, 1)) == 0


# ---------------------------------------------------------------- stats


async def test_stats_of_a_player_with_no_games_are_zero(store):
    stats = await store.stats(42)
    assert (stats.games, stats.wins, stats.win_rate, stats.best, stats.favourite, stats.history) == (
        0,
        0,
        0.0,
        0,
        None,
        [],
    )


@pytest.mark.slow
async def test_stats_sum_up_a_players_games(store):
    ids = [await finished_game(store, [1, 2], seed=s) for s in (20, 21, 22)]
    stats = await store.stats(1)
    mine = [r for g in ids for r in await store.results(g) if r.user_id == 1]
    assert stats.games == 3 and stats.wins == sum(r.rank == 1 for r in mine)
    assert stats.best == max(r.total for r in mine)
    assert stats.average == pytest.approx(sum(r.total for r in mine) / 3)
    assert stats.breakdown["animals"] == pytest.approx(sum(r.details["animals"] for r in mine) / 3)
    assert stats.favourite in ("princess", "batchan", "fisherman", "samurai", "sumotori")
    assert [total for _, total in stats.history] == [r.total for r in mine]


async def test_a_seat_handed_to_the_ai_after_time_outs_is_still_rated_for_its_owner(store):
    game_id = await store.create_game(guild_id=1, channel_id=10, host_id=1, host_name="u1", players=3)
    await store.add_seat(game_id, 2, "u2")
    await store.add_seat(game_id, 3, "u3")
    await store.start_match(game_id, 12)
    await store.update_seat(game_id, "u2", ai=True, expired=3)
    await play_out(store, game_id, 12)
    results = {r.user_id: r for r in await store.results(game_id)}
    assert results[2].ai and not results[2].resigned
    ratings = {r.user_id: r for r in await store.ratings(scope_of(None))}
    assert set(ratings) == {1, 2, 3} and ratings[2].games == 1
    ordered = sorted(results.values(), key=lambda r: r.rank)
    assert [ratings[r.user_id].mu for r in ordered] == sorted((r.mu for r in ratings.values()), reverse=True)


@pytest.mark.slow
async def test_a_players_games_end_finished_resigned_or_timed_out_and_a_cancelled_one_is_not_counted(store):
    await finished_game(store, [1, 2], seed=30)
    await finished_game(store, [1, 2, 3], seed=31, resign=(1,))
    timed_out = await store.create_game(guild_id=1, channel_id=10, host_id=2, host_name="u2", players=2)
    await store.add_seat(timed_out, 1, "u1")
    await store.start_match(timed_out, 32)
    await store.update_seat(timed_out, "u1", ai=True, expired=3)  # the AI took the seat once its turns ran out
    await play_out(store, timed_out, 32)
    cancelled = await store.create_game(guild_id=1, channel_id=10, host_id=1, host_name="u1", players=2)
    await store.cancel_game(cancelled)
    endings = await store.endings(1)
    assert (endings.finished, endings.resigned, endings.timed_out) == (1, 1, 1)
    assert endings.finish_rate == pytest.approx(1 / 3)
    assert (await store.stats(1)).endings == endings
    assert (await store.endings(2)).finish_rate == 1.0
    assert (await store.endings(1, game="other")).finish_rate is None
