"""Another game's lobby asks what Kokeshi's does: the language of its thread, the finish rate of its joiners; and its
player's stats draw their score history, as Kokeshi's."""

from __future__ import annotations

import random

import discord
import pytest

from tests.botkit import World, components, lobby_message
from tests.test_bot_language import locales, make_world  # noqa: F401  (the fixture giving each person a language)
from tests.test_bot_match_end import ALL, rematch_id
from tests.test_bot_matches import current_prompt, finished_match, play_through, reply
from tests.test_bot_profiles import ended_games

PORTUGUESE = "Português (Brasil)"


async def newest(w: World):
    return (await w.store.games_in_channel(w.channel.id, ALL))[-1]


# ---------------------------------------------------------------------- language


async def test_a_table_speaks_its_servers_language_unless_its_host_chooses_another(simcord_env, locales):  # noqa: F811
    # A Brazilian server; aiko's Discord speaks English, botan's Portuguese.
    w = make_world(simcord_env, "pt-BR", ["en-US", "pt-BR"], locales)
    aiko, botan = w.members[:2]
    created = await aiko.slash(w.channel, "games new", game="kohaku", players=2)
    assert "is open" in reply(created).content  # aiko's own answer, in aiko's language
    record = await newest(w)
    assert record.language == "pt_BR"
    lobby = await lobby_message(w, record.id)
    assert PORTUGUESE in lobby.content and "Aberta" in lobby.content, lobby.content
    # Its buttons and its thread speak it too, whoever clicks them.
    assert [c["label"] for c in components(lobby)] == ["Entrar", "Sair", "Iniciar", "Cancelar"]
    await botan.click(lobby, label="Entrar")
    assert [c["label"] for c in components(await lobby_message(w, record.id))][0] == "Entrar"
    await aiko.click(lobby, label="Iniciar")
    thread_id = (await w.store.get_game(record.id)).thread_id
    thread = next(t for t in w.channel.threads if t.id == thread_id)
    assert "Sua vez" in (await current_prompt(w, record.id, thread)).content
    # The host's choice wins over the server's.
    chosen = await aiko.slash(w.channel, "games new", game="kohaku", players=2, language="en")
    assert "is open" in reply(chosen).content
    record = await newest(w)
    assert record.language == "en"
    lobby = await lobby_message(w, record.id)
    assert "English" in lobby.content and "Open: join with the button below." in lobby.content
    # Alone at the table, the game speaks its player's language, as `/kokeshi solo` does.
    solo = await botan.slash(w.channel, "games new", game="kohaku", players=1)
    assert "começou" in reply(solo).content, reply(solo).content
    assert (await newest(w)).language == "pt_BR"


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en-US", "'fr' is not a language I speak. Choose one of these for the game's thread: English, "),
        ("pt-BR", "'fr' não é um idioma que eu falo. Escolha um destes para o tópico da partida: English, "),
    ],
)
@pytest.mark.parametrize(("group", "options"), [("games", {"game": "kohaku", "players": 2}), ("kokeshi", {})])
async def test_a_language_the_bot_does_not_speak_is_refused_privately_and_opens_nothing(
    simcord_env,
    locales,  # noqa: F811
    locale,
    said,
    group,
    options,
):
    w = make_world(simcord_env, "en-US", [locale], locales)
    # A Discord client that still offers a language the bot no longer speaks, at either table.
    command = next(c for c in w.env.backend.commands[None].values() if c["name"] == group)
    new = next(o for o in command["options"] if o["name"] == "new")
    language = next(o for o in new["options"] if o["name"] == "language")
    language["choices"].append({"name": "Français", "value": "fr"})
    asked = await w.members[0].slash(w.channel, f"{group} new", language="fr", **options)
    assert asked.ephemeral and reply(asked).content == said + PORTUGUESE + "."
    assert await w.store.games_in_channel(w.channel.id, ALL) == [] and w.channel.history() == []


# ---------------------------------------------------------------------- finish rate


async def test_a_table_asking_for_a_finish_rate_shows_it_and_turns_away_a_joiner_below_it(world):
    w = world
    host, quitter, regular, newcomer = w.members[:4]
    await ended_games(w, quitter.user.id, game="kohaku", finished=1, resigned=1, timed_out=1)
    await ended_games(w, regular.user.id, game="kohaku", finished=4, timed_out=1)
    # What counts is the table's own game: newcomer left Kokeshi games, not Kōhaku's.
    await ended_games(w, newcomer.user.id, game="kokeshi", resigned=3)
    await host.slash(w.channel, "games new", game="kohaku", players=4, min_finish=80)
    record = await newest(w)
    assert record.settings["min_finish"] == 80
    lobby = await lobby_message(w, record.id)
    assert "English · players who finish 80% of their games or more" in lobby.content, lobby.content
    before = lobby.content
    refused = await quitter.click(lobby, label="Join")
    assert refused.ephemeral
    assert reply(refused).content == (
        f"Kōhaku #{record.id} is for players who finish at least 80% of their games. You finished 1 of 3 (33%): "
        "1 resigned and 1 timed out. Finish a few more games, or join another lobby."
    )
    assert (await w.store.get_game(record.id)).seats == record.seats
    assert (await lobby_message(w, record.id)).content == before
    # 4 of 5 is 80%: enough. Someone with no game of it ended yet is welcome too.
    for member in (regular, newcomer):
        joined = await member.click(lobby, label="Join")
        assert "You joined" in reply(joined).content
    seated = {s.user_id for s in (await w.store.get_game(record.id)).seats}
    assert seated == {host.user.id, regular.user.id, newcomer.user.id}


async def test_a_table_without_a_finish_rate_or_without_a_seat_to_join_asks_none(world):
    w = world
    host, quitter = w.members[:2]
    await ended_games(w, quitter.user.id, game="kohaku", resigned=3)
    await host.slash(w.channel, "games new", game="kohaku", players=2)
    record = await newest(w)
    lobby = await lobby_message(w, record.id)
    assert "finish" not in lobby.content and "min_finish" not in record.settings
    assert "You joined" in reply(await quitter.click(lobby, label="Join")).content
    # Alone, or with every other seat the AI's, nobody joins: the rate is not kept, nor shown.
    for options in ({"players": 1}, {"players": 2, "ai": 1}):
        await host.slash(w.channel, "games new", game="kohaku", min_finish=90, **options)
        record = await newest(w)
        assert "min_finish" not in record.settings
        assert "finish" not in (await lobby_message(w, record.id)).content


async def test_a_brazilian_joiner_below_the_rate_is_told_in_portuguese(simcord_env, locales):  # noqa: F811
    w = make_world(simcord_env, "pt-BR", ["pt-BR", "pt-BR"], locales)
    host, quitter = w.members[:2]
    await ended_games(w, quitter.user.id, game="kohaku", finished=1, resigned=1)
    await host.slash(w.channel, "games new", game="kohaku", players=2, min_finish=75)
    record = await newest(w)
    lobby = await lobby_message(w, record.id)
    assert f"{PORTUGUESE} · jogadores que terminam 75% de suas partidas ou mais" in lobby.content, lobby.content
    refused = await quitter.click(lobby, label="Entrar")
    assert refused.ephemeral
    assert reply(refused).content == (
        f"Kōhaku #{record.id} é para jogadores que terminam ao menos 75% de suas partidas. Você terminou 1 de 2 "
        "(50%): 1 com desistência e 0 por tempo esgotado. Termine mais algumas partidas ou entre em outra mesa."
    )
    assert len((await w.store.get_game(record.id)).seats) == 1


@pytest.mark.slow  # a whole (short) game through SimCord
async def test_a_rematch_keeps_the_tables_language_and_finish_rate(world, bids):
    w = world
    aiko, botan = w.members[:2]
    await aiko.slash(w.channel, "games new", game="bids", players=2, language="pt_BR", min_finish=60)
    game_id = (await newest(w)).id
    lobby = await lobby_message(w, game_id)
    await botan.click(lobby, label="Entrar")
    await aiko.click(lobby, label="Iniciar")
    thread_id = (await w.store.get_game(game_id)).thread_id
    thread = next(t for t in w.channel.threads if t.id == thread_id)
    await play_through(w, game_id, thread, random.Random(3))
    final = thread.history()[-1]
    assert "terminou" in final.content  # its thread spoke Portuguese to the end
    asked = await botan.click(final, custom_id=rematch_id(final))
    assert "is open" in reply(asked).content, reply(asked).content
    again = await newest(w)
    assert again.id != game_id and again.language == "pt_BR" and again.settings["min_finish"] == 60
    lobby = await lobby_message(w, again.id)
    assert f"{PORTUGUESE} · jogadores que terminam 60% de suas partidas ou mais" in lobby.content, lobby.content


# ---------------------------------------------------------------------- stats


async def test_the_stats_picture_a_players_scores_at_that_game_with_alt_text(world, bids):
    w = world
    aiko, botan = w.members[:2]
    duel = await finished_match(w, "bids", [aiko, botan], seed=5)
    await finished_match(w, "kohaku", [aiko], seed=6)
    asked = await aiko.slash(w.channel, "games stats", game="bids")
    answer = reply(asked)
    assert asked.ephemeral and answer.embeds[0].image.url == "attachment://history.png"
    [picture] = answer.attachments
    assert picture.filename == "history.png" and picture.description == "aiko's scores, game after game."
    # The picture is of that game's finished results only: one point, its score.
    found = await w.store.game_stats(aiko.user.id, ["total"], _now(), game="bids")
    assert [total for _when, total in found.history] == [duel.standing().scores[0]["total"]]
    kohaku = await w.store.game_stats(aiko.user.id, ["total"], _now(), game="kohaku")
    assert len(kohaku.history) == 1 and kohaku.history != found.history


async def test_the_stats_picture_is_described_in_the_askers_language(simcord_env, locales, bids):  # noqa: F811
    w = make_world(simcord_env, "en-US", ["pt-BR", "en-US"], locales)
    await finished_match(w, "bids", w.members[:2], seed=7)
    asked = await w.members[0].slash(w.channel, "games stats", game="bids")
    [picture] = reply(asked).attachments
    assert picture.description == "Os pontos de aiko, partida após partida."


def _now():
    return discord.utils.utcnow()


def test_a_seat_is_named_as_a_person_or_an_ai_and_a_persons_seat_the_ai_plays_says_why():
    from cogs.match_lobbies import seat_word
    from i18n import using
    from storage import Seat

    assert seat_word(Seat(1, "AI 1", None, True, ai_level="hard")) == "**AI 1** (AI, hard)"
    assert seat_word(Seat(1, "AI 1", None, True), bold=False) == "AI 1 (AI, normal)"
    assert seat_word(Seat(0, "aiko", 7, False)) == "<@7>"
    # A person the AI plays for is still a person: never "(AI, normal)".
    assert seat_word(Seat(0, "aiko", 7, True, resigned=True)) == "<@7> (resigned)"
    assert seat_word(Seat(0, "aiko", 7, True, expired=3)) == "<@7> (the AI plays for now)"
    with using("pt_BR"):
        assert seat_word(Seat(0, "aiko", 7, True, resigned=True)) == "<@7> (desistiu)"
        assert seat_word(Seat(0, "aiko", 7, True, expired=3)) == "<@7> (a IA joga por enquanto)"
