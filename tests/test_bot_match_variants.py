"""Another game's own settings chosen with `/games new variant:` (Kōhaku's goal cards), offered by the game."""

from __future__ import annotations

from tests.botkit import custom_ids
from tests.test_bot_matches import current_prompt, open_table, reply


async def test_the_variants_are_the_games_own_in_the_callers_words(world):
    w = world
    offered = await w.members[0].autocomplete(w.channel, "games new", "variant", "", game="kohaku")
    assert [(c["name"], c["value"]) for c in offered] == [
        ("without goal cards", "goals=false"),
        ("with goal cards", "goals=true"),
    ]
    typed = await w.members[0].autocomplete(w.channel, "games new", "variant", "with g", game="kohaku")
    assert [c["value"] for c in typed] == ["goals=true"]


async def test_a_table_with_goal_cards_deals_them_and_says_so_in_its_lobby(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=1, variant="goals=true")
    record = await w.store.get_game(game_id)
    assert record.settings["goals"] is True
    match, _version, _record = await w.store.load_match(game_id)
    # Goal cards are kept at the start, by both seats at once: the thread asks each privately.
    assert [p.kind for p in match.prompts()] == ["goal", "goal"]
    lobby = next(m for m in w.channel.history() if f"Kōhaku #{game_id}" in m.content)
    assert "with goal cards" in lobby.content
    assert "privately" in (await current_prompt(w, game_id, thread)).content


async def test_a_variant_the_game_does_not_have_or_play_so_is_refused_and_opens_nothing(world):
    w = world
    wrong = await w.members[0].slash(w.channel, "games new", game="kohaku", players=2, variant="moons=3")
    assert wrong.ephemeral and "without goal cards; with goal cards" in reply(wrong).content
    # Goal cards are dealt to players only: a solo game is not played with them.
    solo = await w.members[0].slash(w.channel, "games new", game="kohaku", players=1, variant="with goal cards")
    assert solo.ephemeral and "not played with goal cards by 1 player" in reply(solo).content, reply(solo).content
    assert await w.store.games_in_channel(w.channel.id, ("lobby", "active", "cancelled")) == []
    # The label a person reads works as well as the value.
    by_label = await w.members[0].slash(w.channel, "games new", game="kohaku", players=2, variant="with goal cards")
    assert "is open" in reply(by_label).content
    assert (await w.store.games_in_channel(w.channel.id))[-1].settings["goals"] is True


async def test_a_goal_card_is_chosen_privately_even_when_the_ai_chose_first(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy", variant="goals=true")
    match, _version, _record = await w.store.load_match(game_id)
    # The AI kept its card at once: aiko alone is asked, and still privately, her cards never in the thread.
    assert [p.seat for p in match.prompts()] == [0] and match.prompts()[0].secret
    post = await current_prompt(w, game_id, thread)
    assert not any(c.startswith("mt:a:") for c in custom_ids(post))
    assert "Choose privately with the button below." in post.content
    opened = await w.members[0].click(post, custom_id=next(c for c in custom_ids(post) if c.startswith("mt:c:")))
    assert opened.ephemeral and len([c for c in custom_ids(reply(opened)) if c.startswith("mt:a:")]) == 2
