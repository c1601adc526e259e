"""The phone turn picture: its size limits, what each decision shows, and that it draws any view."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image, ImageChops

import games.kokeshi.engine as engine
import i18n
import render
from games.kokeshi import pictures
from games.kokeshi.pictures import palette, phone, rules
from tests.golden import NAMES, decision

KINDS = {
    "setup": (NAMES, 1, {}),
    "advance": (NAMES[:2], 2, {}),
    "effect": (NAMES[:3], 3, {"side": "advanced"}),
    "kokeshi": (NAMES, 4, {"after": 60}),
    "animal": (NAMES, 5, {"side": "advanced"}),
    "buy": (NAMES[:2], 6, {}),
    "place": (NAMES[:1], 7, {"solo": True}),
}


def _game(kind: str) -> engine.Game:
    names, seed, options = KINDS[kind]
    return decision(names, seed, kind, **options)[0]


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    img.load()
    return img.convert("RGB")


@pytest.mark.parametrize("kind", list(KINDS))
def test_phone_picture_is_portrait_and_at_most_1080_wide(kind: str) -> None:
    game = _game(kind)
    assert game.prompt.kind == kind
    img = _png(pictures.turn(game.view(), game.prompt))
    assert img.width <= 1080
    # Portrait, and clearly so: Android crops square previews.
    assert img.height / img.width >= 1.2


def test_prompt_defaults_to_the_views_and_accepts_engine_prompts() -> None:
    game = _game("buy")
    view = game.view()
    assert pictures.turn(view) == pictures.turn(view, game.prompt) == pictures.turn(view, view["prompt"])


def _region(img: Image.Image, box: tuple[int, int, int, int]) -> bytes:
    return img.crop(box).tobytes()


def test_buy_shows_the_offer_in_numbered_slots() -> None:
    game = _game("buy")
    view = game.view()
    layout = phone.PhoneLayout("buy", len(view["players"]))
    before = _png(pictures.turn(view, game.prompt))
    changed = copy.deepcopy(view)
    changed["offer"][2] = None
    after = _png(pictures.turn(changed, game.prompt))
    slot = phone._offer_slot(layout.panel_box, 2)
    assert _region(before, slot) != _region(after, slot)
    other = phone._offer_slot(layout.panel_box, 0)
    assert _region(before, other) == _region(after, other)


def test_animal_shows_the_happiness_board_and_each_disc() -> None:
    game = _game("animal")
    view = game.view()
    layout = phone.PhoneLayout("animal", len(view["players"]))
    assert layout.panel == "happiness"
    before = _png(pictures.turn(view, game.prompt))
    moved = copy.deepcopy(view)
    moved["players"][1]["animals"]["rabbit"] = 7
    after = _png(pictures.turn(moved, game.prompt))
    cell = phone._cell(layout.panel_box, 3, 7)
    assert _region(before, cell) != _region(after, cell)


def test_place_marks_only_the_tracks_a_tile_may_go_on() -> None:
    game = _game("place")
    view = game.view()
    prompt = view["prompt"]
    layout = phone.PhoneLayout("place", len(view["players"]))
    tile = prompt["options"][0]["id"].split(":")[1]
    one_track = dict(prompt, options=[{"id": f"place:{tile}:samurai", "label": ""}])
    every_track = dict(prompt, options=[{"id": f"place:{tile}:{k}", "label": ""} for k in engine.KOKESHI])
    marked = _png(pictures.turn(view, one_track))
    plain = _png(pictures.turn(view, every_track))
    g = layout.workshop
    samurai = engine.KOKESHI.index("samurai")
    x0, y0, x1, y1 = g.track_box(samurai)
    edge = (x0 - 6, y0 - 6, x1 + 6, y0)  # the glow just above the track
    assert _region(marked, edge) != _region(plain, edge)
    x0, y0, x1, y1 = g.track_box(0)
    assert _region(marked, (x0 - 6, y0 - 6, x1 + 6, y0)) == _region(plain, (x0 - 6, y0 - 6, x1 + 6, y0))


def test_the_deciding_players_workshop_is_shown() -> None:
    game = _game("advance")
    view = game.view()
    me = game.prompt.player
    other = next(p["name"] for p in view["players"] if p["name"] != me)
    mine, theirs = _png(pictures.turn(view, game.prompt)), _png(pictures.turn(view, game.prompt, player=other))
    g = phone.PhoneLayout("advance", len(view["players"])).workshop
    assert _region(mine, g.box) != _region(theirs, g.box)


def test_odd_names_and_unknown_kinds_still_draw() -> None:
    game = _game("advance")
    view = copy.deepcopy(game.view())
    view["players"][0]["name"] = "\u202e" + "W" * 80 + "\U0001f3f3\ufe0f\u200d\U0001f308"
    prompt = dict(view["prompt"], kind="something new", player=view["players"][0]["name"])
    img = _png(pictures.turn(view, prompt))
    assert img.width <= 1080


def test_encode_is_lossless_and_deterministic() -> None:
    game = _game("buy")
    img = pictures.draw_turn(game.view(), game.prompt)
    data = render.encode(img)
    assert data == render.encode(img)
    assert ImageChops.difference(_png(data), img.convert("RGB")).getbbox() is None
    rgba = img.convert("RGBA")
    assert Image.open(io.BytesIO(render.encode(rgba))).convert("RGBA").tobytes() == rgba.tobytes()
    grey = img.convert("L")
    assert Image.open(io.BytesIO(render.encode(grey))).tobytes() == grey.tobytes()
    assert render.filename("kokeshi-1-2").endswith("." + render.EXTENSION)


def test_an_effect_choice_marks_the_tile_being_activated() -> None:
    game, events = decision(*KINDS["effect"][:2], "effect", **KINDS["effect"][2])
    activated = [e for e in events if e.kind == "tile_activated" and e.player == game.prompt.player]
    assert activated
    view = game.view()
    tile_id = activated[-1].data["tile"]
    me = next(p for p in view["players"] if p["name"] == game.prompt.player)
    k, h = next(
        (engine.KOKESHI.index(kokeshi), i + 1)
        for kokeshi, column in me["tracks"].items()
        for i, tile in enumerate(column)
        if tile and tile["id"] == tile_id
    )
    g = phone.PhoneLayout("effect", len(view["players"])).workshop
    x0, y0, x1, y1 = g.tile_box(k, h)
    ring = (x0 - 8, y0 - 8, x1 + 8, y0)
    marked = _png(pictures.turn(view, game.prompt, events=events))
    plain = _png(pictures.turn(view, game.prompt))
    assert _region(marked, ring) != _region(plain, ring)
    as_dicts = _png(pictures.turn(view, game.prompt, events=[e.to_dict() for e in events]))
    assert _region(as_dicts, ring) == _region(marked, ring)


def test_the_idle_turns_left_show_in_the_header_only_near_the_end() -> None:
    """From the last quarter of the idle limit (and so on the turn before it would trigger), a badge beside the
    question; earlier, and for a count not near its limit, the picture is unchanged."""
    game = _game("advance")
    limit = game.stall_limit
    quiet = _png(pictures.turn(game.view(), game.prompt))
    game.idles[game.current] = limit - max(1, limit // 4) - 1
    assert _png(pictures.turn(game.view(), game.prompt)).tobytes() == quiet.tobytes()
    game.idles[game.current] = limit - 1
    near = _png(pictures.turn(game.view(), game.prompt))
    header = (0, 0, near.width, phone.HEADER_H)
    below = (0, phone.HEADER_H, near.width, near.height)
    assert _region(near, header) != _region(quiet, header)
    assert _region(near, below) == _region(quiet, below)
    # The badge is vermilion, on the right of the question's line.
    badge = near.crop((near.width // 2, 60, near.width, phone.HEADER_H - 4))
    assert palette.VERMILION in {colour for _, colour in badge.getcolors(1 << 16)}


# ---------------------------------------------------------------- what each decision depends on


def _outcomes(game: engine.Game) -> dict:
    from games.kokeshi.engine.preview import preview_all

    return preview_all(game)


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_decision_shows_the_workshop_offer_happiness_board_and_scores_in_a_short_scroll(kind: str) -> None:
    game = _game(kind)
    view = game.view()
    layout = phone.PhoneLayout(kind, len(view["players"]))
    assert {phone.WORKSHOP, phone.OFFER, phone.HAPPINESS, phone.SCORES} <= set(layout.sections)
    img = _png(pictures.turn(view, game.prompt, outcomes=_outcomes(game)))
    assert img.size == layout.size and img.width == phone.WIDTH
    # One screen or a short scroll on a phone 390 px wide: at most about two screens' worth.
    assert img.height <= 2000, img.height
    # What the decision is about comes first.
    first = {"buy": phone.OFFER, "animal": phone.HAPPINESS, "place": phone.RESERVE, "setup": phone.RESERVE}
    assert layout.sections[0] == first.get(kind, phone.WORKSHOP)


def test_the_quality_tiles_left_are_shown_above_their_track() -> None:
    game = _game("advance")
    view = game.view()
    g = phone.PhoneLayout("advance", len(view["players"])).workshop
    before = _png(pictures.turn(view, game.prompt))
    gone = copy.deepcopy(view)
    gone["quality_supply"]["fisherman"] = []
    after = _png(pictures.turn(gone, game.prompt))
    k = engine.KOKESHI.index("fisherman")
    x0, _, x1, _ = g.track_box(k)
    row = (x0, g.y + phone._NAMES_H, x1, g.y + g.header)
    assert _region(before, row) != _region(after, row)
    other = g.track_box(0)
    assert _region(before, (other[0], row[1], other[2], row[3])) == _region(after, (other[0], row[1], other[2], row[3]))


def test_each_kokeshi_landing_is_marked_from_the_preview() -> None:
    game = _game("advance")
    view = game.view()
    outcomes = _outcomes(game)
    g = phone.PhoneLayout("advance", len(view["players"])).workshop
    marked = _png(pictures.turn(view, game.prompt, outcomes=outcomes))
    plain = _png(pictures.turn(view, game.prompt))
    for option_id, out in outcomes.items():
        final = out.final
        k = engine.KOKESHI.index(final.kokeshi)
        if final.space == "top":
            x0, y0, x1, _ = g.track_box(k)
            box = (x0, y0 - 30, x1, y0 + 30)
        else:
            box = g.tile_box(k, final.to)
        assert _region(marked, box) != _region(plain, box), option_id


def test_a_purchase_marks_where_the_tile_goes_and_which_offer_tiles_make_a_pair() -> None:
    game = _game("buy")
    view = game.view()
    outcomes = _outcomes(game)
    layout = phone.PhoneLayout("buy", len(view["players"]))
    bought = next(p for p in outcomes["market:0"].purchases if p.tile)
    marked = _png(pictures.turn(view, game.prompt, outcomes=outcomes))
    plain = _png(pictures.turn(view, game.prompt))
    k = engine.KOKESHI.index(bought.track)
    assert _region(marked, layout.workshop.tile_box(k, bought.height)) != _region(
        plain, layout.workshop.tile_box(k, bought.height)
    )
    for i in range(4):
        out = outcomes.get(f"market:{i}")
        pairs = out and any(p.pairs for p in out.purchases if p.tile)
        x0, y0, x1, y1 = layout.offer_slot(i)
        corner = (x1 - 50, y1 - 30, x1 + 6, y1 + 8)
        assert (_region(marked, corner) != _region(plain, corner)) == bool(pairs), i


def test_a_disc_choice_marks_each_discs_next_space() -> None:
    game = _game("animal")
    view = game.view()
    outcomes = _outcomes(game)
    layout = phone.PhoneLayout("animal", len(view["players"]))
    marked = _png(pictures.turn(view, game.prompt, outcomes=outcomes))
    plain = _png(pictures.turn(view, game.prompt))
    for out in outcomes.values():
        step = out.discs[0]
        cell = layout.cell(engine.ANIMALS.index(step.animal), step.to)
        assert _region(marked, cell) != _region(plain, cell)


def test_the_record_picture_is_the_board_of_the_player_who_just_played_with_the_changes_marked() -> None:
    from tests.golden import playout

    game, events = playout(NAMES, 7, turns=32)
    view = game.view()
    actor = [e.player for e in events if e.player != engine.AUTOMA][-1]
    assert actor != view["current"]
    record = _png(pictures.table_phone(view, events, actor))
    layout = phone.PhoneLayout(phone.TABLE, len(view["players"]))
    assert layout.sections[0] == phone.WORKSHOP and record.size == layout.size
    # The actor's workshop, not the next player's.
    other = _png(pictures.table_phone(view, events, view["current"]))
    assert _region(record, layout.workshop_box) != _region(other, layout.workshop_box)
    # The changes are marked: without the events, the same board looks different.
    quiet = _png(pictures.table_phone(view, (), actor))
    assert _region(record, layout.workshop_box) != _region(quiet, layout.workshop_box)


def test_the_phone_table_draws_every_other_workshop_with_tile_art() -> None:
    from games.kokeshi.pictures import tiles as tiles_mod

    game, events = playout_for_table()
    view = game.view()
    layout = phone.PhoneLayout(phone.TABLE, len(view["players"]), others=len(view["players"]) - 1)
    img = _png(pictures.table_phone(view, events, others=True))
    assert img.size == layout.size
    _box, board = layout.other(0)
    assert board.tile_h >= tiles_mod.FULL_MIN_HEIGHT, "tiles drawn in full, not as letters"
    assert 2 * board.width + 16 <= phone.WIDTH - 2 * phone.PAD


def playout_for_table():
    from tests.golden import playout

    return playout(NAMES, 7, turns=32)


# A 390×844 phone screen's shape at 900 px wide: a page no taller is shown at the screen's full width when tapped.
PHONE_SCREEN_HEIGHT = 900 * 844 // 390


@pytest.mark.parametrize("locale", ["en", "pt_BR"])
def test_the_rules_come_as_a_few_portrait_pages_that_each_fit_a_phone_screen(locale: str) -> None:
    with i18n.using(locale):
        pages = pictures.rules_phone()
    assert 2 <= len(pages) <= 3
    for data in pages:
        img = _png(data)
        assert img.width == phone.WIDTH
        assert img.width < img.height <= PHONE_SCREEN_HEIGHT, img.size
        assert len(data) < 1024 * 1024, "small enough to send all pages and the tiles in one message"


def test_every_rules_section_is_whole_on_exactly_one_page(monkeypatch) -> None:
    headings: list[tuple[int, str]] = []
    opened = rules._Sheet.open
    sheets: list[rules._Sheet] = []

    def spy(sheet: rules._Sheet, heading: str) -> None:
        if sheet not in sheets:
            sheets.append(sheet)
        headings.append((sheets.index(sheet) + 1, heading))
        opened(sheet, heading)

    monkeypatch.setattr(rules._Sheet, "open", spy)
    with i18n.using("en"):
        pages = rules._rules.__wrapped__("en")
    assert len(pages) == len(rules.PAGES)
    assert headings == [
        (1, "Your turn"),
        (1, "In the pictures"),
        (2, "The tiles"),
        (3, "Scoring"),
        (3, "The end"),
    ]
