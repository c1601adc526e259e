"""Two choices of one prompt never read alike, at either table and in every language: not on a button cut to fit,
not in a menu, not in a tile-first menu. A starting tile and the pair tile of its colour and sides are told apart by
naming the starting one; two placements whose labels differ only past a button's room are asked in a menu."""

from __future__ import annotations

import random

import discord
import pytest

import i18n
from cogs.limits import BUTTON_LABEL, SELECT_OPTION
from cogs.match_items import GROUP_MARK, groups_view, in_two_steps
from cogs.matches import choice_of, offer
from games.base import Match
from games.kokeshi import vocab
from games.kokeshi.engine import Game
from games.kokeshi.engine.preview import preview_all
from games.kokeshi.module import MODULE as KOKESHI
from games.kokeshi.module import KokeshiMatch
from i18n import _
from tests.own_table import prompt_view, track_view
from tests.positions import detach, filler, ready, set_track, tile

LOCALES = ("en", "pt_BR")


def _placing(g: Game, entries: list[tuple[str, int]]) -> Game:
    """`g` asking its first player to place these tiles (tile id, track index; -1: any track) from the reserve."""
    for tile_id, track in entries:
        g.reserve[0].append((detach(g, tile_id), track))
    g.decision = ["place"]
    g._options = g._compute_options(g.decision)
    return g


def twins() -> Game:
    """A starting tile and the pair tile of its colour and sides (blue: Fisherman or Samurai), both for any track."""
    return _placing(ready(), [(tile("blue", "start1"), -1), (tile("blue", "plus1"), -1)])


def cut_apart() -> Game:
    """Two blue tiles bound for the Fisherman track, each making pairs there: their labels differ only in the tile's
    sides, which come after what the placement does and past a button's room."""
    g = ready()
    set_track(g, 0, "fisherman", filler(g, 2, avoid_color="blue") + [tile("blue", "left")])
    return _placing(g, [(tile("blue", "animal1"), 2), (tile("blue", "animal2"), 2)])


def cut_at_a_label() -> Game:
    """Two blue tiles bound for the Samurai track, each making a pair there with the other, which goes on it at once:
    what the placement does fills a button whole, and the tile's sides after it pass a label's 100 characters."""
    g = ready()
    set_track(g, 0, "samurai", filler(g, 2, avoid_color="blue"))
    return _placing(g, [(tile("blue", "plus1"), 3), (tile("blue", "plus4"), 3)])


def _parts(view: discord.ui.View) -> list[discord.ui.Item]:
    return [item.item if isinstance(item, discord.ui.DynamicItem) else item for item in view.children]


def kokeshi_table(g: Game) -> list[list[str]]:
    """What `/kokeshi` shows for the prompt, as lists a player must tell apart: the buttons, a menu's lines (label and
    the line under it, and the labels alone), a tile menu's tiles and each tile's tracks."""
    shown: list[list[str]] = []
    items = _parts(prompt_view(1, g.version, g.prompt, g))
    buttons = [i.label for i in items if isinstance(i, discord.ui.Button)]
    if buttons:
        assert all(len(b) <= BUTTON_LABEL for b in buttons)
        shown.append(buttons)
    for select in (i for i in items if isinstance(i, discord.ui.Select)):
        assert all(len(o.label) <= SELECT_OPTION and len(o.description or "") <= SELECT_OPTION for o in select.options)
        shown.append([o.label for o in select.options])
        shown.append([f"{o.label}\n{o.description}" for o in select.options])
        if select.custom_id.startswith("kk:t:"):
            for chosen in (o.value for o in select.options):
                shown.append([b.label for b in _parts(track_view(1, g.version, g.prompt, chosen, g))])
    return shown


def platform_table(match: Match) -> list[list[str]]:
    """What the platform's table shows for the match's prompt, as lists a player must tell apart: every label the
    contract gives, then the buttons or menus of one step, or the groups and each group's second step."""
    (prompt,) = match.prompts()
    view = match.view(prompt.seat)
    shown: list[list[str]] = [[KOKESHI.label(view, o) for o in prompt.options]]
    steps = [offer(KOKESHI, view, prompt, 7, match.version)]
    if in_two_steps([o.group for o in prompt.options]):
        entries = [i for i in _parts(steps[0]) if isinstance(i, discord.ui.Select)]
        for group, options in prompt.groups().items():
            assert any(o.value == GROUP_MARK + group for s in entries for o in s.options)
            choices = [choice_of(KOKESHI, view, o) for o in options]
            steps.append(groups_view(7, match.version, [], "", group, choices))
    for step in steps:
        items = _parts(step)
        buttons = [i.label for i in items if isinstance(i, discord.ui.Button)]
        if buttons:
            assert all(len(b) <= BUTTON_LABEL for b in buttons)
            shown.append(buttons)
        for select in (i for i in items if isinstance(i, discord.ui.Select)):
            assert all(
                len(o.label) <= SELECT_OPTION and len(o.description or "") <= SELECT_OPTION for o in select.options
            )
            shown.append([o.label for o in select.options])
    return shown


def alike(lists: list[list[str]]) -> list[list[str]]:
    """The lists in which two entries read alike."""
    return [words for words in lists if len(set(words)) != len(words)]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("position", [twins, cut_apart, cut_at_a_label])
def test_two_placements_never_read_alike_at_either_table(position, locale):
    with i18n.using(locale):
        assert alike(kokeshi_table(position())) == []
        assert alike(platform_table(KokeshiMatch(position()))) == []


@pytest.mark.parametrize("locale", LOCALES)
def test_a_starting_tile_worded_as_another_tile_of_the_prompt_is_named_a_starting_tile(locale):
    g = twins()
    start, pair = tile("blue", "start1"), tile("blue", "plus1")
    assert vocab.twins(g.prompt.options) == {
        f"place:{start}:{k}" for k in ("princess", "batchan", "fisherman", "samurai", "sumotori")
    }
    match = KokeshiMatch(twins())
    (prompt,) = match.prompts()
    view = match.view(prompt.seat)
    with i18n.using(locale):
        named = _("starting tile, {tile}").format(tile=vocab.tile(start))
        # Its group in the tile-first menu, each of its placements in menus and on buttons; the pair tile as before.
        assert KOKESHI.group_label(view, prompt, start) == named
        assert KOKESHI.group_label(view, prompt, pair) == vocab.tile(pair)
        for option in prompt.options:
            starting = option.group == start
            assert (named in KOKESHI.menu_label(view, option)) is starting
        # /kokeshi's menu the same.
        (select,) = _parts(prompt_view(1, g.version, g.prompt, g))
        assert isinstance(select, discord.ui.Select)
        assert [named in o.label for o in select.options] == [o.id.split(":")[1] == start for o in g.prompt.options]
    # Alone in a prompt, a starting tile is not named one (the setup places only starting tiles).
    alone = _placing(ready(), [(tile("blue", "start1"), -1), (tile("pink", "plus1"), -1)])
    assert vocab.twins(alone.prompt.options) == frozenset()


def test_two_placements_alike_but_past_a_buttons_room_are_asked_in_a_menu_at_both_tables():
    g = cut_apart()
    assert len(g.prompt.options) == 2
    # On buttons they would read alike: each button's room ends before the tile's sides.
    with i18n.using("en"):
        view, prompt, _id, _version = _asked(KokeshiMatch(cut_apart()))
        labels = [KOKESHI.label(view, o) for o in prompt.options]
        assert len(set(labels)) == 2 and len({label[: BUTTON_LABEL - 1] for label in labels}) == 1
        for view in (prompt_view(1, g.version, g.prompt, g), offer(KOKESHI, *_asked(KokeshiMatch(cut_apart())))):
            (select,) = [i for i in _parts(view) if isinstance(i, discord.ui.Select)]
            assert [o.value for o in select.options] == [o.id for o in g.prompt.options]
            assert "Panda" in select.options[0].label and "Cat" in select.options[1].label


def test_two_labels_alike_once_cut_to_a_labels_room_are_said_briefly():
    g = cut_at_a_label()
    outcomes = preview_all(g)
    with i18n.using("en"):
        # In full, what tells them apart (the tile's sides) is past the room.
        full = [vocab.fit(vocab.option_button(o, outcomes[o.id]), SELECT_OPTION) for o in g.prompt.options]
        assert len(full) == 2 and full[0] == full[1]
        view, prompt, _id, _version = _asked(KokeshiMatch(cut_at_a_label()))
        labels = [KOKESHI.label(view, o) for o in prompt.options]
        assert labels == [
            "Samurai track · blue → height 3, makes a pair (−3) · Fisherman or Samurai",
            "Samurai track · blue → height 3, makes a pair (−3) · Fisherman or Batchan",
        ]


def _asked(match: Match):
    (prompt,) = match.prompts()
    return match.view(prompt.seat), prompt, 7, match.version


def random_positions(seeds: range):
    """Matches of 1 to 4 seats on both sides, played at random, at each of their prompts (the same match object,
    moved on after each)."""
    for seed in seeds:
        rng = random.Random(seed)
        match = KOKESHI.deal({"side": ("basic", "advanced")[seed % 2]}, seed, 1 + seed % 4)
        while not match.is_over:
            yield match
            (prompt,) = match.prompts()
            match.apply(prompt.seat, rng.choice(prompt.options).id)


@pytest.mark.slow  # some eight hundred prompts, each shown at both tables in both languages
def test_no_two_choices_of_any_prompt_read_alike_over_many_random_games():
    checked = 0
    for match in random_positions(range(16)):
        assert isinstance(match, KokeshiMatch)
        for locale in LOCALES:
            with i18n.using(locale):
                found = alike(kokeshi_table(match.engine)) + alike(platform_table(match))
            assert found == [], (locale, match.version, found)
        checked += 1
    assert checked > 600
