"""Baseline players: a seeded random policy and a greedy one-ply lookahead on the score."""

from __future__ import annotations

import random

from .game import Game

# Tiles waiting in the reserve are worth something before they are placed.
_RESERVE_VALUE = 2


def heuristic(game: Game, player: str) -> float:
    """How good `game` looks for `player`: the score if it ended now, plus tiles still to place."""
    seat = game.names.index(player)
    return game.scores()[player].total + _RESERVE_VALUE * len(game.reserve[seat])


class RandomPolicy:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> str:
        """An action id for the player the game is waiting for."""
        return self._rng.choice(game.legal_actions())


class GreedyPolicy:
    """Tries every legal action on a copy with its own draws, keeps the best by `heuristic`; ties by its seed."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> str:
        """An action id for the player the game is waiting for."""
        prompt = game.prompt
        if prompt is None:
            raise ValueError("the game is over")
        player = prompt.player
        # Tried on a copy with draws of its own, so the choice never depends on the hidden bag order.
        base = game.determinized(0)
        best: list[str] = []
        best_value = float("-inf")
        for option in prompt.options:
            trial = base.clone()
            trial.apply(player, option.id)
            value = heuristic(trial, player)
            if value > best_value:
                best, best_value = [option.id], value
            elif value == best_value:
                best.append(option.id)
        return best[0] if len(best) == 1 else self._rng.choice(best)


def play_out(game: Game, policies: dict[str, RandomPolicy | GreedyPolicy], max_decisions: int = 100_000) -> Game:
    """Play `game` to its end with one policy per player name; returns the same game."""
    for _ in range(max_decisions):
        prompt = game.prompt
        if prompt is None:
            return game
        game.apply(prompt.player, policies[prompt.player].choose(game))
    raise RuntimeError("the game did not end")
