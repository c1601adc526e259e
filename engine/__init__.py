"""Kokeshi rules engine: pure, deterministic, no I/O. A game is (rules version, options, seed, actions)."""

from . import vocab
from .ai import LEVELS, EasyPolicy, Hint, SearchPolicy, policy
from .data import ANIMALS, COLORS, CURRENT_RULES, KOKESHI, RULES_VERSIONS
from .game import AUTOMA, PROMPT_KINDS, Game, idle_warning, new_game, replay
from .model import Event, IllegalAction, Option, Prompt, Score
from .policies import GreedyPolicy, RandomPolicy, heuristic, play_out

__all__ = [
    "ANIMALS",
    "AUTOMA",
    "COLORS",
    "CURRENT_RULES",
    "KOKESHI",
    "PROMPT_KINDS",
    "RULES_VERSIONS",
    "LEVELS",
    "EasyPolicy",
    "Event",
    "Game",
    "GreedyPolicy",
    "Hint",
    "IllegalAction",
    "Option",
    "Prompt",
    "RandomPolicy",
    "Score",
    "SearchPolicy",
    "heuristic",
    "idle_warning",
    "new_game",
    "play_out",
    "policy",
    "replay",
    "vocab",
]
