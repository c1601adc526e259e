"""The bot in each player's language: a whole game in Brazilian Portuguese, private replies in the user's language,
public posts and pictures in the game's, and English for languages the bot does not speak."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
import simcord.interactions as sim_interactions
from babel.messages.pofile import read_po

import i18n
import render
from cogs.speech import game_language
from games.kokeshi import pictures
from games.kokeshi.vocab import RETIRED_WORDS
from i18n.extract import COMMAND_NAME, PARAMETER_NAME
from tests.botkit import (
    World,
    announced,
    components,
    custom_ids,
    load_game,
    lobby_message,
    press,
    prompt_message,
)
from tests.botkit import answer as botkit_answer

HOUR = 3600
# Keys of a message payload whose text a person reads (custom ids, URLs and file names are not read).
_READ = {"content", "title", "description", "name", "value", "text", "label", "placeholder"}


# ---------------------------------------------------------------------- locales in SimCord


@pytest.fixture
def locales(monkeypatch) -> dict[int, str]:
    """Each user's Discord language (by user id; en-US when absent). SimCord sends every interaction as en-US from
    an en-US server, so the payload is given the user's language and the server's preferred one."""
    chosen: dict[int, str] = {}
    build = sim_interactions.base_payload

    def with_locales(backend, *, type, channel_id, guild_id, user_id, data):
        record, payload = build(
            backend, type=type, channel_id=channel_id, guild_id=guild_id, user_id=user_id, data=data
        )
        payload["locale"] = chosen.get(user_id, "en-US")
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", with_locales)
    return chosen


def make_world(env, server_locale: str, user_locales: list[str], locales: dict[int, str]) -> World:
    guild = env.create_guild("Clube Kokeshi", preferred_locale=server_locale)
    channel = guild.create_text_channel("kokeshi")
    members = [guild.add_member(env.create_user(n)) for n in ("aiko", "botan", "chiyo")]
    for member, locale in zip(members, user_locales, strict=False):
        locales[member.id] = locale
    return World(env, guild, channel, members)


# ---------------------------------------------------------------------- what the bot said


def _texts(value, key: str | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            # A menu option's or an autocomplete choice's value is an id; an embed field's value is read.
            if k != "value" or "inline" in value:
                yield from _texts(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v, key)
    elif isinstance(value, str) and key in _READ:
        yield value


def bot_output(env, since: int = 0) -> list[str]:
    """Every text the bot sent since the `since`-th request: messages, edits, replies, embeds, buttons, menus,
    thread names and autocomplete choices (the slash command sync is left out: it carries every language)."""
    found = []
    for request in env.http_requests[since:]:
        if request.method == "PUT" and request.path.endswith("/commands"):
            continue
        if isinstance(request.json, dict | list):
            found += [t for t in _texts(request.json) if t.strip()]
    return found


def _english_catalog() -> tuple[re.Pattern[str], list[str]]:
    """English that must not appear in Portuguese output: the words of the catalog's English messages that no
    Portuguese translation uses, and the literal phrases (two words or more) of every message whose Portuguese
    differs."""
    with i18n.catalog_paths("pt_BR")[0].open("rb") as handle:
        catalog = read_po(handle)
    english, portuguese, phrases = set(), set(), set()
    for message in catalog:
        if not message.id or message.context in (COMMAND_NAME, PARAMETER_NAME, "colour letter"):
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for text in strings:
            portuguese.update(w.lower() for w in re.findall(r"\w{3,}", re.sub(r"\{\w+\}", " ", text)))
        if set(ids) == set(strings):
            continue  # the same in both languages ("Kokeshi #{number}", "{hours} h")
        for text in ids:
            english.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", " ", text)))
            for fragment in re.split(r"\{\w+\}|[*`_\n•·—…()]+", text):
                fragment = fragment.strip(" .,:;!?'")
                if len(fragment) >= 10 and len(fragment.split()) >= 2:
                    phrases.add(fragment)
    # A phrase a translation keeps as it is (a command, "Kokeshi #") is not English.
    translated = "\n".join(
        text for m in catalog if m.id for text in (m.string if isinstance(m.string, tuple | list) else (m.string,))
    )
    phrases = {p for p in phrases if p not in translated}
    words = sorted(english - portuguese)
    assert {"turn", "tile", "points", "game", "waiting", "the", "your"} <= set(words)
    assert len(phrases) > 150
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE), sorted(phrases)


def english_in(texts: list[str], names: tuple[str, ...] = ()) -> list[str]:
    """The English found in these texts: '<word or phrase> in <text>'."""
    words, phrases = _english_catalog()
    found = []
    for text in texts:
        # Mentions, channel links and the players' own names are not words of the bot.
        plain = re.sub(r"<[@#]!?\d+>|https?://\S+", " ", text)
        for name in names:
            plain = plain.replace(name, " ")
        hits = {m.group(0) for m in words.finditer(plain)} | {p for p in phrases if p in plain}
        hits |= {w for w in RETIRED_WORDS if w in plain.lower()}
        found += [f"{hit!r} in {text[:160]!r}" for hit in sorted(hits)]
    return found


@pytest.fixture
def picture_languages(monkeypatch) -> list[tuple[str, str]]:
    """(picture, language) of every picture the bot draws: the language current while it was drawn."""
    drawn: list[tuple[str, str]] = []
    kokeshi = ("table", "table_phone", "turn", "final", "board", "glossary", "rules_phone")
    for module, name in [*((pictures, n) for n in kokeshi), (render, "history")]:
        original = getattr(module, name)

        def spy(*args, _name=name, _original=original, **kwargs):
            drawn.append((_name, i18n.current()))
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)
    return drawn


# ---------------------------------------------------------------------- playing through the buttons


async def answer(w: World, game_id: int, thread, rng: random.Random):
    """The prompted Brazilian player answers the current prompt with its buttons or menus."""
    return await botkit_answer(w, game_id, thread, rng, which_track="Em qual trilha?")


async def open_table(w: World, **options):
    """`/kokeshi new` by aiko, botan joins with the lobby's first button, aiko starts with its third."""
    aiko, botan = w.members[:2]
    created = await aiko.slash(w.channel, "kokeshi new", **options)
    assert created.acknowledged and created.ephemeral, created
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    lobby = await lobby_message(w, record.id)
    ids = custom_ids(lobby)
    labels = [c["label"] for c in components(lobby)]
    joined = await botan.click(lobby, custom_id=ids[0])
    started = await aiko.click(lobby, custom_id=ids[2])
    assert started.acknowledged
    record = (await w.store.games_in_channel(w.channel.id))[-1]
    thread = next(t for t in w.channel.threads if t.id == record.thread_id)
    return record, thread, lobby, joined, labels


# ---------------------------------------------------------------------- a whole game in Portuguese


@pytest.mark.slow
async def test_a_whole_game_with_brazilian_players_and_server_speaks_only_portuguese(
    simcord_env, locales, picture_languages
):
    w = make_world(simcord_env, "pt-BR", ["pt-BR", "pt-BR"], locales)
    aiko, botan = w.members[:2]
    env = w.env
    start = len(env.http_requests)
    said = []

    async def private(result) -> str:
        assert result.acknowledged
        reply = result.followups[-1] if result.followups else result.response
        said.append(reply.content or "")
        return reply.content or ""

    await private(await aiko.slash(w.channel, "kokeshi help"))
    await private(await aiko.slash(w.channel, "kokeshi notify on"))
    record, thread, lobby, joined, labels = await open_table(w, timer=HOUR)
    assert labels == ["Entrar", "Sair", "Iniciar", "Cancelar"]
    assert record.language == "pt_BR" and game_language(record) == "pt_BR"
    assert (await private(joined)) == f"Você entrou em Kokeshi #{record.id}."
    rng = random.Random(5)
    for step in range(3000):
        game, _version = await load_game(w, record.id)
        if game.prompt is None:
            break
        if step == 6:
            # A reminder, a private refusal, the status, the log, a board and the rules halfway through.
            await env.advance_time(HOUR // 2 + 1)
            waiting = w.member(game.prompt.player)
            other = aiko if waiting is botan else botan
            message = await prompt_message(w, record.id, thread)
            refused = await press(other, message)
            assert (await private(refused)) == f"É a vez de {waiting.name}, não a sua."
            for command, options in (
                ("kokeshi status", {}),
                ("kokeshi log", {}),
                ("kokeshi table", {"player": waiting.user.name}),
                ("kokeshi table", {}),
                ("kokeshi rules", {}),
            ):
                await private(await other.slash(thread, command, **options))
            choices = await waiting.autocomplete(thread, "kokeshi play", "choice", "")
            said.extend(c["name"] for c in choices)
        await answer(w, record.id, thread, rng)
    else:
        raise AssertionError("the game did not end")
    for command in ("kokeshi leaderboard", "kokeshi stats"):
        await private(await aiko.slash(w.channel, command))

    final = thread.history()[-1]
    assert f"**Kokeshi #{record.id} terminou.**" in final.content and "pontos" in final.content, final.content
    posted = bot_output(env, start)
    assert any("está esperando por você" in text for text in posted), "the reminder"
    assert any("**Desde a sua última vez:**" in text for text in posted), "the ping says what happened since"
    lobby_text = next(m for m in w.channel.history() if m.id == lobby.id).content
    assert lobby_text.endswith("\nTerminada."), lobby_text
    output = bot_output(env, start) + said
    assert len(output) > 200
    # A lobby button and the first prompt's menu, which every game shows (later prompts depend on the deal).
    assert "Entrar" in output and "Coloque as duas peças iniciais em trilhas diferentes" in output
    found = english_in(output, names=("aiko", "botan", "Clube Kokeshi"))
    assert found == [], "\n".join(found)
    # Every picture was drawn in Portuguese: the thread's (the game's language) and the private ones (the user's).
    drawn = {name for name, _ in picture_languages}
    assert drawn >= {"table", "table_phone", "turn", "final", "board", "glossary", "rules_phone", "history"}
    assert {language for _, language in picture_languages} == {"pt_BR"}
    # The DM of a player who asked for them.
    dms = [text for text in bot_output(env, start) if text.startswith("Sua vez no Kokeshi")]
    assert dms


def test_the_english_finder_finds_english() -> None:
    # The same detector on the English posts of a game: it must not be blind.
    assert english_in(["**Kokeshi #3 is over!** You beat the automa! 🎉"])
    assert english_in(["Aiko — since your last turn: Botan +4"])
    assert english_in(["<@1> — 34 points"])
    assert english_in(["**Fim do Kokeshi #3!** Você venceu o jogador fictício! 🎉", "<@1> — 34 pontos"]) == []


# ---------------------------------------------------------------------- whose language where


async def test_private_replies_follow_the_user_and_public_posts_the_game(simcord_env, locales, picture_languages):
    # A Brazilian server; aiko reads Discord in English, botan in Portuguese.
    w = make_world(simcord_env, "pt-BR", ["en-US", "pt-BR"], locales)
    aiko, botan = w.members[:2]
    record, thread, lobby, joined, labels = await open_table(w)
    assert record.language == "pt_BR"
    assert joined.response.content == f"Você entrou em Kokeshi #{record.id}."  # botan, privately, in Portuguese
    assert labels == ["Entrar", "Sair", "Iniciar", "Cancelar"]  # the lobby is public: the game's language
    # The thread is public too: its first posts (the game begins, then the first turn's question) speak the game's
    # language.
    first, question = (m.content for m in thread.history()[:2])
    assert first.startswith(f"**Começa o Kokeshi #{record.id}!** Ordem dos turnos: <@"), first
    assert question.startswith("Sua vez: <@"), question
    # In the game's thread, the game in detail above the list: each in the caller's language.
    status = await aiko.slash(thread, "kokeshi status")
    assert "\n**Your games**" in status.response.content and "Waiting for" in status.response.content
    status = await botan.slash(thread, "kokeshi status")
    assert "\n**Suas partidas**" in status.response.content, status.response.content
    game, _version = await load_game(w, record.id)
    waiting = w.member(game.prompt.player)
    other = aiko if waiting is botan else botan
    message = await prompt_message(w, record.id, thread)
    refused = await press(other, message)
    # (The first question is a menu: a menu picked out of turn says so in these words.)
    expected = f"It's {waiting.name}'s turn, not yours." if other is aiko else f"É a vez de {waiting.name}, não a sua."
    told = (refused.followups or [refused.response])[-1]
    assert refused.ephemeral and told.content == expected, told.content
    # The prompt's buttons speak the game's language, whoever's turn it is.
    assert english_in([c.get("label") or c.get("placeholder") or "" for c in components(message)]) == []
    # aiko's private board is drawn in English, the thread's pictures in Portuguese.
    picture_languages.clear()
    await aiko.slash(thread, "kokeshi table", player="aiko")
    assert picture_languages == [("board", "en")]
    picture_languages.clear()
    await answer(w, record.id, thread, random.Random(1))
    assert picture_languages and {language for _, language in picture_languages} == {"pt_BR"}


async def test_the_language_option_overrides_the_servers(simcord_env, locales):
    w = make_world(simcord_env, "pt-BR", ["pt-BR", "pt-BR"], locales)
    record, thread, _lobby, _joined, labels = await open_table(w, language="en")
    assert record.language == "en"
    assert labels == ["Join", "Leave", "Start", "Cancel"]
    assert thread.history()[0].content.startswith(f"**Kokeshi #{record.id} begins!** Turn order: <@")
    assert thread.history()[1].content.startswith("Your turn: <@"), thread.history()[1].content


async def test_an_unsupported_language_falls_back_to_english(simcord_env, locales):
    # A French server and French players: the bot does not speak French, so everything is English.
    w = make_world(simcord_env, "fr", ["fr", "fr"], locales)
    start = len(w.env.http_requests)
    record, thread, lobby, joined, labels = await open_table(w)
    assert record.language == "en" and game_language(record) == "en" and labels[0] == "Join"
    assert joined.response.content == f"You joined Kokeshi #{record.id}."
    assert f"**Kokeshi #{record.id}** — 1 of 2 seats" in lobby.content and "English" in lobby.content, lobby.content
    assert "Open: join with the button below." in lobby.content
    assert thread.history()[0].content.startswith(f"**Kokeshi #{record.id} begins!** Turn order: <@")
    assert thread.history()[1].content.startswith("Your turn: <@"), thread.history()[1].content
    portuguese = [t for t in bot_output(w.env, start) if re.search(r"\b(você|partida|peça|jogador)\b", t)]
    assert portuguese == []


async def test_a_solo_game_speaks_the_players_language(simcord_env, locales):
    w = make_world(simcord_env, "en-US", ["pt-BR"], locales)
    solo = await w.members[0].slash(w.channel, "kokeshi solo")
    assert solo.response.content.startswith("A sua partida solo começou")
    record = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[0]
    assert record.language == "pt_BR"
    # Its announcement says so in Portuguese, with the side and the language in their Portuguese names.
    said = await announced(w)
    assert said.startswith(f"<@{w.members[0].id}> começa uma partida solo: **Kokeshi #{record.id}**"), said
    assert "lado básico" in said and "Português (Brasil)" in said, said
    await w.members[1].slash(w.channel, "kokeshi daily")  # botan: no language set, so English
    assert "takes on the daily challenge of" in await announced(w)


async def test_games_stored_before_languages_speak_english(tmp_path) -> None:
    from storage import open_store

    store = await open_store(str(tmp_path / "k.sqlite3"))
    try:
        old = await store.create_game(guild_id=1, channel_id=2, host_id=3, host_name="Aiko", players=2)
        new = await store.create_game(
            guild_id=1, channel_id=2, host_id=3, host_name="Aiko", players=2, language="pt_BR"
        )
        challenge, _rated = await store.create_challenge(
            kind="daily", key="2026-11-23", guild_id=1, channel_id=2, user_id=3, name="Aiko", language="pt_BR"
        )
        assert (await store.get_game(old)).language is None
        assert game_language(await store.get_game(old)) == "en"
        assert (await store.get_game(new)).language == "pt_BR"
        assert (await store.get_game(challenge)).language == "pt_BR"
    finally:
        await store.close()


async def test_the_start_names_ai_seats_in_the_games_language_whoever_starts_it(simcord_env, locales):
    # aiko reads Discord in English and starts a Portuguese game with an AI seat: every seat is taken, so it starts
    # at once, and its post in the channel says "(IA, normal)".
    w = make_world(simcord_env, "pt-BR", ["en-US"], locales)
    started = await w.members[0].slash(w.channel, "kokeshi new", players=2, ai=1, language="pt_BR")
    said = (started.followups or [started.response])[-1].content
    assert started.acknowledged and said.startswith("Kokeshi #") and "has started" in said, said  # in English
    record = (await w.store.games_in_channel(w.channel.id, statuses=("active",)))[-1]
    assert record.language == "pt_BR" and record.thread_id
    posted = (await lobby_message(w, record.id, w.channel)).content
    assert "(IA, normal)" in posted and "(AI," not in posted, posted


def test_zero_points_are_plural_in_portuguese() -> None:
    with i18n.using("pt_BR"):
        for count, words in ((0, "0 pontos"), (1, "1 ponto"), (2, "2 pontos")):
            text = i18n.ngettext("{count} point", "{count} points", count).format(count=count)
            assert text == words
