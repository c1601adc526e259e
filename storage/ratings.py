"""Multiplayer ratings with OpenSkill's Plackett–Luce model, and the daily and weekly challenge calendar."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
PROVISIONAL_GAMES = 5


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill estimate in one scope."""

    user_id: int
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def display(self) -> int:
        """A friendly number: 1000 for a newcomer, rising with skill and certainty (40 × (μ − 3σ) + 1000)."""
        return round(1000 + 40 * (self.mu - 3 * self.sigma))

    @property
    def provisional(self) -> bool:
        """Too few games for the number to mean much yet."""
        return self.games < PROVISIONAL_GAMES


def rate(players: Sequence[tuple[Rating, int]]) -> list[Rating]:
    """New ratings after one game: (rating, rank) pairs, rank 1 best, equal ranks tie."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r, _ in players]
    updated = MODEL.rate(teams, ranks=[rank for _, rank in players])
    return [
        Rating(r.user_id, team[0].mu, team[0].sigma, r.games + 1) for (r, _), team in zip(players, updated, strict=True)
    ]


def human_ranks(results: Sequence[tuple[int, int, bool]]) -> list[tuple[int, int]]:
    """(user id, rank) for the people of a finished game, from (user id, rank, resigned) rows.

    AI seats are left out before ranking, so a game is rated among its humans only; resigned players share
    the last place.
    """
    playing = sorted((rank, uid) for uid, rank, resigned in results if not resigned)
    ranked = [(uid, i + 1) for i, (_, uid) in enumerate(playing)]
    last = len(ranked) + 1
    ranked += [(uid, last) for uid, _, resigned in results if resigned]
    return ranked


# ---------------------------------------------------------------- challenges

CHALLENGE_SIDES = {"daily": "basic", "weekly": "advanced"}


def challenge_key(kind: str, when: dt.datetime) -> str:
    """The challenge a moment belongs to: its UTC date (daily) or ISO week (weekly)."""
    day = when.astimezone(dt.UTC).date()
    if kind == "daily":
        return day.isoformat()
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def challenge_seed(kind: str, key: str, secret: bytes) -> int:
    """The same seed for every player of one bot for one challenge, unguessable without the bot's secret."""
    if not secret:
        raise ValueError("a challenge seed needs the installation's secret")
    digest = hmac.new(secret, f"kokeshi:{kind}:{key}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def week_streak(weeks: Sequence[str], this_week: str) -> int:
    """Consecutive ISO weeks ("2026-W48") with a weekly attempt, ending this week (or the last, if this one is not
    played yet)."""

    def monday(key: str) -> dt.date | None:
        year, _w, week = key.partition("-W")
        try:
            return dt.date.fromisocalendar(int(year), int(week), 1)
        except ValueError:
            return None

    played = {m for m in map(monday, weeks) if m is not None}
    start = monday(this_week)
    if start is None:
        return 0
    week = start if start in played else start - dt.timedelta(days=7)
    count = 0
    while week in played:
        count += 1
        week -= dt.timedelta(days=7)
    return count


def streak(days: Sequence[str], today: dt.date) -> int:
    """Consecutive days with a daily attempt, ending today (or yesterday, if today is not played yet)."""
    played = {dt.date.fromisoformat(d) for d in days}
    day = today if today in played else today - dt.timedelta(days=1)
    count = 0
    while day in played:
        count += 1
        day -= dt.timedelta(days=1)
    return count
