"""Answer first, work after: every command and click is acknowledged before the bot touches its store.

Discord drops an interaction that is not answered within 3 seconds. A busy database, a game lock held by another
move or a slow picture must never be the reason, so the acknowledgement does not wait for any of them: the command
tree acknowledges every slash command before its callback runs, and every button or menu of the bot (a subclass of
`AnswersFirst`) acknowledges its click before its callback. The work then answers with follow-ups, which Discord
accepts for 15 minutes.

How each one is acknowledged is declared where it is defined (`answer=` of a command's extras, `answer` of an
item class): privately ("Kokeshi is thinking…" only the person sees, then a private follow-up), as an update of
the clicked message (no new message; the thread shows the result), or by the handler itself when it answers at
once without the store (like `/kokeshi help`).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

import i18n

from .anywhere import bot_server, command_name, server_only, server_only_text

log = logging.getLogger(__name__)


class Answer(enum.StrEnum):
    """How an interaction is acknowledged before its handler works."""

    PRIVATE = "private"  # a private "thinking…", replaced by the first private follow-up
    UPDATE = "update"  # a click on a message the work changes or leaves: no new message
    SELF = "self"  # the handler answers at once itself, with nothing slow before it


def command_answer(command: Any) -> Answer:
    """A slash command's declared acknowledgement (private unless its extras say otherwise)."""
    extras = getattr(command, "extras", None) or {}
    return Answer(extras.get("answer", Answer.PRIVATE))


def _observe(interaction: discord.Interaction, kind: str) -> None:
    """Count the interaction and time its first response, from the moment Discord created it."""
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is None:
        return
    waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    metrics.first_response(kind, max(0.0, waited))


def interaction_kind(interaction: discord.Interaction) -> tuple[str, str]:
    """('command', its full name) or ('click', what was clicked), for the metrics and the logs."""
    command = interaction.command
    if command is not None:
        return "command", command.qualified_name
    data: Mapping[str, Any] = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    return "click", CLICK_KINDS.get(custom_id.split(":")[1] if custom_id.count(":") else "", "other")


# What a component's custom_id says it is (`kk:<letter>:…`), for the metrics.
CLICK_KINDS = {
    "a": "prompt button",
    "s": "prompt menu",
    "t": "tile menu",
    "l": "lobby button",
    "p": "page button",
    "r": "replay",
    "m": "rematch",
    "h": "share",
}


async def answer_first(interaction: discord.Interaction, how: Answer) -> None:
    """Acknowledge the interaction now, as declared; a handler that answers itself is only counted."""
    kind, name = interaction_kind(interaction)
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.interaction(kind, name)
    if how is Answer.SELF or interaction.response.is_done():
        return
    try:
        if how is Answer.UPDATE:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.NotFound:
        # Too late already (Discord no longer knows the interaction): the work is still done, and shown where it
        # shows (the thread, the lobby); only the private reply is lost.
        log.warning("/%s came too late to be acknowledged (user %s)", name, interaction.user.id)
        if metrics is not None:
            metrics.refused(404, 10062)
        return
    except discord.HTTPException as exc:
        log.warning("could not acknowledge %s %s: %s", kind, name, exc)
        return
    _observe(interaction, name)


def answered(interaction: discord.Interaction) -> None:
    """A handler that answers itself (`Answer.SELF`) calls this once its answer is sent, for the latency metric."""
    _observe(interaction, interaction_kind(interaction)[1])


async def _refuse(interaction: discord.Interaction, text: str) -> None:
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.info("a refusal to user %s was lost: %s", interaction.user.id, exc)


class AnswerFirstTree(app_commands.CommandTree):
    """The command tree: every slash command is acknowledged before its callback runs (autocomplete is not: it
    answers with its choices)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.type is discord.InteractionType.application_command and interaction.command is not None:
            await answer_first(interaction, command_answer(interaction.command))
            if server_only(interaction.command) and bot_server(interaction) is None:
                # Outside a server of the bot's: a private refusal naming where it works; nothing runs.
                with i18n.using(interaction.locale):
                    text = server_only_text(command_name(interaction.command.qualified_name, interaction.locale))
                await _refuse(interaction, text)
                return False
        return True


class AnswersFirst:
    """Mixin for the bot's buttons and menus (`discord.ui.DynamicItem`s): the click is acknowledged, as `answer`
    says, before `callback` runs."""

    answer: Answer = Answer.PRIVATE

    def answer_for(self, interaction: discord.Interaction) -> Answer:
        return self.answer

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await answer_first(interaction, self.answer_for(interaction))
        return True


__all__ = ["Answer", "AnswerFirstTree", "AnswersFirst", "answer_first", "answered", "command_answer"]
