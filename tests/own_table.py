"""What Kokeshi's own table posted, before every game moved to the platform's: its prompts' buttons and menus
(custom_ids `kk:a`, `kk:s`, `kk:t`, `kk:l`, still in old threads) and its words, kept as the reference the platform's
table is held to ("no change for players") and to post an old prompt in tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import discord

from cogs.components import ActionButton, ActionSelect, LobbyButton, TileSelect
from cogs.limits import BUTTON_LABEL, MESSAGE, SELECT_OPTION, SELECT_PLACEHOLDER, shorten
from cogs.rematch import RematchButton
from cogs.replay_items import replay_view
from cogs.share import ShareButton
from cogs.speech import escape
from games.kokeshi import records, story, vocab
from games.kokeshi.engine import Event, Game, Option, Prompt
from games.kokeshi.engine.preview import Outcome, preview_all
from i18n import _

MAX_BUTTONS = 5
MAX_SELECT = 25
# A turn's record and the "so far" of a prompt stayed well inside a Discord message.
MAX_STORY_CHARS = MESSAGE - 300
TURN_ENDS = frozenset({"turn_ended", "setup_done", "game_over"})


def lobby_view(game_id: int) -> discord.ui.View:
    """A lobby's Join, Leave, Start and Cancel, as the own table posted them."""
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start", "cancel"):
        view.add_item(LobbyButton(game_id, op))
    return view


def _action_button(
    game_id: int, version: int, option: Option, outcome: Outcome | None, brief: bool, starting: bool
) -> ActionButton:
    button = ActionButton(game_id, version, option.id, _button_label(option, outcome, brief, starting))
    button.item.emoji = vocab.option_emoji(option.id)
    return button


def _action_select(
    game_id: int, version: int, options: list[Option], placeholder: str, outcomes: dict[str, Outcome]
) -> ActionSelect:
    shown = options[:MAX_SELECT]
    menu = ActionSelect(game_id, version, [])
    menu.item.placeholder = shorten(placeholder, SELECT_PLACEHOLDER)
    menu.item.options = [
        discord.SelectOption(
            label=shorten(label, SELECT_OPTION),
            value=o.id,
            emoji=vocab.option_emoji(o.id),
            description=shorten(description, SELECT_OPTION) or None,
        )
        for o, (label, description) in zip(shown, vocab.menu_lines(shown, outcomes, SELECT_OPTION), strict=True)
    ]
    return menu


def _tile_select(game_id: int, version: int, tiles: list[tuple[str, str]], where: dict[str, str]) -> TileSelect:
    menu = TileSelect(game_id, version, [])
    menu.item.placeholder = _("Choose a tile to place")
    menu.item.options = [
        discord.SelectOption(
            label=shorten(label, SELECT_OPTION),
            value=tile,
            description=shorten(where.get(tile, ""), SELECT_OPTION) or None,
        )
        for tile, label in tiles[:MAX_SELECT]
    ]
    return menu


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
            view.add_item(_action_button(game_id, version, option, outcome, bool(brief), option.id in marked))
    elif len(options) <= MAX_SELECT:
        view.add_item(_action_select(game_id, version, options, vocab.question(prompt.kind), outcomes))
    else:
        view.add_item(_tile_select(game_id, version, tile_choices(prompt), tile_tracks(prompt)))
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
        view.add_item(_action_button(game_id, version, option, outcome, brief, option.id in marked))
    return view


def narrate(events: Iterable[Event], view: dict | None = None, *, limit: int = MAX_STORY_CHARS) -> str:
    """The story of a turn so far, one line per move with what it led to (`games.kokeshi.story`), names shown
    literally; `view` is the game's view now (without it, a neutral one)."""
    lines = story.turn_story(list(events), None, view or {"players": []}, limit=limit)
    return "\n".join(f"• {escape(line)}" for line in lines)


def split_turns(entries: Sequence[Any]) -> tuple[list[list[Any]], list[Any]]:
    """The finished turns among these logged actions (each with the engine `events` it caused), and the actions of
    the turn still going on."""
    turns: list[list[Any]] = []
    current: list[Any] = []
    for entry in entries:
        current.append(entry)
        if any(e.kind in TURN_ENDS for e in entry.events):
            turns.append(current)
            current = []
    return turns, current


def record_alt(number: int, player: str) -> str:
    """A turn record's picture, for a screen reader, in the words both tables used."""
    return _("{game} #{number}: {picture}").format(game="Kokeshi", number=number, picture=records.record_alt(player))


def prompt_alt(number: int, player: str, kind: str) -> str:
    """A prompt's picture, for a screen reader, in the words both tables used."""
    return _("{game} #{number}, {picture}").format(
        game="Kokeshi", number=number, picture=records.decision_alt(player, kind)
    )


async def post_final(channel: discord.abc.Messageable, game_id: int, *, challenge: bool = False) -> discord.Message:
    """A game's final message as the own table posted it: *Replay*, then *Share* (a challenge) or *Rematch*."""
    view = replay_view(game_id)
    view.add_item(ShareButton(game_id, "Share") if challenge else RematchButton(game_id, "Rematch"))
    return await channel.send(f"**Kokeshi #{game_id} is over.**", view=view)
