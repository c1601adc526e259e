"""Kokeshi rules engine: pure, deterministic, no I/O, no words. A game is (rules version, options, seed, actions).

It speaks in codes with values (event kinds, reasons, refusals, option codes); `games.kokeshi.vocab` words them.
"""

from .ai import LEVELS, EasyPolicy, Hint, SearchPolicy, policy
from .data import ANIMALS, COLORS, CURRENT_RULES, KOKESHI, RULES_VERSIONS
from .game import AUTOMA, PROMPT_KINDS, Game, idle_warning, new_game, replay
from .model import END_REASONS, REASONS, REFUSALS, Event, IllegalAction, Option, Prompt, Score
from .persist import load_game
from .policies import GreedyPolicy, RandomPolicy, heuristic, play_out

__all__ = [
    "ANIMALS",
    "AUTOMA",
    "COLORS",
    "CURRENT_RULES",
    "END_REASONS",
    "KOKESHI",
    "PROMPT_KINDS",
    "REASONS",
    "REFUSALS",
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
    "load_game",
    "new_game",
    "play_out",
    "policy",
    "replay",
]
