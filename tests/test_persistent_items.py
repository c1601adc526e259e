"""Buttons and menus read back from their custom_id (as after a restart) carry what they were made with."""

from __future__ import annotations

import discord
import pytest

from cogs.clock import ChoiceButton
from cogs.community import PageButton
from cogs.components import ActionButton, ActionSelect, LobbyButton, TileSelect
from cogs.match_items import MatchGroup, group_entry
from cogs.rematch import RematchButton
from cogs.replay import ReplayButton, ReplaySelect
from cogs.share import ShareButton
from games.kokeshi.engine import new_game


def made() -> list[tuple[discord.ui.DynamicItem, dict]]:
    options = list(new_game(["aiko", "botan"], seed=1).prompt.options)
    return [
        (ActionButton(12, 34, options[0].id), {"game_id": 12, "version": 34, "action": options[0].id}),
        (ActionSelect(12, 35, [(o.id, o.id) for o in options]), {"game_id": 12, "version": 35}),
        (TileSelect(13, 36, [("tile", "Tile")]), {"game_id": 13, "version": 36}),
        (MatchGroup(13, 37, [group_entry("s01", "Tile", 5)], "Place", part=1), {"game_id": 13, "version": 37}),
        (LobbyButton(14, "start"), {"game_id": 14, "op": "start"}),
        (ReplayButton(15, 7, "next", "Next"), {"game_id": 15, "turn": 7, "op": "next"}),
        (ReplaySelect(16), {"game_id": 16}),
        (RematchButton(17, "Rematch"), {"game_id": 17}),
        (ShareButton(18, "Share"), {"game_id": 18}),
        (ChoiceButton(19, 2, "end", "End"), {"game_id": 19, "seat": 2, "choice": "end"}),
        (PageButton("g42", "wins", "W-2026", 3, "Next"), {"scope": "g42", "board": "wins", "key": "W-2026", "page": 3}),
    ]


@pytest.mark.parametrize("index", range(len(made())))
async def test_an_item_read_back_from_its_custom_id_has_the_fields_it_was_made_with(index):
    item, fields = made()[index]
    kind = type(item)
    sent = item.item  # what Discord sends back on a click: the component, with its custom_id
    match = kind.__discord_ui_compiled_template__.fullmatch(sent.custom_id)
    assert match is not None, sent.custom_id
    again = await kind.from_custom_id(None, sent, match)
    assert type(again) is kind and again.item is sent
    assert {name: getattr(again, name) for name in fields} == fields
    assert {name: type(getattr(again, name)) for name in fields} == {k: type(v) for k, v in fields.items()}
