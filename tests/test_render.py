"""Board pictures: golden images, every tile type distinct, every view element drawn, names and sizes safe."""

from __future__ import annotations

import ast
import copy
import io
import itertools
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import games.kokeshi.engine as engine
from games.kokeshi import pictures
from games.kokeshi.engine.data import TILES, tile_view
from games.kokeshi.pictures import scenes, tiles
from render import text as rtext
from tests.golden import CASES, NAMES, path, playout

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = ".venv/bin/python -m tests.golden"
TYPES = tuple(dict.fromkeys(t.type for t in TILES))  # every tile type, in the order of the box


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def difference(a: Image.Image, b: Image.Image) -> tuple[float, int]:
    """Mean absolute difference per channel, and how many pixels differ by more than 40 in some channel."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    r, g, b_ = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b_)
    hist = worst.histogram()
    total = a.width * a.height
    mean = sum(v * n for v, n in enumerate(diff.histogram()[:256])) / total
    mean += sum(v * n for v, n in enumerate(diff.histogram()[256:512])) / total
    mean += sum(v * n for v, n in enumerate(diff.histogram()[512:])) / total
    return mean / 3, sum(hist[41:])


def assert_picture(png: bytes) -> Image.Image:
    """The contract of every output: a PNG, at most 1600 px wide, not square, under 1 MB."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(png) < 1_000_000
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    assert img.width <= 1600
    # Android crops square previews: keep a clear landscape ratio.
    assert img.width / img.height >= 1.2 or img.height / img.width >= 1.2
    return decode(png)


# ---------------------------------------------------------------- golden images


@pytest.mark.parametrize("name", list(CASES))
def test_golden(name: str) -> None:
    png = CASES[name]()
    actual = assert_picture(png)
    golden_path = path(name)
    assert golden_path.exists(), f"no golden {golden_path.name}; run `{REGENERATE}`"
    golden = Image.open(golden_path).convert("RGB")
    assert actual.size == golden.size
    mean, changed = difference(actual, golden)
    # A few hundred pixels: a tile on a small board is ~1,600, a font hinting change only shifts edges.
    if mean > 0.5 or changed > 300:
        actual.save(golden_path.with_suffix(".actual.png"))
        pytest.fail(
            f"{name}: mean difference {mean:.3f}, {changed} pixels changed; see {golden_path.stem}.actual.png "
            f"and run `{REGENERATE} {name}` if the change is intended"
        )


def test_same_view_same_bytes() -> None:
    game, events = playout(NAMES, 7, turns=20)
    view = game.view()
    assert pictures.table(view, events) == pictures.table(copy.deepcopy(view), events)
    assert pictures.board(view, NAMES[0]) == pictures.board(view, NAMES[0])
    assert pictures.glossary() == pictures.glossary()


# ---------------------------------------------------------------- tiles


def _one_of_each_type(color: int = 0) -> dict[str, dict]:
    out = {}
    for type_ in TYPES:
        spec = next(t for t in TILES if t.type == type_ and t.color == color)
        out[type_] = tile_view(spec.index)
    return out


@pytest.mark.parametrize("size", [(80, 70), (100, 86)])
def test_every_tile_type_looks_different(size: tuple[int, int]) -> None:
    for color in range(5):
        sprites = {t: tiles.sprite(tile, *size).tobytes() for t, tile in _one_of_each_type(color).items()}
        for a, b in itertools.combinations(TYPES, 2):
            assert sprites[a] != sprites[b], f"{a} and {b} look the same"


def test_every_tile_type_differs_on_the_board() -> None:
    base = engine.new_game(NAMES, seed=1).view()
    focus = base["current"]
    seat = next(i for i, p in enumerate(base["players"]) if p["name"] == focus)
    g = scenes.TableLayout(4).focus_board
    box = g.tile_box(0, 3)
    crops = {}
    for type_, tile in _one_of_each_type(2).items():
        view = copy.deepcopy(base)
        view["players"][seat]["tracks"]["princess"] = [tile_view(0), tile_view(2), tile]
        crops[type_] = pictures.draw_table(view).crop(box).tobytes()
    for a, b in itertools.combinations(TYPES, 2):
        assert crops[a] != crops[b], f"{a} and {b} look the same on the board"


def test_tiles_carry_their_colour_letter() -> None:
    # Colour-blind players read the letter: the same type in two colours must differ beyond the hue.
    pink = tiles.sprite(_one_of_each_type(0)["plus1"], 80, 70).convert("L").tobytes()
    purple = tiles.sprite(_one_of_each_type(1)["plus1"], 80, 70).convert("L").tobytes()
    assert pink != purple


# ---------------------------------------------------------------- every element of the view is drawn


@pytest.fixture(scope="module")
def mid_game() -> dict:
    game, _ = playout(NAMES, 7, turns=24)
    return game.view()


def _changed_box(a: dict, b: dict) -> tuple[int, int, int, int]:
    diff = ImageChops.difference(pictures.draw_table(a), pictures.draw_table(b))
    box = diff.getbbox()
    assert box is not None, "the change was not drawn"
    return box


def _inside(inner, outer, margin: int = 10) -> bool:
    return (
        inner[0] >= outer[0] - margin
        and inner[1] >= outer[1] - margin
        and inner[2] <= outer[2] + margin
        and inner[3] <= outer[3] + margin
    )


def _focus_seat(view: dict) -> int:
    return next(i for i, p in enumerate(view["players"]) if p["name"] == view["current"])


def test_a_tile_placed_on_the_focus_board_changes_that_track(mid_game: dict) -> None:
    lay = scenes.TableLayout(4)
    seat = _focus_seat(mid_game)
    after = copy.deepcopy(mid_game)
    # Sumotori's track, an extra tile on top, of a colour that makes no pair with the samurai track beside it.
    tracks = after["players"][seat]["tracks"]
    track = tracks["sumotori"]
    assert len(track) < 7
    height = len(track) + 1
    near = {track[-1]["color"] if track else "yellow"}
    if len(tracks["samurai"]) >= height:
        near.add(tracks["samurai"][height - 1]["color"])
    track.append(next(tile_view(t.index) for t in TILES if t.kind == "normal" and engine.COLORS[t.color] not in near))
    box = _changed_box(mid_game, after)
    assert _inside(box, lay.focus_board.track_box(4)), box


def test_a_tile_on_another_board_changes_that_board(mid_game: dict) -> None:
    lay = scenes.TableLayout(4)
    seat = _focus_seat(mid_game)
    other = (seat + 1) % 4
    after = copy.deepcopy(mid_game)
    track = after["players"][other]["tracks"]["princess"]
    track.append(tile_view(12))
    box = _changed_box(mid_game, after)
    assert _inside(box, lay.other_board(0).box), box


def test_a_kokeshi_move_changes_its_track(mid_game: dict) -> None:
    lay = scenes.TableLayout(4)
    seat = _focus_seat(mid_game)
    after = copy.deepcopy(mid_game)
    k = after["players"][seat]["kokeshi"]
    k["batchan"] = (k["batchan"] + 3) % 8
    box = _changed_box(mid_game, after)
    assert _inside(box, lay.focus_board.track_box(1)), box


def test_a_disc_move_changes_the_happiness_board(mid_game: dict) -> None:
    lay = scenes.TableLayout(4)
    after = copy.deepcopy(mid_game)
    after["players"][0]["animals"]["rabbit"] = 5
    box = _changed_box(mid_game, after)
    assert _inside(box, lay.happiness.box), box


def test_a_bonus_tile_taken_changes_its_slot(mid_game: dict) -> None:
    lay = scenes.TableLayout(4)
    after = copy.deepcopy(mid_game)
    index = next(i for i, s in enumerate(after["bonus_slots"]) if s["tile"])
    after["bonus_slots"][index]["tile"] = None
    box = _changed_box(mid_game, after)
    assert _inside(box, lay.happiness.slot_box(after["bonus_slots"][index]), 4), box


def test_an_offer_change_changes_its_slot(mid_game: dict) -> None:
    lay = scenes.TableLayout(4)
    after = copy.deepcopy(mid_game)
    after["offer"][2] = None if after["offer"][2] else tile_view(40)
    box = _changed_box(mid_game, after)
    assert _inside(box, lay.market.slot_box(2), 4), box


def test_a_reserve_entry_is_drawn(mid_game: dict) -> None:
    lay = scenes.TableLayout(4)
    seat = _focus_seat(mid_game)
    after = copy.deepcopy(mid_game)
    after["players"][seat]["reserve"].append({**tile_view(25), "track": "samurai"})
    box = _changed_box(mid_game, after)
    assert _inside(box, lay.reserve_box), box


def test_bag_and_scores_are_drawn(mid_game: dict) -> None:
    lay = scenes.TableLayout(4)
    after = copy.deepcopy(mid_game)
    after["bag"] = after["bag"] + 1
    assert _inside(_changed_box(mid_game, after), lay.market_panel)
    after = copy.deepcopy(mid_game)
    after["players"][0]["score"]["animals"] += 1
    assert _inside(_changed_box(mid_game, after), lay.scores_box)


def test_end_trigger_banner_is_drawn(mid_game: dict) -> None:
    after = copy.deepcopy(mid_game)
    after.update(end_triggered=True, end_reason="bag", final_round=after["round"] + 1)
    box = _changed_box(mid_game, after)
    assert box[3] <= scenes.HEADER_H


def test_last_turn_is_highlighted_from_events_or_dicts() -> None:
    game, events = playout(NAMES, 7, turns=24)
    view = game.view()
    assert any(e.kind == "kokeshi_moved" for e in events)
    plain = pictures.table(view)
    with_events = pictures.table(view, events)
    as_dicts = pictures.table(view, [e.to_dict() for e in events])
    assert with_events != plain
    assert with_events == as_dicts


def test_focus_draws_that_player_large(mid_game: dict) -> None:
    names = [p["name"] for p in mid_game["players"]]
    drawn = {pictures.table(mid_game, focus=n) for n in names}
    assert len(drawn) == 4
    # An unknown focus falls back to the player to act rather than failing a whole turn message.
    assert pictures.table(mid_game, focus="nobody") == pictures.table(mid_game)


# ---------------------------------------------------------------- names, sizes and odd views

ODD_NAMES = [
    "A" * 32,
    "\U0001f600\U0001f389 party \U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\u0645\u062d\u0645\u062f \u0627\u0644\u0639\u0644\u064a",
    "\u5c71\u7530\u592a\u90ce\u306e\u3088\u3046\u306a\u9577\u3044\u540d\u524d\u3067\u3059\u3088\u306d",
    "\u202eevil\u202c\tname\nwith\x00controls",
    "W" * 16 + "\U0001f1eb\U0001f1f7" + "m" * 14,
]


@pytest.mark.parametrize("names", [ODD_NAMES[:4], ODD_NAMES[2:], ODD_NAMES[4:]])
def test_odd_names_never_break_a_picture(names: list[str]) -> None:
    game, events = playout(names, 3, turns=12)
    view = game.view()
    outputs = [pictures.table(view, events), pictures.board(view, names[0])]
    game2, _ = playout(names, 3, turns=10_000)
    outputs.append(pictures.final(game2.view(), game2.scores(), game2.ranking()))
    for png in outputs:
        assert_picture(png)
    assert pictures.table(view, events) == outputs[0]


def test_solo_names_and_automa() -> None:
    game, events = playout([ODD_NAMES[1]], 2, turns=10, solo=True)
    view = game.view()
    assert_picture(pictures.table(view, events))
    assert_picture(pictures.board(view, "automa"))


def test_extreme_view_full_tracks_all_discs_at_seven_long_reserve() -> None:
    view = engine.new_game(NAMES, seed=9).view()
    normal = [tile_view(t.index) for t in TILES if t.kind == "normal"]
    for seat, p in enumerate(view["players"]):
        for k, kokeshi in enumerate(p["tracks"]):
            p["tracks"][kokeshi] = normal[(seat * 5 + k) % 40 : (seat * 5 + k) % 40 + 7]
            p["kokeshi"][kokeshi] = 7
        p["animals"] = dict.fromkeys(p["animals"], 7)
        p["arrival"] = {a: 10 * seat + i + 1 for i, a in enumerate(p["arrival"])}
        p["leads"] = list(p["animals"]) if seat == 0 else []
        p["reserve"] = [{**tile_view(t.index), "track": None} for t in TILES[:12]]
        p["name"] = ODD_NAMES[seat]
    view["current"] = view["players"][0]["name"]
    view["offer"] = [None, None, None, None]
    view["bag"] = 0
    view["end_triggered"], view["final_round"] = True, 3
    view["bonus_slots"] = [{**s, "tile": None} for s in view["bonus_slots"]]
    view["quality_supply"] = {k: [] for k in view["quality_supply"]}
    for png in (pictures.table(view), pictures.board(view, ODD_NAMES[1])):
        assert_picture(png)
    scores = {p["name"]: p["score"] for p in view["players"]}
    assert_picture(pictures.final(view, scores, list(scores)))


def test_empty_reserve_and_setup_view() -> None:
    view = engine.new_game(NAMES[:2], seed=5).view()
    for p in view["players"]:
        p["reserve"] = []
    assert_picture(pictures.table(view))
    assert_picture(pictures.board(view, view["players"][1]["name"]))


def test_glossary_and_board_contract() -> None:
    assert_picture(pictures.glossary())
    view = engine.new_game(NAMES, seed=5).view()
    with pytest.raises(ValueError):
        pictures.board(view, "nobody")


def test_final_accepts_score_objects_and_dicts() -> None:
    game, _ = playout(NAMES[:3], 4, turns=10_000)
    view = game.view()
    objects = pictures.final(view, game.scores(), game.ranking())
    dicts = pictures.final(view, {n: s.to_dict() for n, s in game.scores().items()}, game.ranking())
    assert objects == dicts


def test_pairs_marked_are_the_pairs_the_engine_counts() -> None:
    from games.kokeshi.pictures import boards

    for seed in range(6):
        game, _ = playout(NAMES, seed, turns=10_000, greedy=seed % 2 == 0)
        for p in game.view()["players"]:
            assert len(boards.same_colour_pairs(p)) == p["adjacent_pairs"], (seed, p["name"])


def test_unknown_or_malformed_events_are_ignored(mid_game: dict) -> None:
    odd = [
        {"kind": "from_a_future_engine", "player": "x", "data": {"what": 1}},
        {"kind": "kokeshi_moved", "player": "x", "data": {}},
        {"kind": "disc_moved", "player": NAMES[0], "data": {"animal": "panda", "to": "seven"}},
        {"kind": "tile_drawn"},
    ]
    assert_picture(pictures.table(mid_game, odd))


# ---------------------------------------------------------------- text safety and the render package's imports


def test_font_coverage_and_sanitising() -> None:
    covered = rtext.coverage()
    assert ord("A") in covered and ord("\u0627") in covered  # Latin and Arabic are in DejaVu Sans
    assert 0x5C71 not in covered  # CJK is not
    assert rtext.sanitize("\u5c71\u7530") == rtext.PLACEHOLDER * 2
    assert rtext.sanitize("\U0001f468\u200d\U0001f469\u200d\U0001f467 x").count(rtext.PLACEHOLDER) <= 1
    assert rtext.sanitize("a\u202eb\nc") == "ab c"
    short = rtext.fit("W" * 40, 16, True, 120)
    assert short.endswith(rtext.ELLIPSIS) and rtext.width(short, 16, True) <= 120


def test_fonts_and_licence_are_shipped() -> None:
    fonts = ROOT / "render" / "fonts"
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt"):
        assert (fonts / name).is_file()


# The shared drawing kit knows no game (its words come from i18n); a game's pictures add its rules' constants and
# its words.
ALLOWED_IMPORTS = {
    "render": {"PIL", "fontTools", "isal", "i18n"},
    "games/kokeshi/pictures": {
        "PIL",
        "render",
        "games.kokeshi.engine.data",
        "games.kokeshi.engine.views",
        "games.kokeshi.story",
        "games.kokeshi.vocab",
        "i18n",
    },
}


@pytest.mark.parametrize("folder", sorted(ALLOWED_IMPORTS))
def test_pictures_import_only_pillow_stdlib_and_engine_constants(folder) -> None:
    stdlib = set(sys.stdlib_module_names)
    allowed = ALLOWED_IMPORTS[folder]
    sources = sorted((ROOT / folder).glob("*.py"))
    assert sources
    for source in sources:
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module or ""]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                assert top in stdlib or top in allowed or module in allowed, f"{source.name}: {module}"


def test_a_name_is_never_cut_short_for_the_last_turn_badge(monkeypatch) -> None:
    import i18n

    drawn: list[str] = []
    draw = scenes.tx.draw

    def recording(d, xy, text, *args, **kwargs):
        drawn.append(text)
        return draw(d, xy, text, *args, **kwargs)

    monkeypatch.setattr(scenes.tx, "draw", recording)
    names = ["Aiko", "Bernardinho", "Chiyo", "Daichi"]
    # The first moment the last turn was his: he is then shown in a small panel, with the badge.
    game, events = next(
        (game, events)
        for game, events in (playout(names, 3, turns=turns) for turns in range(1, 9))
        if next(e for e in reversed(events) if e.kind == "turn_ended").player == "Bernardinho"
    )
    for locale in ("en", "pt_BR"):
        drawn.clear()
        with i18n.using(locale):
            scenes.draw_table(game.view(), events)
        assert "Bernardinho" in drawn, locale
        assert not [text for text in drawn if text.startswith("Bern") and text != "Bernardinho"], locale
