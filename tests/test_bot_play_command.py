"""`/kokeshi play`: every decision by slash command, with autocomplete over the caller's legal choices."""

from __future__ import annotations

import pytest
from discord import app_commands

import games
from cogs.limits import shorten as fit
from games.kokeshi import vocab
from games.kokeshi.engine import GreedyPolicy
from tests.botkit import load_game, open_game, prompt_message


def said(result) -> list[str]:
    return [m.content for m in [result.response, *result.followups] if m is not None and m.content]


@pytest.mark.slow
async def test_every_kind_of_decision_can_be_answered_with_kokeshi_play(world):
    game_id, thread = await open_game(world, players=2)
    kinds = set()
    for _ in range(40):
        game, version = await load_game(world, game_id)
        prompt = game.prompt
        member = world.member(prompt.player)
        offered = await member.autocomplete(thread, "kokeshi play", "choice", "")
        # Each choice as on the buttons: what it is and what it does (as the platform's table labels them).
        match, _, record = await world.store.load_match(game_id)
        seat = record.seat_of(member.id).seat
        view = match.view(seat)
        asked = next(p for p in match.prompts() if p.seat == seat)
        labels = {o.id: fit(games.get(record.game).label(view, o), 100) for o in asked.options}
        assert offered and len(offered) == min(25, len(prompt.options))
        assert {c["name"] for c in offered} <= set(labels.values())
        action = GreedyPolicy(version).choose(game)
        # Typing part of the label the list shows narrows the list to the choice.
        shown = labels[action]
        narrowed = await member.autocomplete(thread, "kokeshi play", "choice", shown[:40])
        assert shown in {c["name"] for c in narrowed}, (shown, narrowed)
        value = next(c["value"] for c in narrowed if c["value"] == f"{version}:{action}")
        result = await member.slash(thread, "kokeshi play", choice=value)
        assert said(result) == ["Your choice is in."], said(result)
        assert (await world.store.match_decisions(game_id))[-1].action == action
        kinds.add(prompt.kind)
    assert len(kinds) >= 3, kinds
    assert world.env.errors == []


async def test_kokeshi_play_checks_the_version_the_seat_and_the_turn_like_a_button(world):
    game_id, thread = await open_game(world, players=2)
    game, version = await load_game(world, game_id)
    mover = world.member(game.prompt.player)
    other = next(m for m in world.members[:2] if m is not mover)
    outsider = world.members[3]
    [first, *_] = await mover.autocomplete(thread, "kokeshi play", "choice", "")
    assert await other.autocomplete(thread, "kokeshi play", "choice", "") == []

    out_of_turn = said(await other.slash(thread, "kokeshi play", choice=first["value"]))
    assert len(out_of_turn) == 1 and "your choice is in" not in out_of_turn[0].lower()
    refused = said(await outsider.slash(thread, "kokeshi play", choice=first["value"]))
    assert refused == ["You are not playing in this game."]
    assert await world.store.match_decisions(game_id) == []

    assert said(await mover.slash(thread, "kokeshi play", choice=first["value"])) == ["Your choice is in."]
    # The same choice again is for a version that is gone: out of date, like an old button.
    again = await mover.slash(thread, "kokeshi play", choice=first["value"])
    assert "no longer current" in said(again)[0] and len(await world.store.match_decisions(game_id)) == 1
    # Text that is no choice at all gets a clear refusal that fits, and changes nothing.
    nonsense = said(await mover.slash(thread, "kokeshi play", choice="x" * 3000))
    assert len(nonsense) == 1 and len(nonsense[0]) <= 2000 and "is not one of your choices now" in nonsense[0]
    assert len(await world.store.match_decisions(game_id)) == 1
    # The buttons still work alongside.
    assert (await prompt_message(world, game_id, thread)).components
    assert out_of_turn == [f"It's {game.prompt.player}'s turn, not yours."]
    # A label typed out in full is understood too.
    game, version = await load_game(world, game_id)
    option = game.prompt.options[0]
    member = world.member(game.prompt.player)
    assert said(await member.slash(thread, "kokeshi play", choice=vocab.label(option))) == ["Your choice is in."]
    assert (await world.store.match_decisions(game_id))[-1].action == option.id


async def test_every_command_with_a_game_option_offers_the_callers_games_narrowed_by_what_is_typed(world):
    first, _ = await open_game(world, players=2)
    second, _ = await open_game(world, players=2)
    group = world.bot.tree.get_command("kokeshi")
    leaves = [c for c in group.walk_commands() if isinstance(c, app_commands.Command)]
    named = sorted(
        c.qualified_name.removeprefix("kokeshi ") for c in leaves if any(p.name == "game" for p in c.parameters)
    )
    assert {"play", "hint", "table", "undo", "resign", "status", "join"} <= set(named)
    member = world.members[0]
    for name in named:
        offered = await member.autocomplete(world.channel, f"kokeshi {name}", "game", "")
        assert {c["value"] for c in offered} == {first, second}, name
        assert all(c["name"].startswith("#") for c in offered), name
        narrowed = await member.autocomplete(world.channel, f"kokeshi {name}", "game", f"#{second}")
        assert [c["value"] for c in narrowed] == [second], name
    assert world.env.errors == []
