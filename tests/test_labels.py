"""Every choice says what it does before the click, in English and in Portuguese: where a kokeshi lands, where a
bought or placed tile goes and the pairs it makes, a disc's next value, the points it scores at once. Checked
against the engine's own preview, on the buttons and menus the bot really sends (cut to Discord's limits)."""

from __future__ import annotations

import functools

import pytest

import games.kokeshi.engine as engine
import i18n
from cogs.limits import BUTTON_LABEL, SELECT_OPTION
from games.kokeshi import vocab
from games.kokeshi.engine.data import TOP_POINTS
from games.kokeshi.engine.preview import EMPTY, QUALITY, TILE, TOP, preview, preview_all
from i18n import _
from tests.own_table import prompt_view, track_view
from tests.positions import filler, play, ready, set_offer, set_track, tile

LOCALES = ("en", "pt_BR")


def _told(outcome, brief: bool) -> list[str]:
    """The phrases a choice's words must hold, in the current language, from its preview."""
    need: list[str] = []
    said_top = said_pairs = False
    if outcome.landings:
        final = outcome.final
        for step in outcome.path[:-1]:
            assert step.space == QUALITY
            need.append(_("quality tile") if brief else _("quality tile: one more step"))
        if final.space == TOP:
            need.append(_("past the top: {points}").format(points=f"+{TOP_POINTS}"))
            said_top = True
        elif final.space == TILE:
            need.append(_("tile: {effects}").format(effects=vocab.tile_effects(final.tile, outcome.rules)))
        elif final.space == EMPTY:
            pending = outcome.pending
            skipped = next((p for p in outcome.purchases if p.skipped), None)
            if pending is None and skipped is not None:
                why = vocab.reason({"reason": skipped.skipped, "kokeshi": skipped.track})
                need.append(_("empty space: nothing to buy ({reason})").format(reason=why))
            elif pending is not None and pending.quality:
                need.append(_("empty space: buy, {quality}").format(quality=vocab.quality_offer(list(pending.quality))))
            else:
                need.append(_("empty space: buy for this track"))
    else:
        made = [p for p in outcome.purchases if p.tile]
        placed = [p for p in outcome.placements if p.player == outcome.player]
        mine = [d for d in outcome.discs if d.player == outcome.player]
        if made:
            p = made[0]
            if brief and p.height:
                need.append(_("height {height}").format(height=p.height))
            else:
                need.append(vocab.track_height(p.track, p.height))
            if p.pairs:
                need.append(vocab.pairs(p.pairs))
                said_pairs = True
        elif outcome.pending is not None and outcome.pending.track is not None:
            need.append(vocab.track_height(outcome.pending.track, outcome.pending.height))
        elif mine:
            need.append(f"{vocab.ARROW} {mine[0].value_to}")
        elif placed:
            need.append(_("height {height}").format(height=placed[0].height))
            count = sum(p.pairs for p in placed)
            if count:
                need.append(vocab.pairs(count))
                said_pairs = True
    items = dict(outcome.items)
    told = (said_top and items == {"in_play": TOP_POINTS}) or (said_pairs and set(items) == {"adjacency"})
    if outcome.points and not told:
        need.append(vocab.signed_points(outcome.points))
    return need


@functools.cache
def positions() -> list[engine.Game]:
    """Games at decisions of every kind, in 1 to 4 seats, both board sides (played once, when a test first asks:
    not while the tests are collected)."""
    found: dict[str, list[engine.Game]] = {}
    for seed in range(12):
        for names, solo, side in (
            (["Aiko", "Botan"], False, "basic"),
            (["Aiko", "Botan", "Chiyo", "Daiki"], False, "advanced"),
            (["Aiko"], True, "basic"),
            (["Aiko", "Botan", "Chiyo"], False, "advanced"),
        ):
            g = engine.new_game(names, seed=seed, solo=solo, side=side)
            policy = engine.GreedyPolicy(seed)
            step = 0
            while g.prompt is not None:
                kind = g.prompt.kind
                if step % 3 == 0 and len(found.setdefault(kind, [])) < 40:
                    found[kind].append(g.clone())
                g.apply(g.prompt.player, policy.choose(g))
                step += 1
    assert set(found) == {"setup", "advance", "effect", "kokeshi", "animal", "buy", "place"}
    return [g for games in found.values() for g in games]


def _components(g: engine.Game) -> dict[str, str]:
    """What the bot shows for each option of the prompt: a button's label, or a menu line's label and description."""
    view = prompt_view(1, g.version, g.prompt, g)
    shown: dict[str, str] = {}
    for item in view.children:
        raw = item.item
        if hasattr(raw, "options"):
            if raw.custom_id.startswith("kk:t:"):  # many placements: a tile first, then the tracks as buttons
                for chosen in {o.id.split(":")[1] for o in g.prompt.options}:
                    for button in track_view(1, g.version, g.prompt, chosen, g).children:
                        assert len(button.item.label) <= BUTTON_LABEL
                        shown[button.item.custom_id.split(":", 4)[4]] = button.item.label
                continue
            for line in raw.options:
                assert len(line.label) <= SELECT_OPTION and len(line.description or "") <= SELECT_OPTION
                shown[line.value] = f"{line.label}\n{line.description or ''}"
        else:
            assert len(raw.label) <= BUTTON_LABEL
            shown[raw.custom_id.split(":", 4)[4]] = raw.label
    return shown


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.slow
def test_every_choice_of_every_kind_names_its_consequence_as_the_preview_finds_it(locale):
    kinds: set[str] = set()
    checked = 0
    with i18n.using(locale):
        for g in positions():
            shown = _components(g)
            assert set(shown) == set(g.legal_actions())
            for option in g.prompt.options:
                outcome = preview(g, option.id)
                text = shown[option.id]
                # Buttons may say it briefly (the picture shows the rest); a menu line says it in full, or briefly
                # when even its description would be cut.
                full, brief = _told(outcome, False), _told(outcome, True)
                assert all(p in text for p in full) or all(p in text for p in brief), (option.id, text, full)
                kinds.add(g.prompt.kind)
                checked += 1
    assert kinds == {"setup", "advance", "effect", "kokeshi", "animal", "buy", "place"}
    assert checked > 1000


@pytest.mark.parametrize(
    ("locale", "top", "empty", "pair", "height"),
    [
        ("en", "→ past the top: +3", "→ empty space: buy for this track", "makes a pair (−3)", "Samurai track, height"),
        ("pt_BR", "→ passa do topo: +3", "→ espaço vazio: compra para esta trilha", "faz um par (−3)", "altura"),
    ],
)
def test_the_words_of_each_consequence(locale, top, empty, pair, height):
    g = ready()
    set_track(g, 0, "princess", filler(g, 7, avoid_color="pink"))
    g.kokeshi[0][0] = 7
    with i18n.using(locale):
        outcomes = preview_all(g)
        assert top in vocab.option_button(g.prompt.options[0], outcomes["advance:princess"])
        assert empty in vocab.option_button(g.prompt.options[3], outcomes["advance:samurai"])
    # The samurai lands on its empty first space: a green tile bought for it sits on the green home space.
    green, pink = tile("green", "left"), tile("pink", "left")
    set_offer(g, [green, pink, *filler(g, 2, avoid_color="green")])
    play(g, "advance:samurai")
    assert g.prompt.kind == "buy"
    with i18n.using(locale):
        shown = _components(g)
        assert f"{height} 1" in shown["market:0"] and pair in shown["market:0"]
        assert f"{height} 1" in shown["market:1"] and pair not in shown["market:1"]


def test_a_placement_next_to_its_colour_says_it_makes_a_pair_in_both_languages():
    g = ready()
    pink = tile("pink", "left")
    from tests.positions import detach

    g.reserve[0].append((detach(g, pink), -1))
    g.decision = ["place"]
    g._options = g._compute_options(g.decision)
    for locale, words in (("en", "makes a pair (−3)"), ("pt_BR", "faz um par (−3)")):
        with i18n.using(locale):
            shown = _components(g)
            assert words in shown[f"place:{pink}:princess"]
            assert words not in shown[f"place:{pink}:fisherman"]
