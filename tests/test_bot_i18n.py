"""Slash commands in the user's language: the synced commands carry Brazilian Portuguese words, others fall back."""

from __future__ import annotations

import discord
from discord.app_commands import TranslationContextLocation as Where

import i18n
from cogs.translator import CatalogTranslator, translate


def _synced(env) -> list[dict]:
    puts = [r for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert puts, "the bot synced no commands"
    return puts[-1].json


def _walk(command: dict):
    yield command
    for option in command.get("options") or []:
        yield from _walk(option)


async def test_the_synced_commands_carry_portuguese_names_descriptions_and_choices(world):
    assert isinstance(world.bot.tree.translator, CatalogTranslator)
    (kokeshi,) = [c for c in _synced(world.env) if c["name"] == "kokeshi"]
    items = list(_walk(kokeshi))
    # Every description is localized ("…" is discord.py's stand-in for a parameter nobody described); no other
    # language is claimed.
    described = [c for c in items if c.get("description") not in (None, "", "…")]
    assert len(described) > 30
    for item in described:
        localized = item.get("description_localizations") or {}
        assert set(localized) == {"pt-BR"}, item["name"]
        assert localized["pt-BR"] and localized["pt-BR"] != item["description"] or item["description"] == "global"
    by_name = {c["name"]: c for c in kokeshi["options"]}
    assert by_name["new"]["name_localizations"] == {"pt-BR": "novo"}
    assert by_name["new"]["description_localizations"]["pt-BR"] == "Abrir uma mesa para uma nova partida neste canal"
    side = next(o for o in by_name["new"]["options"] if o["name"] == "side")
    assert side["name_localizations"] == {"pt-BR": "lado"}
    assert [c["name_localizations"]["pt-BR"] for c in side["choices"]] == [
        "básico (recomendado para começar)",
        "avançado",
    ]
    timer = next(o for o in by_name["new"]["options"] if o["name"] == "timer")
    assert timer["choices"][-1]["name_localizations"] == {"pt-BR": "sem limite de tempo"}
    # The group keeps its name in every language.
    assert kokeshi.get("name_localizations") in (None, {}, {"pt-BR": "kokeshi"})


async def test_portuguese_command_names_are_unique_and_valid(world):
    (kokeshi,) = [c for c in _synced(world.env) if c["name"] == "kokeshi"]
    names = [(c.get("name_localizations") or {}).get("pt-BR", c["name"]) for c in kokeshi["options"]]
    assert len(names) == len(set(names)) and "ajuda" in names and "regras" in names
    for item in _walk(kokeshi):
        for name in (item.get("name_localizations") or {}).values():
            assert name == name.lower() and 1 <= len(name) <= 32 and " " not in name, name


def test_unsupported_locales_and_english_fall_back_to_the_english_words():
    assert translate("Every tile and what it does", discord.Locale.brazil_portuguese, Where.command_description) == (
        "Cada peça e o que ela faz"
    )
    for locale in (discord.Locale.french, discord.Locale.japanese, discord.Locale.american_english):
        assert translate("Every tile and what it does", locale, Where.command_description) is None
    # A word the catalog does not know stays English too.
    assert translate("A brand new command", discord.Locale.brazil_portuguese, Where.command_description) is None
    # Names are looked up under their own context: the parameter "board" is not a command's word.
    assert translate("board", "pt-BR", Where.parameter_name) == "critério"
    assert translate("board", "pt-BR", Where.command_name) is None
    assert translate("table", "pt-BR", Where.command_name) == "mesa"


def test_the_command_fingerprint_changes_with_the_catalogs(monkeypatch, tmp_path):
    before = i18n.fingerprint()
    folder = tmp_path / "pt_BR" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "messages.po").write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    assert i18n.fingerprint() != before
