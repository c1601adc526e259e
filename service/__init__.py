"""The platform's Discord-free service: playing a decision on any game through the game contract (`games.base`).

It knows no game by name and no Discord or storage: it takes a match and returns what happened, for a presenter to
show without calling back.
"""

from .play import Outcome, Refused, play

__all__ = ["Outcome", "Refused", "play"]
