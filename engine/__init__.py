"""Kokeshi rules engine: pure, deterministic, no I/O. A game is (rules version, options, seed, actions)."""

from . import vocab
from .data import ANIMALS, COLORS, CURRENT_RULES, KOKESHI, RULES_VERSIONS
from .game import AUTOMA, Game, new_game, replay
from .model import Event, IllegalAction, Option, Prompt, Score
from .policies import GreedyPolicy, RandomPolicy, heuristic, play_out

__all__ = [
    "ANIMALS",
    "AUTOMA",
    "COLORS",
    "CURRENT_RULES",
    "KOKESHI",
    "RULES_VERSIONS",
    "Event",
    "Game",
    "GreedyPolicy",
    "IllegalAction",
    "Option",
    "Prompt",
    "RandomPolicy",
    "Score",
    "heuristic",
    "new_game",
    "play_out",
    "replay",
    "vocab",
]
