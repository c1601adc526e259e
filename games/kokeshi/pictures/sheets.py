"""The other pictures: one workshop board large, the final scores, and the glossary of tiles."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import games.kokeshi.vocab as vocab
from games.kokeshi.vocab import N_
from i18n import _, current, format_number, ngettext
from render import draw as dr
from render import text as tx

from . import boards as bd
from . import icons, tiles
from . import model as m
from . import palette as pal
from .scenes import HEADER_H, MARGIN

BOARD_SIZE = (1400, 980)
FINAL_SIZE = (1600, 1000)
GLOSSARY_SIZE = (1600, 1000)

SCORE_LABELS = vocab.Names(vocab.SCORE_ITEMS, lambda key: (vocab.score_item(key), vocab.score_rule(key)))


def _title_bar(img: Image.Image, title: str, subtitle: str) -> None:
    d = ImageDraw.Draw(img)
    dr.wood(img, (0, 0, img.width, HEADER_H))
    tx.draw(d, (MARGIN + 8, HEADER_H / 2), "KOKESHI", 26, pal.CREAM, bold=True, anchor="lm")
    x = MARGIN + 160
    tx.draw(d, (x, HEADER_H / 2), title, 20, pal.CREAM, bold=True, anchor="lm", max_width=img.width - x - 420)
    if subtitle:
        tx.draw(d, (img.width - MARGIN - 8, HEADER_H / 2), subtitle, 18, pal.GOLD_LIGHT, anchor="rm")


def _round_label(view: Mapping[str, Any]) -> str:
    if view.get("phase") == "setup":
        where = _("Setup")
    elif view.get("phase") == "over":
        where = _("Game over")
    else:
        where = _("Round {number}").format(number=int(view.get("round", 0) or 0))
    side = _("advanced side") if view.get("side") == "advanced" else _("basic side")
    return _("{round} \u00b7 {side}").format(round=where, side=side)


# ---------------------------------------------------------------- one workshop, large

_BIG = {"tile_w": 100, "tile_h": 84, "lane": 30, "gap": 5, "axis": 62, "header": 30}


def _board_geometry() -> bd.Workshop:
    return bd.Workshop(MARGIN + 12, HEADER_H + 10 + 50, **_BIG)


@lru_cache(maxsize=4)
def _board_static(side: str, locale: str = "en") -> Image.Image:
    img = Image.new("RGB", BOARD_SIZE, pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    g = _board_geometry()
    left = (MARGIN, HEADER_H + 10, g.x + g.width + 12, BOARD_SIZE[1] - MARGIN)
    right = (left[2] + 12, HEADER_H + 10, BOARD_SIZE[0] - MARGIN, BOARD_SIZE[1] - MARGIN)
    dr.panel(d, left)
    dr.panel(d, right)
    bd.workshop_static(img, g)
    tx.draw(d, (g.x, g.y + g.height + 10), _("Reserve"), 16, pal.INK, bold=True)
    x0, y0, x1, _bottom = right
    tx.draw(d, (x0 + 18, y0 + 14), _("Score now"), 18, pal.INK, bold=True)
    for i, key in enumerate(SCORE_LABELS):
        label, hint = SCORE_LABELS[key]
        y = y0 + 48 + i * 40
        if key == "total":
            d.line((x0 + 18, y - 6, x1 - 18, y - 6), fill=pal.PAPER_EDGE, width=2)
        tx.draw(d, (x0 + 18, y + 12), label, 18 if key == "total" else 16, pal.INK, bold=True, anchor="lm")
        if hint:
            tx.draw(d, (x0 + 120, y + 12), hint, tx.MIN_SIZE, pal.INK_SOFT, anchor="lm")
    hy = y0 + 48 + len(SCORE_LABELS) * 40 + 20
    tx.draw(d, (x0 + 18, hy), _("Happiness"), 18, pal.INK, bold=True)
    values = m.animal_points(side)
    cell = (x1 - x0 - 36 - 70) // (m.MAX_POSITION + 1)
    for a, animal in enumerate(m.ANIMALS):
        y = hy + 34 + a * 52
        dr.paste(img, icons.animal(animal, 40), x0 + 18, y + 4)
        for pos in range(m.MAX_POSITION + 1):
            cx0 = x0 + 18 + 60 + pos * cell
            fill = pal.shade(pal.ANIMAL_TINT[animal], 0.97 if pos % 2 else 0.92)
            d.rectangle((cx0, y, cx0 + cell - 2, y + 48), fill=fill)
            tx.draw(d, (cx0 + 4, y + 3), str(values[animal][pos]), tx.MIN_SIZE, pal.INK, bold=True)
        rx = x0 + 18 + 60 + m.RED_LINE * cell - 1
        d.rectangle((rx - 2, y - 2, rx + 1, y + 50), fill=pal.VERMILION)
    ly = hy + 34 + len(m.ANIMALS) * 52 + 14
    _legend_small(img, d, x0 + 18, ly)
    return img


def _legend_small(img: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """What the board's marks mean."""
    rows = [
        (dr.pill(m.PAIR_LABEL, tx.MIN_SIZE, pal.VERMILION, pal.CREAM), _("same-colour neighbours (home included)")),
        (bd.threshold_sample(), _("track value at that height; stars: quality level")),
        (icons.crown(22), _("leads that animal (+{points} at the end)").format(points=m.LEAD_BONUS)),
    ]
    for i, (sprite, label) in enumerate(rows):
        yy = y + i * 30
        dr.paste(img, sprite, x + (56 - sprite.width) / 2, yy + (24 - sprite.height) / 2)
        tx.draw(d, (x + 66, yy + 12), label, tx.MIN_SIZE, pal.INK, anchor="lm")


def draw_board(view: Mapping[str, Any], player: str) -> Image.Image:
    """One workshop board, large, with that player's score and discs (see `render.board`)."""
    players = list(view.get("players") or [])
    seat = m.seat_of(view, player)
    if seat < 0:
        raise ValueError(f"no player {player!r} in this view")
    p = players[seat]
    img = _board_static(str(view.get("side", "basic")), current()).copy()
    d = ImageDraw.Draw(img)
    _title_bar(img, _("Workshop"), _round_label(view))
    g = _board_geometry()
    disc = icons.seat_disc(seat, 36)
    dr.paste(img, disc, g.x, HEADER_H + 20)
    tx.draw(
        d,
        (g.x + 46, HEADER_H + 38),
        vocab.seat_name(p.get("name", "")),
        24,
        pal.INK,
        bold=True,
        anchor="lm",
        max_width=g.width - 200,
    )
    rec = int(p.get("recognitions", 0) or 0)
    star = icons.star(24)
    dr.paste(img, star, g.x + g.width - 150, HEADER_H + 26)
    tx.draw(
        d,
        (g.x + g.width - 120, HEADER_H + 38),
        ngettext("{count} recognition", "{count} recognitions", rec).format(count=rec),
        16,
        pal.INK,
        anchor="lm",
    )
    hl = m.Highlights()
    bd.workshop_dynamic(img, g, p, hl)
    bd.reserve(img, g.x + 90, g.y + g.height + 8, g.width - 90, p.get("reserve") or [], hl, 72, 62)
    x0 = g.x + g.width + 24
    x1 = BOARD_SIZE[0] - MARGIN
    score = p.get("score") or {}
    for i, key in enumerate(SCORE_LABELS):
        y = HEADER_H + 10 + 48 + i * 40
        value = int(score.get(key, 0) or 0)
        ink = pal.VERMILION if value < 0 else pal.INK
        tx.draw(d, (x1 - 20, y + 12), tx.number(value), 22 if key == "total" else 18, ink, bold=True, anchor="rm")
    hy = HEADER_H + 10 + 48 + len(SCORE_LABELS) * 40 + 20
    cell = (x1 - x0 - 36 - 70) // (m.MAX_POSITION + 1)
    animals = p.get("animals") or {}
    leads = set(p.get("leads") or ())
    for a, animal in enumerate(m.ANIMALS):
        pos = max(0, min(m.MAX_POSITION, int(animals.get(animal, 0) or 0)))
        y = hy + 34 + a * 52
        cx = x0 + 18 + 60 + pos * cell + cell / 2
        dr.paste_center(img, icons.seat_disc(seat, 26), cx, y + 32)
        if animal in leads:
            dr.paste(img, icons.crown(16), cx + 4, y + 6)
    return img


# ---------------------------------------------------------------- the end of the game


def _score_dict(score: Any) -> dict[str, int]:
    if score is None:
        return {}
    if isinstance(score, Mapping):
        return {k: int(score.get(k, 0) or 0) for k in SCORE_LABELS}
    if hasattr(score, "to_dict"):
        return {k: int(v or 0) for k, v in score.to_dict().items()}
    return {k: int(getattr(score, k, 0) or 0) for k in SCORE_LABELS}


_RANK_COLORS = ((236, 178, 40), (190, 196, 204), (205, 127, 50))


def draw_final(view: Mapping[str, Any], scores: Mapping[str, Any], ranking: Sequence[str]) -> Image.Image:
    """Final ranking with every score item, the happiness board and every workshop (see `render.final`)."""
    players = list(view.get("players") or [])[:4]
    n = max(1, len(players))
    img = _final_static(n, str(view.get("side", "basic")), _slots_key(view), current()).copy()
    d = ImageDraw.Draw(img)
    order = [name for name in ranking if m.seat_of(view, name) >= 0]
    order += [p.get("name") for p in players if p.get("name") not in order]
    winner = vocab.seat_name(order[0]) if order else ""
    _title_bar(img, _("Final scores"), _round_label(view))
    if winner:
        wx = 620
        tx.draw(d, (wx, HEADER_H / 2), tx.fit(f"{winner}", 20, True, 300), 20, pal.GOLD_LIGHT, bold=True, anchor="lm")
        tx.draw(
            d,
            (wx + tx.width(tx.fit(winner, 20, True, 300), 20, True) + 10, HEADER_H / 2),
            _("wins!"),
            20,
            pal.CREAM,
            bold=True,
            anchor="lm",
        )
    # Ranking rows.
    x0, y0 = MARGIN + 16, HEADER_H + 10 + 50
    col0 = x0 + 330
    totals: list[int] = []
    for r, name in enumerate(order[:4]):
        seat = m.seat_of(view, name)
        y = y0 + r * 78
        sc = _score_dict(scores.get(name) if isinstance(scores, Mapping) else None)
        if not sc:
            sc = dict(players[seat].get("score") or {}) if seat >= 0 else {}
        if r == 0:
            d.rounded_rectangle((x0 - 6, y - 4, 940 - 10, y + 70), radius=10, fill=pal.shade(pal.GOLD_LIGHT, 1.3))
        medal = _RANK_COLORS[r] if r < 3 else pal.WOOD
        d.ellipse((x0, y + 10, x0 + 46, y + 56), fill=medal, outline=pal.INK, width=2)
        tx.draw(d, (x0 + 23, y + 33), str(r + 1), 22, pal.INK, bold=True, anchor="mm")
        dr.paste(img, icons.seat_disc(seat, 32), x0 + 58, y + 17)
        tx.draw(
            d, (x0 + 100, y + 33), vocab.seat_name(name), 22, pal.INK, bold=True, anchor="lm", max_width=col0 - x0 - 110
        )
        for j, key in enumerate(SCORE_LABELS):
            cx = col0 + j * 80 + 40
            value = int(sc.get(key, 0) or 0)
            ink = pal.VERMILION if value < 0 else pal.INK
            if key == "total":
                tx.draw(d, (cx + 10, y + 33), tx.number(value), 30, ink, bold=True, anchor="mm")
            else:
                tx.draw(d, (cx, y + 33), tx.number(value), 20, ink, anchor="mm")
        totals.append(int(sc.get("total", 0) or 0))
    if 2 <= len(totals) <= 3:
        # Room is left under fewer than four rows: say by how much the game was won.
        tx.draw(d, (x0 + 4, y0 + len(totals) * 78 + 16), _margin(view, winner, totals), 18, pal.INK_SOFT, max_width=900)
    hl = m.Highlights()
    bd.happiness_dynamic(img, _final_happiness(), view, hl)
    for i, seat in enumerate(range(n)):
        g = _final_board(n, i)
        p = players[seat]
        _mini_title(img, view, seat, g)
        bd.workshop_dynamic(img, g, p, hl)
    return img


def _margin(view: Mapping[str, Any], winner: str, totals: list[int]) -> str:
    diff = totals[0] - totals[1]
    if diff > 0:
        return ngettext("{winner} wins by {points} point.", "{winner} wins by {points} points.", diff).format(
            winner=winner, points=format_number(diff)
        )
    if view.get("solo"):
        return _("A tie goes to the automa: beat its score to win.")
    return _("Tied on points: more animal points, then more track points, then the later seat wins.")


def _mini_title(img: Image.Image, view: Mapping[str, Any], seat: int, g: bd.Workshop) -> None:
    d = ImageDraw.Draw(img)
    p = (view.get("players") or [])[seat]
    dr.paste(img, icons.seat_disc(seat, 24), g.x, g.y - 34)
    total = int((p.get("score") or {}).get("total", 0) or 0)
    tag = dr.pill(vocab.points(int(total)), 15, pal.WOOD_DARK, pal.CREAM)
    dr.paste(img, tag, g.x + g.width - tag.width, g.y - 34)
    tx.draw(
        d,
        (g.x + 32, g.y - 22),
        vocab.seat_name(p.get("name", "")),
        16,
        pal.INK,
        bold=True,
        anchor="lm",
        max_width=g.width - tag.width - 44,
    )


def _final_happiness() -> bd.Happiness:
    return bd.Happiness(MARGIN + 22, HEADER_H + 10 + 390 + 46, cell_w=100, cell_h=84, label_w=84)


def _final_board(n: int, i: int) -> bd.Workshop:
    top = HEADER_H + 10 + 46
    if n <= 2:
        # Two boards fit one above the other with tiles large enough for their icons.
        g = bd.Workshop(0, 0, tile_w=64, tile_h=48, lane=20, gap=2)
        return bd.Workshop(952 + (FINAL_SIZE[0] - MARGIN - 952 - g.width) // 2, top + i * 452, 64, 48, 20, 2)
    col, row = i % 2, i // 2
    return bd.Workshop(964 + col * 316, top + row * 456, tile_w=42, tile_h=40, lane=14, gap=3)


def _slots_key(view: Mapping[str, Any]) -> tuple:
    return tuple((tuple(s.get("animals") or ()), int(s.get("position", 0))) for s in view.get("bonus_slots") or ())


@lru_cache(maxsize=8)
def _final_static(n: int, side: str, slots_key: tuple, locale: str = "en") -> Image.Image:
    img = Image.new("RGB", FINAL_SIZE, pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    top = HEADER_H + 10
    dr.panel(d, (MARGIN, top, 940, top + 380))
    x0, col0 = MARGIN + 16, MARGIN + 16 + 330
    for j, key in enumerate(SCORE_LABELS):
        tx.draw(
            d,
            (col0 + j * 80 + 40 + (10 if key == "total" else 0), top + 16),
            vocab.score_heading(key),
            16,
            pal.INK_SOFT,
            bold=True,
            anchor="ma",
        )
    tx.draw(d, (x0, top + 16), _("Ranking"), 18, pal.INK, bold=True)
    hap = _final_happiness()
    dr.panel(d, (MARGIN, top + 390, 940, FINAL_SIZE[1] - MARGIN))
    tx.draw(d, (x0, top + 402), _("Happiness"), 18, pal.INK, bold=True)
    slots = [{"animals": list(a), "position": p} for a, p in slots_key]
    bd.happiness_static(img, hap, side, slots)
    # How each item was counted, under the happiness board.
    y = hap.y + hap.height + 22
    items = [k for k in SCORE_LABELS if SCORE_LABELS[k][1]]
    for i, key in enumerate(items):
        label, hint = SCORE_LABELS[key]
        cx = x0 + (i % 3) * 300
        cy = y + (i // 3) * 26
        tx.draw(d, (cx, cy), _("{item}:").format(item=label), tx.MIN_SIZE, pal.INK, bold=True)
        tx.draw(
            d,
            (cx + tx.width(_("{item}:").format(item=label), tx.MIN_SIZE, True) + 6, cy),
            hint,
            tx.MIN_SIZE,
            pal.INK_SOFT,
        )
    dr.panel(d, (952, top, FINAL_SIZE[0] - MARGIN, FINAL_SIZE[1] - MARGIN))
    for i in range(n):
        bd.workshop_static(img, _final_board(n, i))
    return img


# ---------------------------------------------------------------- the glossary

_TYPE_ORDER = (
    "start1",
    "start2",
    "plus1",
    "plus4",
    "left",
    "right",
    "double",
    "any_animal",
    "buy_any",
    "buy_here",
    "animal1",
    "animal2",
    "quality",
)
# Each tile type's name and what it does, translated when drawn.
_TYPE_TEXT = {
    "start1": (
        N_("Starting tile, 1 dot"),
        N_("White bar. Advance the kokeshi of its colour, or the next one to the right."),
    ),
    "start2": (
        N_("Starting tile, 2 dots"),
        N_("White bar. Advance the kokeshi of its colour, or the one two tracks right."),
    ),
    "plus1": (N_("Pair, 1 dot"), N_("Advance the kokeshi of its colour, or the next one to the right (wrapping).")),
    "plus4": (N_("Pair, 4 dots"), N_("Advance the kokeshi of its colour, or the one four tracks right (wrapping).")),
    "left": (N_("Left arrow"), N_("Advance a kokeshi on a track left of this tile, or the kokeshi of its colour.")),
    "right": (N_("Right arrow"), N_("Advance the kokeshi of its colour, or a kokeshi on a track right of this tile.")),
    "double": (
        N_("Double chevron"),
        N_("Advance the kokeshi of its colour, or any kokeshi two spaces (only the second counts)."),
    ),
    "any_animal": (
        N_("Chevron or paw"),
        N_("Advance any kokeshi one space, or your disc on an animal track of your choice."),
    ),
    "buy_any": (
        N_("Coin or chevron"),
        N_("Buy an offer tile for your side reserve (any track), or advance any kokeshi."),
    ),
    "buy_here": (
        N_("Kokeshi + coin"),
        N_("Both: advance the kokeshi of its colour, then buy an offer tile for this track."),
    ),
    "animal1": (
        N_("Kokeshi + animal"),
        N_("Both: advance the kokeshi of its colour, then your disc on the animal shown."),
    ),
    "animal2": (N_("Kokeshi + animal"), N_("Same as the other animal tile of its colour, with its second animal.")),
    "quality": (
        N_("Quality tile"),
        N_(
            "Stars = level 1-{levels}, placed from height {heights}; worth its points. "
            "A kokeshi landing on it moves up one more space."
        ),
    ),
}


def _example_tiles() -> dict[str, dict]:
    """One tile of each type, in rotating colours, from the engine's component table."""
    from games.kokeshi.engine.data import TILES, tile_view

    out: dict[str, dict] = {}
    for i, type_ in enumerate(_TYPE_ORDER):
        color = i % len(m.KOKESHI)
        candidates = [t for t in TILES if t.type == type_]
        pick = next((t for t in candidates if t.color == color and t.level in (0, 2)), candidates[0])
        out[type_] = tile_view(pick.index)
    return out


def draw_glossary() -> Image.Image:
    """Every tile type with what it does, and the meaning of the marks (see `render.glossary`)."""
    return _glossary(current()).copy()


GLOSSARY_COLUMN = 790  # width of one column of tile types
GLOSSARY_WRAP = 78  # characters per line of a tile type's description, at most three lines


@lru_cache(maxsize=4)
def _glossary(locale: str = "en") -> Image.Image:
    img = Image.new("RGB", GLOSSARY_SIZE, pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    _title_bar(img, _("Tiles and marks"), _("'/' choose one side \u00b7 '+' do both"))
    top = HEADER_H + 10
    dr.panel(d, (MARGIN, top, GLOSSARY_SIZE[0] - MARGIN, 780))
    examples = _example_tiles()
    per_col = 7
    for i, type_ in enumerate(_TYPE_ORDER):
        col, row = i // per_col, i % per_col
        x = MARGIN + 20 + col * GLOSSARY_COLUMN
        y = top + 14 + row * 100
        tile = examples[type_]
        dr.paste(img, tiles.sprite(tile, 100, 86), x, y)
        title, body = (_(words) for words in _TYPE_TEXT[type_])
        if type_ == "quality":
            body = body.format(levels=len(m.LEVEL_AT), heights=" / ".join(map(str, m.LEVEL_THRESHOLDS)))
        tx.draw(d, (x + 116, y + 6), title, 17, pal.INK, bold=True)
        # An example tile in words, when it fits beside the title (it only repeats the title where it does not).
        example = _("(e.g. {tile})").format(tile=vocab.tile(tile["id"]))
        example_x = x + 116 + tx.width(title, 17, True) + 10
        if example_x + tx.width(example, tx.MIN_SIZE) <= min(x + GLOSSARY_COLUMN - 20, GLOSSARY_SIZE[0] - MARGIN - 16):
            tx.draw(d, (example_x, y + 8), example, tx.MIN_SIZE, pal.INK_SOFT)
        for j, line in enumerate(textwrap.wrap(body, GLOSSARY_WRAP)[:3]):
            tx.draw(d, (x + 116, y + 32 + j * 20), line, 15, pal.INK)
    # Legend: colours, kokeshi, animals, seats, marks.
    dr.panel(d, (MARGIN, 790, GLOSSARY_SIZE[0] - MARGIN, GLOSSARY_SIZE[1] - MARGIN))
    x, y = MARGIN + 20, 802
    tx.draw(d, (x, y), _("Colours"), 16, pal.INK, bold=True)
    for i, color in enumerate(pal.TILE):
        cx = x + i * 86
        dr.paste(img, tiles.sprite({"kind": "normal", "color": color, "type": "", "effect": ""}, 34, 28), cx, y + 26)
        tx.draw(d, (cx + 38, y + 40), pal.COLOR_WORD[color], tx.MIN_SIZE, pal.INK, anchor="lm")
    tx.draw(d, (x + 450, y), _("Kokeshi (tracks left to right)"), 16, pal.INK, bold=True)
    for k, kokeshi in enumerate(m.KOKESHI):
        cx = x + 450 + k * 112
        dr.paste(img, icons.kokeshi(kokeshi, 26), cx, y + 24)
        tx.draw(d, (cx + 30, y + 50), m.KOKESHI_LABEL[kokeshi], tx.MIN_SIZE, pal.INK, anchor="lm")
    tx.draw(d, (x + 1030, y), _("Animals"), 16, pal.INK, bold=True)
    for a, animal in enumerate(m.ANIMALS):
        cx = x + 1030 + a * 130
        dr.paste(img, icons.animal(animal, 40), cx, y + 26)
        tx.draw(d, (cx + 46, y + 46), m.ANIMAL_LABEL[animal], tx.MIN_SIZE, pal.INK, anchor="lm")
    y2 = y + 96
    tx.draw(d, (x, y2), _("Players"), 16, pal.INK, bold=True)
    for s, label in enumerate((_("1st seat"), _("2nd seat"), _("3rd seat"), _("4th seat"))):
        cx = x + 80 + s * 100
        dr.paste(img, icons.seat_disc(s, 28), cx, y2 - 4)
        tx.draw(d, (cx + 32, y2 + 10), label, tx.MIN_SIZE, pal.INK, anchor="lm")
    marks = [
        (dr.pill(m.PAIR_LABEL, tx.MIN_SIZE, pal.VERMILION, pal.CREAM), _("same-colour pair")),
        (icons.crown(22), _("leads that animal")),
        (dr.glow(24, 18, 5), _("changed last turn")),
        (icons.bag(28), _("tiles in the bag")),
    ]
    h = m.SAMPLE_HEIGHT
    more = [
        (
            bd.threshold_sample(),
            _(
                "at height {height}: level-{level} quality tiles may be bought, a track this high scores {points}"
            ).format(height=h, level=m.LEVEL_AT.get(h, 0), points=m.TRACK_POINTS.get(h, 0)),
        ),
        (dr.burst(f"+{m.TOP_POINTS}", 34), _("a kokeshi passed the top (+{points})").format(points=m.TOP_POINTS)),
        (_red_line_sample(), _("red line: a recognition")),
    ]
    for row, items in ((y2 + 10, marks), (y2 + 56, more)):
        mx = x + 500 if row == y2 + 10 else x
        for sprite, label in items:
            dr.paste(img, sprite, mx, row - sprite.height / 2)
            tx.draw(d, (mx + sprite.width + 8, row), label, tx.MIN_SIZE, pal.INK, anchor="lm")
            mx += sprite.width + 8 + round(tx.width(label, tx.MIN_SIZE)) + 34
    return img


def _red_line_sample() -> Image.Image:
    img = Image.new("RGBA", (20, 30), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rectangle((7, 0, 12, 29), fill=pal.VERMILION)
    return img
