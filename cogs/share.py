"""Share cards: a challenge result posted for the channel to see, without a move or the board in it.

Everyone plays the same draws of a daily or weekly challenge, so a card says only what cannot help another player:
the score, the rank, the streak and the points of each score item (as emoji in the text, as bars in the picture).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging

import discord

import games
import i18n
import render
from i18n import _, ngettext
from render import ShareCard
from storage import GameRecord, Result, challenge_key

from . import common
from .answering import Answer, AnswersFirst
from .client import Client
from .common import UserError, challenge_day
from .limits import BUTTON_LABEL, MESSAGE, shorten
from .offer import challenge_hint
from .persistent import FromCustomId
from .speech import speaking

log = logging.getLogger(__name__)

BUTTON_TEMPLATE = r"kk:h:(?P<game_id>\d+)"


class ShareButton(FromCustomId, AnswersFirst, discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    """*Share* on a challenge's final message; it works after a restart like every other button."""

    answer = Answer.PRIVATE
    FIELDS = {"game_id": int}

    def __init__(self, game_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=shorten(label, BUTTON_LABEL) or None,
                emoji="📣",
                style=discord.ButtonStyle.success,
                custom_id=f"kk:h:{game_id}",
            )
        )
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        shares: Shares = interaction.client.shares  # type: ignore[attr-defined]  # the bot's own
        await shares.bot.tables.guard(interaction, self.game_id, shares.share(interaction, self.game_id))


SHARE_ITEMS = (ShareButton,)


@dataclasses.dataclass(frozen=True)
class Card:
    """A share card as posted: its words, its picture's contents and the picture's alt text."""

    text: str
    picture: ShareCard
    alt: str


class Shares:
    """Makes and posts share cards; the button calls it."""

    def __init__(self, bot: Client) -> None:
        self.bot = bot

    @property
    def store(self):
        return self.bot.store

    async def share(self, interaction: discord.Interaction, game_id: int) -> None:
        """Post the card of a finished challenge game (of any game) in the channel it was played from, for
        everyone."""
        record = await self.store.get_game(game_id)
        if not record.challenge or record.status != "finished":
            raise UserError(_("Only a finished daily or weekly challenge can be shared."))
        if interaction.user.id != record.host_id:
            raise UserError(_("Only the player of this challenge can share its result."))
        with speaking(record):
            card = await self.card(record, interaction.user.mention, interaction.user.display_name)
        data = await asyncio.to_thread(render.share_card, card.picture)
        channel = self.bot.get_channel(record.channel_id) if record.channel_id else None
        if not isinstance(channel, discord.abc.Messageable):
            channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)  # a button is clicked in a channel
        file = common.picture(data, render.filename(f"{record.game}-{record.id}-share"), card.alt)
        try:
            message = await channel.send(card.text, file=file, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("game %d: could not post its share card: %s", record.id, exc)
            raise UserError(
                _("Discord would not show the card here ({status}). Please try again.").format(status=exc.status)
            ) from None
        await self.bot.tables.tell(interaction, _("Shared: {link}").format(link=message.jump_url))

    async def standing(self, record: GameRecord) -> Standing:
        """Where a finished challenge game stands: its player's result, the challenge's title, the rank (or that
        it was a practice run) and the streak, in the current language."""
        assert record.challenge is not None and record.host_id is not None  # a challenge game has its player
        kind, key = record.challenge.split(":", 1)
        user_id = record.host_id
        mine = next(r for r in await self.store.results(record.id) if r.user_id == user_id)
        game = record.game
        attempts = await self.store.challenge_attempts(user_id, kind, key, game=game)
        rated = any(a["game_id"] == record.id and a["rated"] for a in attempts)
        if kind == "daily":
            title = _("Daily challenge · {day}").format(day=challenge_day(key))
            count = await self.store.streak(user_id, dt.date.fromisoformat(key), game=game)
            streak = ngettext("{count}-day streak", "{count}-day streak", count)
        else:
            title = _("Weekly challenge · {week}").format(week=key)
            count = await self.store.week_streak(user_id, key, game=game)
            streak = ngettext("{count}-week streak", "{count}-week streak", count)
        streak = streak.format(count=i18n.format_number(count))
        if rated:
            entry = await self.store.leaderboard_entry(kind, None, user_id, key, game=game)
            _rows, players = await self.store.leaderboard_page(kind, None, key, size=1, game=game)
            # While the day (or week) lasts, the rank may still change.
            going = key == challenge_key(kind, discord.utils.utcnow())
            rank = (_("#{rank} of {players} so far") if going else _("#{rank} of {players}")).format(
                rank=i18n.format_number(entry.rank if entry else 0), players=i18n.format_number(players)
            )
        else:
            rank = _("practice run, not ranked")
        return Standing(mine, kind, title, rank, streak)

    async def card(self, record: GameRecord, mention: str, name: str) -> Card:
        """The card of a finished challenge game, in the current language: the score, the rank (or that it was a
        practice run), the streak and each score item's points, named by the game (`GameModule.stat_label`, or its
        `stat_symbol` in the one-line summary) in the order of its `stat_keys`, those its variant cannot score left
        out; nothing of the moves or the board."""
        module = games.get(record.game)
        at = await self.standing(record)
        mine = at.result
        named = tuple(
            (module.stat_label(k), int(mine.details.get(k, 0)))
            for k in module.scored_keys(record.settings)
            if k != "total"
        )
        summary = " · ".join(
            f"{module.stat_symbol(k) or module.stat_label(k)} {i18n.format_points(int(mine.details.get(k, 0)))}"
            for k in module.scored_keys(record.settings)
            if k != "total"
        )
        lines = [at.rank, at.streak]
        won = module.solo_win() if mine.rank == 1 else None
        if won:
            lines.append(won)
        total = i18n.format_points(mine.total)
        score = ngettext("**{total}** point", "**{total}** points", mine.total).format(total=total)
        text = "\n".join(
            (
                " ".join(part for part in (module.emoji, f"**{module.name}**") if part) + f" · {at.title}",
                " · ".join([f"{mention}: {score}", at.rank, f"🔥 {at.streak}", *lines[2:]]),
                summary,
                challenge_hint(module, at.kind),
            )
        )
        points = ngettext("point", "points", mine.total)
        picture = ShareCard(at.title, name, total, points, tuple(lines), named, game=module.name)
        return _card(text, picture, named, mine.total)


@dataclasses.dataclass(frozen=True)
class Standing:
    """A finished challenge game as its card tells it: the player's result and the words around it."""

    result: Result
    kind: str  # daily or weekly
    title: str
    rank: str
    streak: str


def _card(text: str, picture: ShareCard, named: tuple[tuple[str, int], ...], total: int) -> Card:
    """A card with its alt text: the picture's words read out."""
    alt = _("{player}, {challenge}: {total} ({lines}). By score item: {items}.").format(
        player=picture.player,
        challenge=picture.title,
        total=ngettext("{count} point", "{count} points", total).format(count=picture.total),
        lines=", ".join(picture.lines),
        items=", ".join(f"{item} {i18n.format_points(v)}" for item, v in named),
    )
    return Card(shorten(text, MESSAGE), picture, alt)


__all__ = ["SHARE_ITEMS", "Card", "ShareButton", "Shares"]
