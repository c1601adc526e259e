"""The phone turn picture: its size limits, what each decision shows, and that it draws any view."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image, ImageChops

import engine
import render
from render import palette, phone
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
    img = _png(render.turn(game.view(), game.prompt))
    assert img.width <= 1080
    # Portrait, and clearly so: Android crops square previews.
    assert img.height / img.width >= 1.2


def test_prompt_defaults_to_the_views_and_accepts_engine_prompts() -> None:
    game = _game("buy")
    view = game.view()
    assert render.turn(view) == render.turn(view, game.prompt) == render.turn(view, view["prompt"])


def _region(img: Image.Image, box: tuple[int, int, int, int]) -> bytes:
    return img.crop(box).tobytes()


def test_buy_shows_the_offer_in_numbered_slots() -> None:
    game = _game("buy")
    view = game.view()
    layout = phone.PhoneLayout("buy", len(view["players"]))
    before = _png(render.turn(view, game.prompt))
    changed = copy.deepcopy(view)
    changed["offer"][2] = None
    after = _png(render.turn(changed, game.prompt))
    slot = phone._offer_slot(layout.panel_box, 2)
    assert _region(before, slot) != _region(after, slot)
    other = phone._offer_slot(layout.panel_box, 0)
    assert _region(before, other) == _region(after, other)


def test_animal_shows_the_happiness_board_and_each_disc() -> None:
    game = _game("animal")
    view = game.view()
    layout = phone.PhoneLayout("animal", len(view["players"]))
    assert layout.panel == "happiness"
    before = _png(render.turn(view, game.prompt))
    moved = copy.deepcopy(view)
    moved["players"][1]["animals"]["rabbit"] = 7
    after = _png(render.turn(moved, game.prompt))
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
    marked = _png(render.turn(view, one_track))
    plain = _png(render.turn(view, every_track))
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
    mine, theirs = _png(render.turn(view, game.prompt)), _png(render.turn(view, game.prompt, player=other))
    g = phone.PhoneLayout("advance", len(view["players"])).workshop
    assert _region(mine, g.box) != _region(theirs, g.box)


def test_odd_names_and_unknown_kinds_still_draw() -> None:
    game = _game("advance")
    view = copy.deepcopy(game.view())
    view["players"][0]["name"] = "\u202e" + "W" * 80 + "\U0001f3f3\ufe0f\u200d\U0001f308"
    prompt = dict(view["prompt"], kind="something new", player=view["players"][0]["name"])
    img = _png(render.turn(view, prompt))
    assert img.width <= 1080


def test_encode_is_lossless_and_deterministic() -> None:
    game = _game("buy")
    img = render.draw_turn(game.view(), game.prompt)
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
    marked = _png(render.turn(view, game.prompt, events=events))
    plain = _png(render.turn(view, game.prompt))
    assert _region(marked, ring) != _region(plain, ring)
    as_dicts = _png(render.turn(view, game.prompt, events=[e.to_dict() for e in events]))
    assert _region(as_dicts, ring) == _region(marked, ring)


def test_the_idle_turns_left_show_in_the_header_only_near_the_end() -> None:
    """From the last quarter of the idle limit (and so on the turn before it would trigger), a badge beside the
    question; earlier, and for a count not near its limit, the picture is unchanged."""
    game = _game("advance")
    limit = game.stall_limit
    quiet = _png(render.turn(game.view(), game.prompt))
    game.idles[game.current] = limit - max(1, limit // 4) - 1
    assert _png(render.turn(game.view(), game.prompt)).tobytes() == quiet.tobytes()
    game.idles[game.current] = limit - 1
    near = _png(render.turn(game.view(), game.prompt))
    header = (0, 0, near.width, phone.HEADER_H)
    below = (0, phone.HEADER_H, near.width, near.height)
    assert _region(near, header) != _region(quiet, header)
    assert _region(near, below) == _region(quiet, below)
    # The badge is vermilion, on the right of the question's line.
    badge = near.crop((near.width // 2, 60, near.width, phone.HEADER_H - 4))
    assert palette.VERMILION in {colour for _, colour in badge.getcolors(1 << 16)}
