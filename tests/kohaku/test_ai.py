"""Kōhaku's computer players: legal answers at every kind of prompt, and no use of hidden information."""

from __future__ import annotations

import random

import pytest

from games.kohaku import Match, deal
from games.kohaku.ai import LEVELS, Hint, Policy, policy


def positions(count: int, seed: int) -> list[Match]:
    """Positions from seeded random games of every size, goal-card choices included."""
    out: list[Match] = []
    i = 0
    while len(out) < count:
        seats = 1 + i % 4
        m = deal(seats, seed=seed + i, goals=seats > 1 and i % 2 == 0)
        rng = random.Random(seed + i)
        step = 0
        while not m.is_over and len(out) < count:
            if step % 11 == i % 11 or m.phase == "goals":
                out.append(m.clone())
            seat = m.waiting()[0]
            m.apply(seat, rng.choice(m.legal_actions(seat)))
            step += 1
        i += 1
    return out


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_every_level_answers_every_prompt_legally(level):
    player = policy(level, seed=3)
    for m in positions(30, 100):
        for seat in m.waiting():
            hint = player.explain(m, seat)
            assert isinstance(hint, Hint) and hint.action in m.legal_actions(seat)
            assert isinstance(hint.gain, float)


@pytest.mark.slow
def test_the_hard_level_answers_legally():
    player = policy("hard", seed=1)
    for m in positions(6, 300):
        seat = m.waiting()[0]
        assert player.choose(m, seat) in m.legal_actions(seat)


@pytest.mark.slow
def test_a_choice_does_not_depend_on_hidden_information():
    # The same view with different hidden parts (stack and box contents, future draws, others' goal cards): the
    # same choice, at every level.
    for level in LEVELS:
        player = Policy(level, seed=7)
        for i, m in enumerate(positions(4 if level == "hard" else 16, 500)):
            seat = m.waiting()[0]
            other = m.determinized(seat, 10_000 + i)
            assert other.view(seat) == m.view(seat)
            assert other.to_json() != m.to_json()
            assert player.choose(other, seat) == player.choose(m, seat)


@pytest.mark.slow
def test_a_whole_game_between_levels_ends():
    m = deal(3, seed=8, goals=True)
    players = [policy("easy", seed=1), policy("normal", seed=2), policy("easy", seed=3)]
    while not m.is_over:
        seat = m.waiting()[0]
        m.apply(seat, players[seat].choose(m, seat))
    assert m.outcome() is not None


def test_unknown_levels_and_finished_games_are_refused():
    with pytest.raises(ValueError):
        policy("expert")
    m = deal(2, seed=1)
    rng = random.Random(1)
    while not m.is_over:
        seat = m.waiting()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    with pytest.raises(ValueError):
        policy("easy").choose(m)
