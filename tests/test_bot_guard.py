"""The end against stalling as players meet it: the rules text, the prompt's countdown, the end message."""

from __future__ import annotations

import pytest

import i18n
from games.kokeshi import engine
from games.kokeshi.engine import Event
from games.kokeshi.engine.data import IDLE_LIMIT
from games.kokeshi.guide import rules_text
from games.kokeshi.narrate import describe
from tests.botkit import answer, load_game, prompt_message


async def _solo(world):
    aiko = world.members[0]
    await aiko.slash(world.channel, "kokeshi solo")
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[0]
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    return record, thread


@pytest.mark.slow
async def test_the_prompt_says_how_many_idle_turns_are_left_once_the_end_is_near(world, monkeypatch):
    # A limit of one idle turn: the end is one idle turn away from the start, so every prompt says so.
    monkeypatch.setattr(engine.game, "IDLE_LIMIT", 1)
    record, thread = await _solo(world)
    game, _ = await load_game(world, record.id)
    assert game.stall_limit == 1
    message = await prompt_message(world, record.id, thread)
    # With the question, as the platform's table asks it; and what an idle turn is.
    assert "(⏳ 1 idle turn left before the end is triggered) An idle turn:" in message.content
    assert "a kokeshi passes the top, with no tile taken from the offer and no recognition gained" in message.content
    await answer(world, record.id, thread)
    assert "1 idle turn left" in (await prompt_message(world, record.id, thread)).content


async def test_the_prompt_is_quiet_while_the_end_is_far(world):
    record, thread = await _solo(world)
    for _ in range(4):
        assert "idle turn" not in (await prompt_message(world, record.id, thread)).content
        await answer(world, record.id, thread)


async def test_the_rules_say_which_turns_count_and_the_limit_per_player(world):
    rules = await world.members[0].slash(world.channel, "kokeshi rules")
    text = rules.followups[0].content if rules.followups else rules.response.content
    assert text == rules_text()
    assert "passes the top, and you take no tile from the offer and gain no recognition, is an idle turn" in text
    assert f"when a player has played {IDLE_LIMIT}, the end is triggered" in text and "not in a row" in text
    with i18n.using("pt_BR"):
        portuguese = rules_text()
    assert "é um turno ocioso" in portuguese and f"quando um jogador tiver jogado {IDLE_LIMIT}" in portuguese


def test_the_end_message_says_who_reached_the_limit_and_which_turns_count():
    event = Event("end_triggered", "aiko", {"reason": "stall", "final_round": 23, "turns": 20, "limit": 20})
    assert describe(event) == (
        "The end is triggered: aiko has played 20 idle turns, the limit (turns in which a kokeshi passed the top, "
        "with no tile taken from the offer and no recognition gained). Round 23 is the last."
    )
    with i18n.using("pt_BR"):
        assert describe(event).startswith("O fim da partida foi acionado: aiko jogou 20 turnos ociosos, o limite")
    idle = Event("idle_turn", "aiko", {"count": 17, "limit": 20})
    assert describe(idle).startswith("That was an idle turn for aiko (17 of 20)")
