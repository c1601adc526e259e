"""Buttons and menus that keep what they are about in their custom_id, read back from it after a restart."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self

import discord


class FromCustomId:
    """Mixin for a `discord.ui.DynamicItem` whose template's named groups are its fields.

    `FIELDS` maps each group to the type it is read as. A click (after a restart too) is handled by the item as
    Discord sent it, those fields set from its custom_id: its label, style and options are not made again.
    """

    FIELDS: ClassVar[Mapping[str, Callable[[str], Any]]] = {}

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        made = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(made, item)  # type: ignore[arg-type]  # a DynamicItem, by the subclass
        for name, kind in cls.FIELDS.items():
            setattr(made, name, kind(match[name]))
        return made


__all__ = ["FromCustomId"]
