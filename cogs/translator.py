"""Slash command words in the user's language: a discord.py translator backed by the gettext catalogs."""

from __future__ import annotations

import functools

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n
from i18n.extract import COMMAND_NAME, PARAMETER_NAME

# Names are translated under their own gettext context: their translations follow Discord's rules for names.
_CONTEXTS = {Where.command_name: COMMAND_NAME, Where.group_name: COMMAND_NAME, Where.parameter_name: PARAMETER_NAME}


class CatalogTranslator(app_commands.Translator):
    """Looks each command name, description, parameter and choice up in the catalog of a Discord locale.

    Discord asks for every locale it knows; a locale without a catalog, or a word without a translation, gets
    None, so Discord shows the English words."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        return translate(string.message, locale, context.location)


def translate(message: str, locale: discord.Locale | str, where: Where) -> str | None:
    """`message` in `locale` where it stands in a command (a name, a description, a choice), or None."""
    target = _catalog_of(locale)
    if target is None:
        return None
    return i18n.gettext_in(target, message, _CONTEXTS.get(where))


@functools.cache
def _catalog_of(locale: discord.Locale | str) -> str | None:
    """The catalog a Discord locale reads, or None for English and for a locale without one. Discord asks for each of
    its thirty-odd locales for every word of every command at each sync: the answer is worked out once per locale."""
    target = i18n.supported(locale)
    return None if target is None or target == i18n.DEFAULT else target
