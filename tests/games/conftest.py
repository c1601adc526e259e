"""The tiny test game is registered for every contract test, whatever other tests ran before in this process."""

from __future__ import annotations

import pytest

import games

from . import tiny


@pytest.fixture(autouse=True)
def _bids_registered() -> None:
    # Other tests register Bids for themselves and unregister it after: here it is always there.
    games.register(tiny.MODULE)
