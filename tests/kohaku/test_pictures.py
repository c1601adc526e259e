"""Kōhaku's pictures: drawn for random positions of every kind, 900 px wide, no text under 28 px."""

from __future__ import annotations

import random

import pytest

from games.kohaku import deal, pictures, words
from games.kohaku.data import TILES
from i18n import using
from render.text import ELLIPSIS

NAMES = ["Aiko", "Botan", "Chiyo", "Daiki"]


def views(seats: int, seed: int, every: int = 9) -> list[tuple[dict, list]]:
    m = deal(seats, seed=seed, goals=seats == 3)
    rng = random.Random(seed)
    out, events, step = [], [], 0
    while not m.is_over:
        seat = m.waiting()[0]
        if step % every == 0 or m.phase == "goals":
            out.append((m.view(seat), events))
        events = m.apply(seat, rng.choice(m.legal_actions(seat)))
        step += 1
    out.append((m.view(0), events))
    return out


@pytest.fixture
def sizes(monkeypatch):
    seen: list[int] = []
    draw = pictures._text

    def spy(img, xy, text, size, fill, **kwargs):
        seen.append(size)
        return draw(img, xy, text, size, fill, **kwargs)

    monkeypatch.setattr(pictures, "_text", spy)
    return seen


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.slow
def test_turn_and_table_pictures_are_drawn_phone_wide_with_readable_text(seats, sizes):
    for view, events in views(seats, 60 + seats):
        img = pictures.draw_turn(view, NAMES, events=events)
        assert img.width == pictures.WIDTH and 600 < img.height < 4000
        table = pictures.draw_table(view, NAMES, events)
        assert table.width == pictures.WIDTH
    assert sizes and min(sizes) >= 28


def test_pictures_encode_as_png():
    view, events = views(2, 5, every=40)[1]
    assert pictures.turn(view, NAMES, events=events).startswith(b"\x89PNG\r\n\x1a\n")
    assert pictures.table(view, NAMES).startswith(b"\x89PNG\r\n\x1a\n")


def test_a_zone_prompt_marks_the_places_of_the_tile():
    m = deal(2, seed=4)
    from games.kohaku.rules import place_id
    from games.kohaku.scoring import cell, xy

    while m._kind() != "zone":
        seat = m.current
        m.apply(seat, "t:1-2")
        while m.current == seat and m.phase == "place" and m._kind() != "zone":
            right = max(xy(c)[0] for c in m.ponds[seat]) + 1
            m.apply(seat, place_id(cell(right, 0)))
    view = m.view(m.current)
    assert view["prompt"]["kind"] == "zone"
    assert len(pictures._zone_cells(view)) == len(m._candidates())
    assert pictures.draw_turn(view, NAMES).width == pictures.WIDTH


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_every_tile_in_hand_shows_its_whole_name_and_rule(locale):
    # A long name or rule goes on to a second line rather than being cut with an ellipsis.
    with using(locale):
        for tile in TILES:
            view = {"hand": [words._tile(tile.id)]}
            ((_tile, name, rule, height),) = pictures._hand_rows(view)
            assert not any(ELLIPSIS in line for line in name + rule), (name, rule)
            full = words.tile_full(tile.id)
            assert " ".join(name) == full[:1].upper() + full[1:]
            if not tile.koi:
                assert " ".join(rule) == words.feature_rule(tile.id)
            assert height >= pictures.HAND_TILE + 16
    with using("pt_BR"):
        # The longest rules need two lines in Portuguese, and the row grows to hold them.
        rows = [pictures._hand_rows({"hand": [words._tile(t.id)]})[0] for t in TILES]
        assert max(len(rule) for _t, _n, rule, _h in rows) == 2
        assert max(h for *_rest, h in rows) > pictures.HAND_TILE + 16


def test_the_final_score_sheet_names_each_players_kept_goal_card_in_full(monkeypatch):
    m = deal(4, seed=7, goals=True)
    rng = random.Random(1)
    while not m.is_over:
        seat = m.waiting()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    view = m.view(None)
    kept = view["goal_cards"]["kept"]
    assert all(kept)
    drawn: list[str] = []
    draw = pictures._text
    monkeypatch.setattr(
        pictures, "_text", lambda img, xy, text, *a, **k: (drawn.append(text), draw(img, xy, text, *a, **k))
    )
    for language in ("en", "pt_BR"):
        drawn.clear()
        with using(language):
            pictures.draw_table(view, NAMES)
            lines = [f"{NAMES[s]}'s goal card: {words.goal_name(g)}" for s, g in enumerate(kept)]
            if language == "pt_BR":
                lines = [f"Carta de objetivo de {NAMES[s]}: {words.goal_name(g)}" for s, g in enumerate(kept)]
        assert all(line in drawn for line in lines), (language, drawn[-6:])
    # Before the end nobody's card is named to the table.
    m2 = deal(4, seed=7, goals=True)
    drawn.clear()
    pictures.draw_table(m2.view(None), NAMES)
    assert not any("goal card:" in text for text in drawn)
