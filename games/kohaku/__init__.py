"""Kōhaku (Danny Devine): draft a koi and a feature, build the most harmonious pond; solo against Danny.

The rules package is pure and deterministic: `deal`, `Match`, `replay`, `load_match` and the value types import
nothing of Discord, Pillow, databases or i18n. Words (`games.kohaku.words`), pictures (`games.kohaku.pictures`) and the
computer players (`games.kohaku.ai`) are imported on their own.
"""

from .data import CURRENT_RULES, GOALS, RULES_VERSIONS
from .model import Event, IllegalAction, Option, Outcome, Prompt
from .persist import load_match
from .rules import DANNY, Match, deal, replay

__all__ = [
    "CURRENT_RULES",
    "DANNY",
    "GOALS",
    "RULES_VERSIONS",
    "Event",
    "IllegalAction",
    "Match",
    "Option",
    "Outcome",
    "Prompt",
    "deal",
    "load_match",
    "replay",
]
