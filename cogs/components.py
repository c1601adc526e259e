"""Persistent buttons and menus: a custom_id carries game, version and action, so it survives restarts."""

from __future__ import annotations

from typing import Any

import discord

from games.kokeshi import vocab
from games.kokeshi.engine import Game, Option, Prompt
from games.kokeshi.engine.preview import Outcome, preview_all
from games.kokeshi.vocab import N_
from i18n import _

from .answering import Answer, AnswersFirst
from .client import TableDesk
from .limits import BUTTON_LABEL, SELECT_OPTION, SELECT_PLACEHOLDER, shorten
from .persistent import FromCustomId

MAX_BUTTONS = 5
MAX_SELECT = 25


def _tables(interaction: discord.Interaction) -> TableDesk:
    return interaction.client.tables  # type: ignore[attr-defined]  # the bot's, and cogs do not import bot.py


ACTION_TEMPLATE = r"kk:a:(?P<game_id>\d+):(?P<version>\d+):(?P<action>[a-z0-9:]+)"
LOBBY_TEMPLATE = r"kk:l:(?P<game_id>\d+):(?P<op>join|leave|start|cancel)"


class ActionButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=ACTION_TEMPLATE):
    """One answer to the game's prompt; the click is acknowledged at once, the thread then shows the move."""

    answer = Answer.UPDATE
    FIELDS = {"game_id": int, "version": int, "action": str}

    def __init__(
        self,
        game_id: int,
        version: int,
        option: Option,
        style: discord.ButtonStyle | None = None,
        outcome: Outcome | None = None,
        brief: bool = False,
        starting: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=_button_label(option, outcome, brief, starting),
                style=style or discord.ButtonStyle.primary,
                emoji=vocab.option_emoji(option.id),
                custom_id=f"kk:a:{game_id}:{version}:{option.id}",
            )
        )
        self.game_id = game_id
        self.version = version
        self.action = option.id

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_action(interaction, self.game_id, self.version, self.action)


class _GameSelect(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Select], template=r"(?!)"):
    """A menu whose custom_id carries the game and its version; subclasses say what a choice does (this base's
    template matches nothing)."""

    FIELDS = {"game_id": int, "version": int}
    game_id: int
    version: int


class ActionSelect(_GameSelect, template=r"kk:s:(?P<game_id>\d+):(?P<version>\d+)"):
    """A menu of answers when there are more than fit as buttons."""

    answer = Answer.UPDATE

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[Option],
        placeholder: str,
        outcomes: dict[str, Outcome] | None = None,
    ) -> None:
        shown = options[:MAX_SELECT]
        lines = [
            discord.SelectOption(
                label=shorten(label, SELECT_OPTION),
                value=o.id,
                emoji=vocab.option_emoji(o.id),
                description=shorten(description, SELECT_OPTION) or None,
            )
            for o, (label, description) in zip(
                shown, vocab.menu_lines(shown, outcomes or {}, SELECT_OPTION), strict=True
            )
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"kk:s:{game_id}:{version}",
                placeholder=shorten(placeholder, SELECT_PLACEHOLDER),
                options=lines,
            )
        )
        self.game_id = game_id
        self.version = version

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_action(interaction, self.game_id, self.version, self.item.values[0])


class TileSelect(_GameSelect, template=r"kk:t:(?P<game_id>\d+):(?P<version>\d+)"):
    """Placement with many choices, in two steps: first the tile, then (privately) its track."""

    def __init__(
        self, game_id: int, version: int, tiles: list[tuple[str, str]], where: dict[str, str] | None = None
    ) -> None:
        lines = [
            discord.SelectOption(
                label=shorten(label, SELECT_OPTION),
                value=tile,
                description=shorten((where or {}).get(tile, ""), SELECT_OPTION) or None,
            )
            for tile, label in tiles[:MAX_SELECT]
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"kk:t:{game_id}:{version}", placeholder=_("Choose a tile to place"), options=lines
            )
        )
        self.game_id = game_id
        self.version = version

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_tile_chosen(interaction, self.game_id, self.version, self.item.values[0])


class LobbyButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=LOBBY_TEMPLATE):
    """Join, Leave, Start and Cancel on a lobby message."""

    # Labels are looked up in the current language when a button is made (the lobby's: the game's language).
    STYLES: dict[str, tuple[str, discord.ButtonStyle]] = {
        "join": (N_("Join"), discord.ButtonStyle.success),
        "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "start": (N_("Start"), discord.ButtonStyle.primary),
        "cancel": (N_("Cancel"), discord.ButtonStyle.danger),
    }
    FIELDS = {"game_id": int, "op": str}

    def __init__(self, game_id: int, op: str) -> None:
        label, style = self.STYLES[op]
        super().__init__(discord.ui.Button(label=_(label), style=style, custom_id=f"kk:l:{game_id}:{op}"))
        self.game_id = game_id
        self.op = op

    async def callback(self, interaction: discord.Interaction) -> None:
        await _tables(interaction).on_lobby_button(interaction, self.game_id, self.op)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ActionButton, ActionSelect, TileSelect, LobbyButton)


def lobby_view(game_id: int, open_: bool = True) -> discord.ui.View:
    """The lobby's buttons (none once it has started or ended)."""
    view = discord.ui.View(timeout=None)
    if open_:
        for op in ("join", "leave", "start", "cancel"):
            view.add_item(LobbyButton(game_id, op))
    return view


def _brief(
    options: list[Option], outcomes: dict[str, Outcome], limit: int, text, marked: frozenset[str] = frozenset()
) -> bool | None:
    """Whether every option's `text` fits `limit` in full (False) or only briefly (True); None if not even so.
    `marked`: the placements whose starting tile is named one (`vocab.twins`)."""
    for brief in (False, True):
        if all(len(text(o, outcomes.get(o.id), brief, o.id in marked)) <= limit for o in options):
            return brief
    return None


def _button_label(option: Option, outcome: Outcome | None, brief: bool, starting: bool) -> str:
    """An option's button label as `ActionButton` shows it, cut to fit."""
    return shorten(vocab.option_button(option, outcome, brief, starting), BUTTON_LABEL)


def outcomes_of(game: Game | None) -> dict[str, Outcome]:
    """What each option of the game's prompt does (the engine's preview), for the labels; none without a game."""
    return preview_all(game) if game is not None else {}


def prompt_view(
    game_id: int,
    version: int,
    prompt: Prompt,
    game: Game | None = None,
    outcomes: dict[str, Outcome] | None = None,
) -> discord.ui.View:
    """Buttons for up to 5 options, a menu for up to 25, and a tile-then-track menu beyond. With the `game` (or its
    `outcomes`, already previewed), every choice also says what it does: where a kokeshi lands, where a tile
    goes, the pairs and points it makes."""
    view = discord.ui.View(timeout=None)
    options = list(prompt.options)
    outcomes = outcomes if outcomes is not None else outcomes_of(game)
    # Buttons while each one can say whole what it does (briefly, if need be: the picture shows the rest); else a
    # menu, whose lines have a description too.
    # (One character short of the limit: the tile's words follow, cut at a word with "…".)
    marked = vocab.twins(options)
    brief = _brief(options, outcomes, BUTTON_LABEL - 1, vocab.option_core, marked)
    # Buttons only while each says something of its own once cut to fit (two alike but for the tile's words at
    # their end are told apart in a menu, whose lines have room for them).
    labels = {_button_label(o, outcomes.get(o.id), bool(brief), o.id in marked) for o in options}
    if len(options) <= MAX_BUTTONS and brief is not None and len(labels) == len(options):
        for option in options:
            outcome = outcomes.get(option.id)
            view.add_item(
                ActionButton(game_id, version, option, outcome=outcome, brief=brief, starting=option.id in marked)
            )
    elif len(options) <= MAX_SELECT:
        view.add_item(ActionSelect(game_id, version, options, vocab.question(prompt.kind), outcomes))
    else:
        view.add_item(TileSelect(game_id, version, tile_choices(prompt), tile_tracks(prompt)))
    return view


def tile_choices(prompt: Prompt) -> list[tuple[str, str]]:
    """The distinct tiles of a placement prompt: (tile id, label)."""
    seen: dict[str, str] = {}
    marked = vocab.twins(prompt.options)
    for option in prompt.options:
        kind, tile, _track = option.id.split(":")
        if kind == "place" and tile not in seen:
            seen[tile] = vocab.tile_named(tile, starting=option.id in marked)
    return list(seen.items())


def tile_tracks(prompt: Prompt) -> dict[str, str]:
    """For each tile of a placement prompt, the tracks it may go on, as a menu line's description."""
    return vocab.tile_tracks(o.id for o in prompt.options)


def track_view(game_id: int, version: int, prompt: Prompt, tile: str, game: Game | None = None) -> discord.ui.View:
    """The tracks one tile may go on, as buttons (with the `game`, each says the height and the pairs it makes)."""
    view = discord.ui.View(timeout=None)
    outcomes = outcomes_of(game)
    options = [o for o in prompt.options if o.id.startswith(f"place:{tile}:")]
    marked = vocab.twins(prompt.options)
    brief = _brief(options, outcomes, BUTTON_LABEL - 1, vocab.option_core, marked) is not False
    for option in options:
        outcome = outcomes.get(option.id)
        view.add_item(
            ActionButton(game_id, version, option, outcome=outcome, brief=brief, starting=option.id in marked)
        )
    return view


# Each prompt kind's question, looked up in the current language whenever it is read.
QUESTIONS = vocab.Names(("setup", "advance", "effect", "kokeshi", "animal", "buy", "place"), vocab.question)
