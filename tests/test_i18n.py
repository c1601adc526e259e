"""Translations: the catalogs match the code, Brazilian Portuguese is complete, and the engine's words speak it."""

from __future__ import annotations

import asyncio
import datetime as dt
import gettext
import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

import games.kokeshi.engine as engine
import i18n
from games.kokeshi import narrate, vocab
from games.kokeshi.engine import REASONS, options
from games.kokeshi.engine.data import ANIMALS, COLORS, CURRENT_RULES, KOKESHI, TILES
from i18n.extract import COMMAND_NAME, PARAMETER_NAME, command_messages

ROOT = Path(__file__).resolve().parent.parent
POT = ROOT / "locales" / "messages.pot"
FIX = "run `make translations`, translate the new entries in locales/<locale>/LC_MESSAGES/messages.po"


def _key(message) -> tuple:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return (message.context, msgid)


def _source_messages() -> set[tuple]:
    """Every message the code holds today, extracted as `make translations` does."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found = set()
    for _filename, _lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords={**_keywords()}
    ):
        msgid = message[0] if isinstance(message, tuple | list) else message
        found.add((context, msgid))
    return found


def _keywords() -> dict:
    from babel.messages.extract import DEFAULT_KEYWORDS

    return dict(DEFAULT_KEYWORDS)


def _catalog(path: Path):
    with path.open("rb") as handle:
        return read_po(handle)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module")
def source() -> set[tuple]:
    return _source_messages()


# ---------------------------------------------------------------- the catalogs are current and complete


@pytest.mark.slow
def test_the_template_holds_every_message_of_the_code_and_no_other(source) -> None:
    template = {_key(m) for m in _catalog(POT) if m.id}
    assert len(source) > 250
    assert sorted(source - template, key=str) == [], f"messages missing from messages.pot: {FIX}"
    assert sorted(template - source, key=str) == [], f"messages.pot holds messages the code lost: {FIX}"


@pytest.mark.parametrize("locale", [loc for loc in i18n.LOCALES if loc != i18n.DEFAULT])
def test_every_catalog_translates_every_message_without_fuzzy_entries(source, locale: str) -> None:
    po_path, _mo_path = i18n.catalog_paths(locale)
    catalog = _catalog(po_path)
    entries = {_key(m): m for m in catalog if m.id}
    assert sorted(source - set(entries), key=str) == [], f"{locale} misses messages: {FIX}"
    assert sorted(set(entries) - source, key=str) == [], f"{locale} holds obsolete messages: {FIX}"
    for key, message in entries.items():
        assert "fuzzy" not in message.flags, f"{locale}: fuzzy {key}: review it and remove the flag"
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        assert strings and all(strings), f"{locale}: untranslated {key}"
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        for text in strings:
            assert _fields(text) == _fields(ids[-1]) or _fields(text) <= _fields(ids[-1]) | _fields(ids[0]), (
                f"{locale}: {key} must keep the placeholders {_fields(ids[-1])}, has {_fields(text)}"
            )


def test_command_names_follow_discords_rules() -> None:
    # Lowercase letters, digits, '-' and '_', at most 32 characters, unique among siblings.
    catalog = _catalog(i18n.catalog_paths("pt_BR")[0])
    names = [m.string for m in catalog if m.context in (COMMAND_NAME, PARAMETER_NAME)]
    assert len(names) > 30
    for name in names:
        assert re.fullmatch(r"[-_\w]{1,32}", name) and name == name.lower(), name
    commands = [m.string for m in catalog if m.context == COMMAND_NAME]
    assert len(commands) == len(set(commands))


def test_the_compiled_catalog_is_the_source_catalog() -> None:
    po_path, mo_path = i18n.catalog_paths("pt_BR")
    compiled = gettext.GNUTranslations(io.BytesIO(i18n.compile_catalog(po_path)))
    assert compiled.gettext("Offer") == "Oferta de peças"
    if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
        assert mo_path.read_bytes() == i18n.compile_catalog(po_path)


def test_the_extractor_finds_command_words() -> None:
    source = """
class K(commands.GroupCog, group_name="kokeshi", group_description="Play"):
    @app_commands.command(name="new", description="Open a lobby")
    @app_commands.describe(side="Board side")
    @app_commands.choices(side=[Choice(name="basic", value="basic")])
    async def new(self, interaction, side: str = "basic", players: int = 2) -> None: ...
"""
    found = {message for _line, message in command_messages(source)}
    assert found == {
        (COMMAND_NAME, "kokeshi"),
        "Play",
        (COMMAND_NAME, "new"),
        "Open a lobby",
        "Board side",
        "basic",
        (PARAMETER_NAME, "side"),
        (PARAMETER_NAME, "players"),
    }


# ---------------------------------------------------------------- choosing the language


@pytest.mark.parametrize(
    ("tag", "locale"),
    [("pt-BR", "pt_BR"), ("pt_BR", "pt_BR"), ("pt", "pt_BR"), ("en-US", "en"), ("en-GB", "en"), ("fr", None)],
)
def test_discord_tags_map_to_supported_locales(tag: str, locale: str | None) -> None:
    assert i18n.supported(tag) == locale


def test_resolve_takes_the_first_supported_tag_and_falls_back_to_english() -> None:
    assert i18n.resolve("fr", "pt-BR") == "pt_BR"
    assert i18n.resolve("de", None, "ja") == "en"


def test_using_sets_the_language_of_a_block_and_restores_it() -> None:
    assert i18n.current() == "en"
    with i18n.using("pt-BR"):
        assert vocab.kokeshi("fisherman") == "Pescador"
        with i18n.using("en-US"):
            assert vocab.kokeshi("fisherman") == "Fisherman"
        assert vocab.color("purple") == "roxo"
    assert vocab.color("purple") == "violet" and i18n.current() == "en"


async def test_each_task_keeps_its_own_language() -> None:
    async def speak(tag: str) -> str:
        with i18n.using(tag):
            await asyncio.sleep(0)
            return vocab.question("buy")

    english, portuguese = await asyncio.gather(speak("en"), speak("pt-BR"))
    assert (english, portuguese) == ("Choose a tile to buy", "Escolha uma peça para comprar")


def test_plurals_numbers_and_dates_follow_the_locale() -> None:
    with i18n.using("pt_BR"):
        assert i18n.ngettext("{count} game", "{count} games", 1) == "{count} partida"
        assert i18n.ngettext("{count} game", "{count} games", 2) == "{count} partidas"
        assert i18n.format_number(1234.5) == "1.234,5"
        assert i18n.format_points(-1234) == "\u22121.234" and i18n.format_points(7) == "7"
        assert i18n.format_date(dt.date(2026, 11, 23)) == "23 de nov. de 2026"
        assert i18n.format_list(["Aiko", "Botan", "Chiyo"]) == "Aiko, Botan e Chiyo"
    assert i18n.format_number(1234.5) == "1,234.5"
    assert i18n.format_points(-4) == "\u22124" and i18n.format_points(0) == "0"
    assert i18n.ngettext("{count} game", "{count} games", 1) == "{count} game"


def test_a_missing_compiled_catalog_is_compiled_from_its_source(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "pt_BR" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    source_po = i18n.catalog_paths("pt_BR")[0]
    (folder / "messages.po").write_bytes(source_po.read_bytes())
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("pt_BR").gettext("Bag") == "Bolsa"
        assert not (folder / "messages.mo").exists()
    finally:
        monkeypatch.undo()
        i18n.translations.cache_clear()


def test_the_engine_imports_no_babel_at_import_time() -> None:
    # Looking messages up needs only the standard library; Babel is imported where numbers and dates are formatted.
    import ast

    tree = ast.parse((ROOT / "i18n" / "__init__.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    names = {a.name for n in top for a in n.names} | {getattr(n, "module", None) for n in top}
    assert not any(str(name).startswith("babel") for name in names)


# ---------------------------------------------------------------- Portuguese words everywhere


def _english_only_words() -> re.Pattern[str]:
    """Words of the English source messages that no Portuguese translation uses (e.g. "track", "tile", "Buy")."""
    catalog = _catalog(i18n.catalog_paths("pt_BR")[0])
    english, portuguese = set(), set()
    for message in catalog:
        if not message.id or message.context in (COMMAND_NAME, PARAMETER_NAME, "colour letter"):
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for text in ids:
            english.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", "", text)))
        for text in strings:
            portuguese.update(w.lower() for w in re.findall(r"\w{3,}", re.sub(r"\{\w+\}", "", text)))
    words = sorted(english - portuguese)
    assert {"track", "tile", "buy", "advance", "the", "quality"} <= set(words)
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE)


def _all_options() -> list[engine.Option]:
    found = list(options.ADVANCE) + list(options.EFFECT.values()) + list(options.EFFECT_VOID.values())
    found += list(options.ANIMAL_CHOICE) + [o for row in options.KOKESHI_CHOICE for o in row]
    found += [o for rules in options.MARKETS.values() for row in rules for o in row]
    found += [o for row in options.QUALITY for o in row]
    found += [o for rules in options.PLACES.values() for row in rules for o in row]
    return found


@pytest.mark.slow
def test_portuguese_narration_of_whole_games_has_no_english_word() -> None:
    english = _english_only_words()
    lines = []
    with i18n.using("pt_BR"):
        for names, seed, solo in ((["Aiko", "Botan"], 1, False), (["Aiko", "Botan", "Chiyo", "Daiki"], 2, False)):
            game = engine.new_game(names, seed=seed, solo=solo)
            policy = engine.RandomPolicy(seed)
            while game.prompt is not None:
                lines += [narrate.describe(e) for e in game.apply(game.prompt.player, policy.choose(game))]
        game = engine.new_game(["Aiko"], seed=3, solo=True)
        policy = engine.RandomPolicy(3)
        while game.prompt is not None:
            lines += [narrate.describe(e) for e in game.apply(game.prompt.player, policy.choose(game))]
    kinds = {line.split(":")[0] for line in lines}
    assert len(lines) > 500 and kinds
    for line in lines:
        assert not english.search(line), line
    assert any("jogador fictício" in line for line in lines)
    assert any("pontos de felicidade" in line for line in lines)


@pytest.mark.slow
def test_portuguese_labels_questions_and_names_have_no_english_word_and_fit_discord() -> None:
    english = _english_only_words()
    with i18n.using("pt_BR"):
        labels = [vocab.label(o) for o in _all_options()]
        texts = labels + [vocab.question(k) for k in ("setup", "advance", "effect", "kokeshi", "animal", "buy", "x")]
        texts += [vocab.tile(t.index) for t in TILES] + [vocab.score_rule(k) for k in vocab.SCORE_ITEMS]
        texts += [vocab.score_item(k) for k in vocab.SCORE_ITEMS] + [vocab.round_name(n, n == 9) for n in range(10)]
        texts += [vocab.reason({"reason": c, "kokeshi": k, "animal": "fox"}) for c in REASONS for k in KOKESHI]
        texts += [vocab.reason({"reason": "disc_at_end", "animal": a}) for a in ANIMALS]
        names = [vocab.kokeshi(k) for k in KOKESHI] + [vocab.animal(a) for a in ANIMALS]
        colours = [vocab.color(c) for c in COLORS]
        letters = [vocab.color_letter(c) for c in COLORS]
    assert len(labels) > 500
    for text in filter(None, texts):
        assert not english.search(text), text
    for text in labels:
        # A label is a menu line's (100 at most); a button shows the choice and what it does, cut at a word to 80
        # after that (tests/test_labels.py).
        assert 0 < len(text) <= 100, text
    # The rulebook's names.
    assert names == ["Princesa", "Batchan", "Pescador", "Samurai", "Sumotori", "Panda", "Raposa", "Gato", "Coelho"]
    assert colours == ["rosa", "roxo", "azul", "verde", "amarelo"]
    assert len(set(letters)) == len(letters) and all(len(x) == 1 for x in letters)
    assert all(
        letter == colour[0].upper() or letter in colour.upper() for letter, colour in zip(letters, colours, strict=True)
    )


def test_an_option_reads_the_same_from_the_words_an_event_or_a_view_carries() -> None:
    for option in _all_options():
        assert vocab.label_of(options.said(option)) == vocab.label(option) != ""
    with i18n.using("pt_BR"):
        sumo = next(
            t for t in TILES if t.kind == "normal" and t.color == KOKESHI.index("sumotori") and t.type == "right"
        )
        option = options.MARKETS[CURRENT_RULES][2][sumo.index]
        assert vocab.label(option) == "Comprar 3 · amarelo: Sumotori ou uma kokeshi à direita"


async def test_a_picture_drawn_in_a_worker_thread_keeps_the_callers_language() -> None:
    # asyncio.to_thread copies the context, so `with using(...)` around it is enough for render calls.
    with i18n.using("pt-BR"):
        words = await asyncio.to_thread(vocab.question, "place")
    assert words == "Coloque as peças que você comprou"
