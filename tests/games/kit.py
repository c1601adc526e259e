"""Helpers for the contract suite: every game under test, its table configurations, and seeded random games."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from typing import Any

import games
from games.base import Event, GameModule, Match

from . import tiny

games.register(tiny.MODULE)

# Every built-in game and the tiny one the tests keep for themselves.
KEYS: tuple[str, ...] = (*games.BUILTIN, tiny.MODULE.key)

# A seed no number in a picture or a sentence would show by chance: 128 bits, as new games get.
SEED = 0xC0FFEE_5EED_1234_ABCD_9876_0F0F_4242_7777


@dataclass(frozen=True)
class Table:
    """One way to deal a game: its options and number of seats."""

    key: str
    options: tuple[tuple[str, Any], ...]
    seats: int

    @property
    def module(self) -> GameModule:
        return games.get(self.key)

    def deal(self, seed: int = SEED) -> Match:
        return self.module.deal(dict(self.options), seed, self.seats)

    def __str__(self) -> str:
        extra = "".join(f"-{k}={v}" for k, v in self.options)
        return f"{self.key}-{self.seats}{extra}"


def tables(key: str) -> list[Table]:
    """Each player count with the default options, then each other setting value at the largest count."""
    module = games.get(key)
    out = [Table(key, (), n) for n in module.players]
    for setting in module.settings:
        for value in setting.choices:
            if value != setting.default:
                out.append(Table(key, ((setting.key, value),), max(module.players)))
    return out


ALL_TABLES: list[Table] = [t for key in KEYS for t in tables(key)]


@dataclass
class Played:
    """A game played to its end by random choices: the actions, and every event by step."""

    table: Table
    seed: int
    actions: list[tuple[int, str]]
    events: list[list[Event]]
    match: Match


@cache
def played(table: Table, seed: int = SEED, choices: int = 0) -> Played:
    """One whole random game of `table` (kept: several tests read it)."""
    actions: list[tuple[int, str]] = []
    events: list[list[Event]] = []
    match = table.deal(seed)
    rng = random.Random(choices)
    while match.waiting():
        seat = rng.choice(match.waiting())
        action = rng.choice(match.legal_actions(seat))
        actions.append((seat, action))
        events.append(match.apply(seat, action))
    return Played(table, seed, actions, events, match)


def positions(table: Table, count: int, seed: int = SEED, choices: int = 0) -> list[Match]:
    """`count` positions of a random game of `table`, spread over it (copies, still to be decided)."""
    record = played(table, seed, choices)
    steps = len(record.actions)
    picks = sorted(random.Random(f"{table}:{choices}").sample(range(steps), min(count, steps)))
    out = []
    match = table.deal(seed)
    for step, (seat, action) in enumerate(record.actions):
        if step in picks:
            out.append(table.module.load(match.to_json()))
        match.apply(seat, action)
    return out
