"""Every picture the bot sends carries alt text (Discord's attachment description), in the reader's language."""

from __future__ import annotations

import random

import pytest

import i18n
from cogs.common import ALT_TEXT
from tests.botkit import answer, load_game, open_game
from tests.own_table import prompt_alt, record_alt


def described(message) -> list[str]:
    return [a.description for a in message.attachments]


@pytest.mark.slow
async def test_every_picture_in_a_game_thread_and_every_looked_at_picture_says_what_it_shows(world):
    game_id, thread = await open_game(world, players=2)
    rng = random.Random(3)
    for _ in range(12):
        assert (await answer(world, game_id, thread, rng)).acknowledged
    pictured = [m for m in thread.history() if m.attachments]
    records = [m for m in pictured if any(a.filename.startswith("turn-") for a in m.attachments)]
    prompts = [m for m in pictured if m not in records]
    assert records and prompts
    for message in pictured:
        for alt in described(message):
            assert alt and alt.startswith(f"Kokeshi #{game_id}") and len(alt) <= ALT_TEXT, alt
    # A turn record names whose workshop it shows; the live prompt names the decision being made.
    game, _ = await load_game(world, game_id)
    assert any("'s workshop after their turn" in alt for m in records for alt in described(m))
    assert f"{game.prompt.player}'s decision:" in described(prompts[-1])[0]
    # The pictures a player asks for: the table (beside the choice, for the player to move), a workshop, the rules
    # pages and the tiles.
    member = world.member(game.prompt.player)
    table = await member.slash(thread, "kokeshi table")
    alts = described(table.response)
    assert [alt.split(":")[0] for alt in alts] == [
        f"Your choice in Kokeshi #{game_id}",
        "Kokeshi for a phone",
        "Kokeshi",
    ], alts
    assert all(len(alt) <= ALT_TEXT for alt in alts) and "the whole table" in alts[-1]
    other = next(m for m in world.members[:2] if m is not member)
    workshop = await member.slash(thread, "kokeshi table", player=other.user.name)
    assert described(workshop.response) == [
        f"{other.user.name}'s workshop in Kokeshi, alone and large: its tracks, kokeshi, tiles and reserve, its score "
        "item by item and its discs on the happiness board."
    ]
    rules = await member.slash(thread, "kokeshi rules")
    alts = described(rules.response)
    assert alts[:-1] == [f"The rules of Kokeshi, page {n} of {len(alts) - 1}." for n in range(1, len(alts))]
    assert alts[-1] == "Every Kokeshi tile and what it does."


def test_alt_text_is_in_the_language_of_the_game():
    with i18n.using("pt_BR"):
        assert prompt_alt(5, "Aiko", "advance").startswith("Kokeshi #5, decisão de Aiko: avance")
        assert record_alt(5, "Aiko").startswith("Kokeshi #5: a oficina de Aiko depois da sua vez")
    assert prompt_alt(5, "Aiko", "advance").startswith("Kokeshi #5, Aiko's decision: advance one of your kokeshi.")
