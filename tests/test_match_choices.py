"""What the platform's table shows on each choice: the game's label, and, where the game gives them, a line under a
menu's choice, an emoji and a line under a group; a game that gives none is shown as before."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import discord
import pytest

from cogs.limits import SELECT_PLACEHOLDER, one_emoji
from cogs.match_items import GROUP_MARK, Choice, choices_view, in_two_steps
from cogs.matches import offer
from games.base import GameModule, Match, Option, Prompt
from games.kohaku import words as kohaku_words
from games.kohaku.module import MODULE as KOHAKU
from games.kohaku.module import Kohaku
from games.kokeshi import vocab
from games.kokeshi.module import MODULE as KOKESHI
from games.kokeshi.module import KokeshiMatch
from i18n import using
from tests import own_table as components
from tests.games import tiny


def reached(module: GameModule, seats: int, wanted: Callable[[Prompt], bool], seed: int = 0) -> Match:
    """A match played at random (from `seed`) until its first prompt is `wanted`."""
    for attempt in range(seed, seed + 20):
        match = module.deal({}, attempt, seats)
        rng = random.Random(attempt)
        while not match.is_over:
            prompt = match.prompts()[0]
            if wanted(prompt):
                return match
            match.apply(prompt.seat, rng.choice(prompt.options).id)
    raise AssertionError("no such position")


def in_a_menu(prompt: Prompt) -> bool:
    return 5 < len(prompt.options) <= 25 and not in_two_steps([o.group for o in prompt.options])


def two_steps(prompt: Prompt) -> bool:
    return in_two_steps([o.group for o in prompt.options])


def parts(view: discord.ui.View) -> list[discord.ui.Item]:
    """A view's buttons and menus (a persistent one's inside its `DynamicItem`)."""
    return [item.item if isinstance(item, discord.ui.DynamicItem) else item for item in view.children]


def selects(view: discord.ui.View) -> list[discord.ui.Select]:
    return [item for item in parts(view) if isinstance(item, discord.ui.Select)]


def buttons(view: discord.ui.View) -> list[discord.ui.Button]:
    return [item for item in parts(view) if isinstance(item, discord.ui.Button)]


def lines(select: discord.ui.Select) -> list[tuple[str, str, str | None, str | None]]:
    """A menu's lines as a player reads them: value, label, the line under it, the emoji."""
    return [(o.value, o.label, o.description, str(o.emoji) if o.emoji else None) for o in select.options]


def offered(module: GameModule, match: Match) -> discord.ui.View:
    prompt = match.prompts()[0]
    return offer(module, match.view(prompt.seat), prompt, 7, match.version)


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_a_kokeshi_menu_says_under_each_choice_what_it_does_with_kokeshis_own_words_and_emoji(locale):
    match = reached(KOKESHI, 2, in_a_menu)
    assert isinstance(match, KokeshiMatch)
    (prompt,) = match.prompts()
    view = match.view(prompt.seat)
    for language in ("en", locale):  # the same view read again in another language: its words follow
        with using(language):
            (ours,) = selects(offer(KOKESHI, view, prompt, 7, match.version))
            (theirs,) = selects(components.prompt_view(7, match.version, match.engine.prompt, match.engine))
            assert lines(ours) == lines(theirs)
            # Each line says what the choice does, under a label that leaves it out; a tile bought shows its cart.
            assert all(
                description and description.startswith(f"{vocab.ARROW} ") for _v, _l, description, _e in lines(ours)
            )
            assert all(vocab.ARROW not in label for _v, label, _d, _e in lines(ours))
            assert {emoji for *_rest, emoji in lines(ours)} >= {"🛒"}


def test_a_kokeshi_tile_first_menu_says_under_each_tile_the_tracks_it_may_go_on_as_kokeshis_tile_menu_does():
    match = reached(KOKESHI, 2, two_steps)
    assert isinstance(match, KokeshiMatch)
    (prompt,) = match.prompts()
    (menu,) = selects(offer(KOKESHI, match.view(prompt.seat), prompt, 7, match.version))
    tracks = components.tile_tracks(match.engine.prompt)
    assert [(o.value, o.description) for o in menu.options] == [(GROUP_MARK + t, line) for t, line in tracks.items()]
    assert all(line.startswith(f"{vocab.ARROW} ") and vocab.kokeshi("princess") in line for line in tracks.values())


def test_a_kokeshi_button_carries_the_emoji_of_kokeshis_own_button():
    match = reached(KOKESHI, 2, lambda p: p.kind == "advance" and len(p.options) <= 5)
    assert isinstance(match, KokeshiMatch)
    ours = buttons(offered(KOKESHI, match))
    theirs = buttons(components.prompt_view(7, match.version, match.engine.prompt, match.engine))
    assert [str(b.emoji) for b in ours] == [str(b.emoji) for b in theirs]
    assert [str(b.emoji) for b in ours] == [vocab.KOKESHI_EMOJI[o.id.split(":")[1]] for o in match.prompts()[0].options]


def test_kohaku_shows_an_emoji_per_tile_and_keeps_one_label_per_choice_and_a_count_under_each_group():
    match = reached(KOHAKU, 2, in_a_menu)
    prompt = match.prompts()[0]
    view = match.view(prompt.seat)
    (menu,) = selects(offered(KOHAKU, match))
    assert lines(menu) == [(o.id, KOHAKU.label(view, o), None, KOHAKU.option_symbol(view, o)) for o in prompt.options]
    assert {emoji for *_rest, emoji in lines(menu)} <= set(kohaku_words.KIND_EMOJI.values())
    grouped = reached(KOHAKU, 2, two_steps)
    prompt = grouped.prompts()[0]
    (menu,) = selects(offered(KOHAKU, grouped))
    assert {o.value: o.description for o in menu.options if o.value.startswith(GROUP_MARK)} == counts(prompt)


class Plain(Kohaku):
    """Kōhaku as a game that gives none of the optional words of a choice."""

    option_detail = GameModule.option_detail
    menu_label = GameModule.menu_label
    option_symbol = GameModule.option_symbol
    group_detail = GameModule.group_detail


def counts(prompt: Prompt) -> dict[str, str]:
    """What the platform says under each group of a prompt that the game says nothing of: how many choices."""
    return {GROUP_MARK + g: f"{len(o)} choices" if len(o) > 1 else "1 choice" for g, o in prompt.groups().items()}


def test_a_game_without_the_optional_words_has_one_label_per_choice_no_emoji_and_a_count_under_each_group():
    plain = Plain()
    match = reached(plain, 2, in_a_menu)
    prompt = match.prompts()[0]
    view = match.view(prompt.seat)
    (menu,) = selects(offered(plain, match))
    assert lines(menu) == [(o.id, plain.label(view, o), None, None) for o in prompt.options]
    grouped = reached(plain, 2, two_steps)
    prompt = grouped.prompts()[0]
    (menu,) = selects(offered(plain, grouped))
    assert all(o.emoji is None for o in menu.options)
    assert {o.value: o.description for o in menu.options if o.value.startswith(GROUP_MARK)} == counts(prompt)
    ungrouped = [o for o in menu.options if not o.value.startswith(GROUP_MARK)]
    assert all(o.description is None for o in ungrouped)


def test_the_tiny_games_buttons_have_no_emoji():
    match = tiny.MODULE.deal({}, 1, 2)
    (prompt, *_others) = match.prompts()
    view = offer(tiny.MODULE, match.view(prompt.seat), prompt, 7, match.version)
    assert [(b.label, b.emoji) for b in buttons(view)] == [(tiny.MODULE.label({}, o), None) for o in prompt.options]


class Emojis(type(tiny.MODULE)):  # type: ignore[misc]
    """The tiny game with an emoji per choice: a good one, words, and none."""

    def option_symbol(self, view: Mapping[str, Any], option: Option) -> str | None:
        return {"bid:1": "🥉", "bid:2": "two", "bid:3": "<:coin:123>"}.get(option.id)


def test_an_emoji_that_is_not_one_is_left_out_rather_than_refused_by_discord():
    module = Emojis()
    match = module.deal({}, 1, 2)
    (prompt, *_others) = match.prompts()
    view = offer(module, match.view(prompt.seat), prompt, 7, match.version)
    assert [str(b.emoji) if b.emoji else None for b in buttons(view)] == ["🥉", None, None, None]


@pytest.mark.parametrize("text", ["👑", "⚔️", "1️⃣", "🇯🇵", "👩🏽‍🚀", "🏳️‍🌈"])
def test_one_emoji_is_taken(text):
    assert one_emoji(text) == text


@pytest.mark.parametrize("text", [None, "", "a", "ok", "👑 crown", "<:coin:123>", "→", "🐼" * 20])
def test_words_markup_and_arrows_are_not_an_emoji(text):
    assert one_emoji(text) is None


def test_a_long_question_is_cut_to_a_placeholder_and_each_menu_still_says_which_part_it_holds():
    question = "Which one " + "of these many choices " * 9
    choices = [Choice(f"c{n}", f"choice {n}") for n in range(30)]
    placeholders = [select.placeholder for select in selects(choices_view(7, 1, choices, question))]
    assert [p.rsplit(" · ", 1)[-1] for p in placeholders] == ["1–25/30", "26–30/30"]
    assert all(len(p) <= SELECT_PLACEHOLDER and p.startswith("Which one of these") for p in placeholders)


def test_buttons_that_would_read_alike_once_cut_to_fit_are_asked_in_a_menu():
    alike = "Fisherman track · blue → height 4, then Fisherman track, height 5, makes 2 pairs (−6) · −4 pts"
    choices = [Choice("a", f"{alike} · Panda"), Choice("b", f"{alike} · Cat")]
    (select,) = parts(choices_view(7, 1, choices, "Place"))
    assert isinstance(select, discord.ui.Select) and [o.value for o in select.options] == ["a", "b"]
    apart = [Choice("a", "Panda"), Choice("b", "Cat")]
    assert [b.label for b in buttons(choices_view(7, 1, apart, "Place"))] == ["Panda", "Cat"]
