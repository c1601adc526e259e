"""The bot as its extensions see it: the client with the tables, the community and the replays bot.py wires in."""

from __future__ import annotations

from .client import Client
from .community import Community
from .matches import Matches
from .replay import Replays
from .share import Shares
from .tables import Tables


class WiredClient(Client):
    """The client whole: what an extension's `setup` receives (`bot.KokeshiBot` builds the three)."""

    tables: Tables
    community: Community
    replays: Replays
    shares: Shares
    matches: Matches
