"""The buttons of a game's final message: *Replay* on every game, *Rematch* at a table, *Share* on a challenge."""

from __future__ import annotations

import discord

from i18n import _
from storage import GameRecord

from .rematch import RematchButton
from .replay import replay_view
from .share import ShareButton


def final_view(record: GameRecord) -> discord.ui.View:
    """The final message's buttons, in the current language."""
    view = replay_view(record.id)
    if record.challenge:
        view.add_item(ShareButton(record.id, _("Share")))
    elif not record.solo:
        view.add_item(RematchButton(record.id, _("Rematch")))
    return view


__all__ = ["final_view"]
