"""The buttons and menus of the platform's own table: what each carries in its `custom_id` (so it works after a
restart) and which handler of the table (`cogs.matches.Matches`) it calls."""

from __future__ import annotations

import logging
from collections.abc import Coroutine, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

import discord

from i18n import _, ngettext

from .answering import Answer, AnswersFirst
from .client import ShareDesk
from .limits import BUTTON_LABEL, SELECT_OPTION, SELECT_PLACEHOLDER, one_emoji, shorten
from .persistent import FromCustomId

log = logging.getLogger(__name__)

MAX_BUTTONS = 5
MAX_SELECT = 25
# Menus one message may hold for one decision: a message has five rows, and one is left for Hint, Undo and the like.
MAX_MENUS = 4
_ACTION = r"[A-Za-z0-9:_.\-]{1,40}"
# What an entry of a first step's menu (`MatchGroup`) is: a group of choices, or a choice in no group, taken at once.
GROUP_MARK, ACTION_MARK = "g:", "a:"


class Choice(NamedTuple):
    """One choice as a button or a menu line shows it: the value it sends back, its label (a button's), the line
    under it in a menu ("": none), its emoji (None: none) and its label in a menu ("": `label`)."""

    value: str
    label: str
    detail: str = ""
    emoji: str | None = None
    menu_label: str = ""

    def option(self, chosen: str = "") -> discord.SelectOption:
        """The choice as a menu line, marked when it is the `chosen` value; cut to Discord's limits."""
        return discord.SelectOption(
            label=shorten(self.menu_label or self.label, SELECT_OPTION),
            value=self.value,
            description=shorten(self.detail, SELECT_OPTION) or None,
            emoji=one_emoji(self.emoji),
            default=self.value == chosen,
        )


class _Bot(Protocol):
    shares: ShareDesk


class LobbyDesk(Protocol):
    """The lobbies (`cogs.match_lobbies.MatchLobbies`) as a lobby's buttons and a final post's Rematch call them."""

    async def on_lobby(self, interaction: discord.Interaction, game_id: int, op: str) -> None: ...

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...


class Desk(Protocol):
    """The table as its buttons call it (`cogs.matches.Matches`)."""

    @property
    def bot(self) -> _Bot: ...

    async def guard(self, interaction: discord.Interaction, coro: Coroutine[Any, Any, Any]) -> None: ...

    async def on_action(self, interaction: discord.Interaction, game_id: int, version: int, action: str) -> None: ...

    async def on_group(self, interaction: discord.Interaction, game_id: int, version: int, group: str) -> None: ...

    async def on_choose(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def on_since(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def on_hint(self, interaction: discord.Interaction, game_id: int) -> None: ...

    async def undo(self, interaction: discord.Interaction, game_id: int | None = None) -> None: ...

    @property
    def lobbies(self) -> LobbyDesk: ...


def platform_desk(interaction: discord.Interaction) -> Desk:
    """The platform's table, as its buttons call it (and Kokeshi's own buttons, for a game that moved to it)."""
    return interaction.client.matches  # type: ignore[attr-defined]  # the bot's; cogs never import bot.py


_desk = platform_desk


def private_message(interaction: discord.Interaction) -> bool:
    """Whether the clicked message is a private one (its flags say ephemeral)."""
    message = interaction.message
    return bool(message is not None and message.flags.ephemeral)


class _MatchButton(
    FromCustomId,
    AnswersFirst,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"(?!)",
):
    """A button of the other games' table: its custom_id carries the game and what its `FIELDS` name (this base's
    template matches nothing; each kind of button has its own)."""

    game_id: int

    def __init__(
        self,
        custom_id: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=shorten(label, BUTTON_LABEL), style=style, emoji=one_emoji(emoji), custom_id=custom_id
        )
        super().__init__(button)


class MatchAction(_MatchButton, template=rf"mt:a:(?P<game_id>\d+):(?P<version>\d+):(?P<action>{_ACTION})"):
    """One choice of a contract game's prompt, public in the thread or in a seat's private choices."""

    answer = Answer.UPDATE
    FIELDS = {"game_id": int, "version": int, "action": str}

    def __init__(self, game_id: int, version: int, action: str, label: str, emoji: str | None = None) -> None:
        super().__init__(f"mt:a:{game_id}:{version}:{action}", label, discord.ButtonStyle.primary, emoji)
        self.game_id, self.version, self.action = game_id, version, action

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        await desk.guard(interaction, desk.on_action(interaction, self.game_id, self.version, self.action))


class MatchSelect(
    FromCustomId,
    AnswersFirst,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"mt:s:(?P<game_id>\d+):(?P<version>\d+)(?::(?P<part>\d))?",
):
    """A menu of choices, when there are more than fit as buttons; `part` numbers the menus after the first when the
    choices need several (a message's custom_ids differ)."""

    answer = Answer.UPDATE
    FIELDS = {"game_id": int, "version": int}

    def __init__(self, game_id: int, version: int, choices: Sequence[Choice], placeholder: str, part: int = 0) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mt:s:{game_id}:{version}" + (f":{part}" if part else ""),
                placeholder=shorten(placeholder, SELECT_PLACEHOLDER),
                options=[choice.option() for choice in choices[:MAX_SELECT]],
            )
        )
        self.game_id, self.version = game_id, version

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        action = self.item.values[0]
        await desk.guard(interaction, desk.on_action(interaction, self.game_id, self.version, action))


class MatchGroup(
    FromCustomId,
    AnswersFirst,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"mt:g:(?P<game_id>\d+):(?P<version>\d+)(?::(?P<part>\d))?",
):
    """The first of two steps, when a prompt's choices come in groups (a tile, then where it goes): a menu of the
    groups, and of the choices in none (taken at once). A group's own choices open privately: in a private message
    of their own from the thread, in place on a private message; `part` numbers the menus after the first."""

    FIELDS = {"game_id": int, "version": int}

    def __init__(
        self,
        game_id: int,
        version: int,
        entries: Sequence[Choice],
        placeholder: str,
        part: int = 0,
        chosen: str = "",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"mt:g:{game_id}:{version}" + (f":{part}" if part else ""),
                placeholder=shorten(placeholder, SELECT_PLACEHOLDER),
                options=[entry.option(chosen) for entry in entries[:MAX_SELECT]],
            )
        )
        self.game_id, self.version = game_id, version

    def answer_for(self, interaction: discord.Interaction) -> Answer:
        # A choice taken at once, or a group shown in place of the private message it was picked on, updates the
        # clicked message; a group picked in the thread answers privately.
        data: Mapping[str, Any] = interaction.data or {}
        values = data.get("values") or [""]
        if private_message(interaction) or str(values[0]).startswith(ACTION_MARK):
            return Answer.UPDATE
        return Answer.PRIVATE

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        value = self.item.values[0]
        if value.startswith(ACTION_MARK):
            action = value.removeprefix(ACTION_MARK)
            await desk.guard(interaction, desk.on_action(interaction, self.game_id, self.version, action))
        else:
            group = value.removeprefix(GROUP_MARK)
            await desk.guard(interaction, desk.on_group(interaction, self.game_id, self.version, group))


class MatchChoose(_MatchButton, template=r"mt:c:(?P<game_id>\d+):(?P<version>\d+)"):
    """Opens the clicking seat's own choices privately (secret or simultaneous decisions)."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int, "version": int}

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            f"mt:c:{game_id}:{version}", _("Your choice (private)"), discord.ButtonStyle.success, emoji="🔒"
        )
        self.game_id, self.version = game_id, version

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        await desk.guard(interaction, desk.on_choose(interaction, self.game_id))


class MatchLobby(_MatchButton, template=r"mt:l:(?P<game_id>\d+):(?P<op>join|leave|start|cancel)"):
    """A lobby's Join, Leave, Start and Cancel."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int, "op": str}

    def __init__(self, game_id: int, op: str) -> None:
        labels = {"join": _("Join"), "leave": _("Leave"), "start": _("Start"), "cancel": _("Cancel")}
        styles = {"join": discord.ButtonStyle.success, "cancel": discord.ButtonStyle.danger}
        super().__init__(f"mt:l:{game_id}:{op}", labels[op], styles.get(op, discord.ButtonStyle.secondary))
        self.game_id, self.op = game_id, op

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        await desk.guard(interaction, desk.lobbies.on_lobby(interaction, self.game_id, self.op))


class MatchHint(_MatchButton, template=r"mt:h:(?P<game_id>\d+)"):
    """Privately, what the strongest AI would choose now for the clicking seat."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int}

    def __init__(self, game_id: int) -> None:
        super().__init__(f"mt:h:{game_id}", _("Hint"), emoji="💡")
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        await desk.guard(interaction, desk.on_hint(interaction, self.game_id))


class MatchUndo(_MatchButton, template=r"mt:u:(?P<game_id>\d+):(?P<version>\d+)"):
    """Takes back the clicking seat's last choice of this turn."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int, "version": int}

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(f"mt:u:{game_id}:{version}", _("Undo"), emoji="↩️")
        self.game_id, self.version = game_id, version

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        await desk.guard(interaction, desk.undo(interaction, self.game_id))


class MatchRematch(_MatchButton, template=r"mt:r:(?P<game_id>\d+)"):
    """On a finished table's final post: the same game again, with the same settings, seats and AI levels."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int}

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(f"mt:r:{game_id}", label or _("Rematch"), discord.ButtonStyle.success, emoji="🔁")
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        await desk.guard(interaction, desk.lobbies.rematch(interaction, self.game_id))


class MatchShare(_MatchButton, template=r"mt:p:(?P<game_id>\d+)"):
    """On a finished challenge's final post: its card (score, rank, streak; no board) posted for the channel."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int}

    def __init__(self, game_id: int) -> None:
        super().__init__(f"mt:p:{game_id}", _("Share"), discord.ButtonStyle.success, emoji="📣")
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        await desk.guard(interaction, desk.bot.shares.share(interaction, self.game_id))


class MatchSince(_MatchButton, template=r"mt:w:(?P<game_id>\d+)"):
    """Privately, for the clicking seat: what happened since its last turn, the table as it stands with that marked,
    and its choices when it decides now."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int}

    def __init__(self, game_id: int) -> None:
        super().__init__(f"mt:w:{game_id}", _("Since your last turn"), emoji="🕑")
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        desk = _desk(interaction)
        await desk.guard(interaction, desk.on_since(interaction, self.game_id))


ITEMS = (
    MatchAction,
    MatchSelect,
    MatchGroup,
    MatchChoose,
    MatchLobby,
    MatchHint,
    MatchUndo,
    MatchRematch,
    MatchShare,
    MatchSince,
)


def lobby_view(game_id: int) -> discord.ui.View:
    """The lobby's buttons."""
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start", "cancel"):
        view.add_item(MatchLobby(game_id, op))
    return view


def choices_view(game_id: int, version: int, choices: Sequence[Choice], placeholder: str) -> discord.ui.View:
    """Choices (their values: actions) as buttons (up to five) or a menu; more than a menu holds, in several menus
    of 25 in the choices' order (up to `MAX_MENUS`, a row being left for the table's own buttons), each placeholder
    saying which part of the choices it holds."""
    view = discord.ui.View(timeout=None)
    for item in _choice_items(game_id, version, choices, placeholder):
        view.add_item(item)
    return view


def _choice_items(
    game_id: int, version: int, choices: Sequence[Choice], placeholder: str
) -> list[discord.ui.Item[Any]]:
    if as_buttons(choices):
        return [MatchAction(game_id, version, c.value, c.label, c.emoji) for c in choices]
    if len(choices) <= MAX_SELECT:
        return [MatchSelect(game_id, version, choices, placeholder)]
    if len(choices) > MAX_SELECT * MAX_MENUS:
        log.warning("game %d: %d choices, more than %d menus hold", game_id, len(choices), MAX_MENUS)
    return [
        MatchSelect(game_id, version, chunk, _part_of(placeholder, part, len(chunk), len(choices)), part)
        for part, chunk in enumerate(_chunks(choices))
    ]


def as_buttons(choices: Sequence[Choice]) -> bool:
    """Whether choices are shown as buttons: when they are few enough, and each button's label, cut to fit one, is
    its own (two labels alike but for their ends are told apart in a menu, by its lines and the lines under them)."""
    labels = {shorten(c.label, BUTTON_LABEL) for c in choices}
    return len(choices) <= MAX_BUTTONS and len(labels) == len(choices)


def _chunks(entries: Sequence[Any]) -> list[Sequence[Any]]:
    """Entries 25 to a menu, in their order, as many menus as a message holds for one decision."""
    return [entries[i : i + MAX_SELECT] for i in range(0, len(entries), MAX_SELECT)][:MAX_MENUS]


def _part_of(placeholder: str, part: int, size: int, total: int) -> str:
    """A placeholder with the part of the choices its menu holds, the placeholder cut so that the part shows."""
    first = part * MAX_SELECT + 1
    where = f" · {first}–{first + size - 1}/{total}"
    return shorten(placeholder, SELECT_PLACEHOLDER - len(where)) + where


def in_two_steps(groups: Sequence[str]) -> bool:
    """Whether choices in these groups (one per choice, in order; "" for none) are asked in two steps, the group
    first: when there are more than fit as buttons and their groups (each choice in none counting as one) make a
    shorter list, of two or more."""
    entries = len({g for g in groups if g}) + sum(1 for g in groups if not g)
    return len(groups) > MAX_BUTTONS and 2 <= entries < len(groups)


def group_entry(group: str, label: str, count: int, detail: str | None = None) -> Choice:
    """A group as an entry of a first step's menu (`MatchGroup`): its label, and under it the game's `detail` of
    it, or how many choices it has."""
    return Choice(GROUP_MARK + group, label, detail or ngettext("{n} choice", "{n} choices", count).format(n=count))


def action_entry(choice: Choice) -> Choice:
    """A choice in no group as an entry of a first step's menu, taken when picked."""
    return choice._replace(value=ACTION_MARK + choice.value)


def groups_view(
    game_id: int,
    version: int,
    entries: Sequence[Choice],
    placeholder: str,
    chosen: str = "",
    choices: Sequence[Choice] = (),
) -> discord.ui.View:
    """A choice in two steps. The first: the entries of `group_entry` and `action_entry` in menus of 25. The second
    (`chosen`, a group): its `choices`, as
    `choices_view` shows them, under the entries' menu with the group marked, to pick another (when one menu holds
    them)."""
    view = discord.ui.View(timeout=None)
    if not chosen:
        for part, chunk in enumerate(_chunks(entries)):
            where = placeholder if len(entries) <= MAX_SELECT else _part_of(placeholder, part, len(chunk), len(entries))
            view.add_item(MatchGroup(game_id, version, chunk, where, part))
        return view
    # The choices take at most `MAX_MENUS` rows: the entries' menu has the fifth.
    if len(entries) <= MAX_SELECT:
        view.add_item(MatchGroup(game_id, version, entries, placeholder, chosen=GROUP_MARK + chosen))
    for item in _choice_items(game_id, version, choices, placeholder):
        view.add_item(item)
    return view


__all__ = [
    "Choice",
    "ITEMS",
    "MAX_BUTTONS",
    "MatchAction",
    "MatchChoose",
    "MatchGroup",
    "MatchHint",
    "MatchLobby",
    "MatchRematch",
    "MatchSelect",
    "MatchShare",
    "MatchSince",
    "MatchUndo",
    "action_entry",
    "as_buttons",
    "choices_view",
    "group_entry",
    "groups_view",
    "in_two_steps",
    "lobby_view",
    "private_message",
]
