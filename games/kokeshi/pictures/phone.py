"""Pictures for a phone: 900 px wide, portrait, no text under 28 px (about 12 px on a 390 px wide screen).

A decision picture shows everything the decision depends on, what it is about first: whose turn and the
question; the deciding player's workshop with the quality tiles left above each track and, drawn from the
engine's preview, where each kokeshi would land (an empty space to buy for, a tile, past the top) or where a tile
would go and the pairs it would make; the numbered offer and the bag; the happiness board with every disc, the
leads, the open bonus slots and, for a disc choice, where each disc would go; every player's score and
recognitions. The table picture is the same board after a turn, with what the turn changed marked, and (on
demand) every other player's workshop with its tiles drawn in full.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import games.kokeshi.vocab as vocab
from games.kokeshi.engine.views import idle_warning
from i18n import _, current, pgettext
from render import draw as dr
from render import text as tx
from render.draw import Box

from . import boards as bd
from . import icons, tiles
from . import model as m
from . import palette as pal

WIDTH = 900
TEXT = 28  # the smallest text: about 12 px on a 390 px wide phone screen
TITLE = 32
PAD = 16
GAP = 12
HEADER_H = 112
ROW = 54  # a score row
TITLE_H = 48  # a section's title row

# The parts of a phone picture.
RESERVE, WORKSHOP, OFFER, HAPPINESS, SCORES, OTHERS = "reserve", "workshop", "offer", "happiness", "scores", "others"
KINDS = ("setup", "advance", "effect", "kokeshi", "animal", "buy", "place")
TABLE = "table"
# What each decision shows, what it is about first.
ORDER: dict[str, tuple[str, ...]] = {
    "setup": (RESERVE, WORKSHOP, OFFER, HAPPINESS, SCORES),
    "advance": (WORKSHOP, OFFER, HAPPINESS, SCORES),
    "effect": (WORKSHOP, OFFER, HAPPINESS, SCORES),
    "kokeshi": (WORKSHOP, OFFER, HAPPINESS, SCORES),
    "animal": (HAPPINESS, WORKSHOP, OFFER, SCORES),
    "buy": (OFFER, WORKSHOP, HAPPINESS, SCORES),
    "place": (RESERVE, WORKSHOP, OFFER, HAPPINESS, SCORES),
    TABLE: (WORKSHOP, HAPPINESS, OFFER, SCORES),
}

# The workshop: five tracks of 118 x 60 tiles (full tile art), under a row of names and a row of quality tiles left.
_NAMES_H, _QUALITY_H = 38, 42
_WORKSHOP = {"tile_w": 118, "tile_h": 60, "lane": 36, "gap": 7, "axis": 44}
# The happiness board: an animal column, then eight spaces per row.
_H_LABEL, _H_ROW = 64, 84
# Offer slots.
_OFFER_TILE_H = 112
# The spaces a previewed move can end on (`engine.preview.Landing.space`).
EMPTY, TOP = "empty", "top"
# Other players' workshops, two to a row: tiles still drawn in full (at least tiles.FULL_MIN_HEIGHT high).
_OTHER = {"tile_w": 62, "tile_h": 50, "lane": 16, "gap": 4}
_OTHER_TITLE = 52


def _other_board(x: int, y: int) -> bd.Workshop:
    return bd.Workshop(x, y, **_OTHER)


@dataclass(frozen=True)
class PhoneLayout:
    """Where each part of a phone picture goes, for a decision kind (or TABLE), the seats and the others shown."""

    kind: str
    seats: int
    others: int = 0  # other players' workshops drawn below (the table picture on demand)

    @property
    def sections(self) -> tuple[str, ...]:
        order = ORDER.get(self.kind, ORDER["advance"])
        return (*order, OTHERS) if self.others else order

    @property
    def panel(self) -> str | None:
        """The part that comes first, the one the decision is about."""
        return self.sections[0]

    def height_of(self, section: str) -> int:
        if section == RESERVE:
            return TITLE_H + 100 + 8 + 40 + 8
        if section == WORKSHOP:
            return 8 + self.workshop_at(0).height + 8
        if section == OFFER:
            return TITLE_H + 48 + _OFFER_TILE_H + 12 + (48 if self.kind == "buy" else 0)
        if section == HAPPINESS:
            return TITLE_H + 4 * _H_ROW + 8
        if section == SCORES:
            return TITLE_H + self.seats * ROW + 8
        if section == OTHERS:
            rows = (self.others + 1) // 2
            return TITLE_H + rows * (_OTHER_TITLE + _other_board(0, 0).height + 12)
        raise ValueError(section)

    def box(self, section: str) -> Box:
        y = HEADER_H + PAD
        for name in self.sections:
            h = self.height_of(name)
            if name == section:
                return (PAD, y, WIDTH - PAD, y + h)
            y += h + GAP
        raise KeyError(section)

    @property
    def panel_box(self) -> Box:
        return self.box(self.sections[0])

    def workshop_at(self, y: int) -> bd.Workshop:
        return bd.Workshop(PAD + 8, y, header=_NAMES_H + _QUALITY_H, **_WORKSHOP)

    @property
    def workshop(self) -> bd.Workshop:
        return self.workshop_at(self.box(WORKSHOP)[1] + 8)

    @property
    def workshop_box(self) -> Box:
        return self.box(WORKSHOP)

    @property
    def scores_box(self) -> Box:
        return self.box(SCORES)

    def offer_slot(self, i: int) -> Box:
        return _offer_slot(self.box(OFFER), i)

    def cell(self, a: int, pos: int) -> Box:
        return _cell(self.box(HAPPINESS), a, pos)

    def other(self, slot: int) -> tuple[Box, bd.Workshop]:
        """The title box and the board of the `slot`-th other player."""
        x0, y0, _x1, _y1 = self.box(OTHERS)
        board = _other_board(0, 0)
        col, row = slot % 2, slot // 2
        x = x0 + 8 + col * (board.width + 16)
        y = y0 + TITLE_H + row * (_OTHER_TITLE + board.height + 12)
        return (x, y, x + board.width, y + _OTHER_TITLE), _other_board(x, y + _OTHER_TITLE)

    @property
    def size(self) -> tuple[int, int]:
        last = self.box(self.sections[-1])
        return (WIDTH, last[3] + PAD)


@lru_cache(maxsize=512)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A line of text as an alpha mask, with its offset from the anchor point (text drawing is the costly part)."""
    face = tx.font(size, bold)
    x0, y0, x1, y1 = face.getbbox(text, anchor=anchor)
    # FreeType's boxes are whole pixels: the ints only say so to the type checker.
    x0, y0, x1, y1 = int(x0), int(y0), int(x1), int(y1)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=face, fill=255, anchor=anchor)
    return mask, x0, y0


def _text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...],
    *,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
) -> None:
    """Like `text.draw`, from a cache of drawn lines: names and numbers repeat from one turn to the next."""
    if max_width is not None:
        text = tx.fit(text, size, bold, max_width)
    mask, dx, dy = _mask(text, size, bold, anchor)
    img.paste(fill, (round(xy[0]) + dx, round(xy[1]) + dy), mask)


@lru_cache(maxsize=64)
def _badge(label: str, fill: tuple[int, int, int], ink: tuple[int, int, int]) -> Image.Image:
    return dr.pill(label, TEXT, fill, ink)


# ---------------------------------------------------------------- static layer


@lru_cache(maxsize=64)
def _static(kind: str, seats: int, others: int, side: str, locale: str = "en") -> Image.Image:
    """Everything that depends only on the layout and the board side."""
    g = PhoneLayout(kind, seats, others)
    img = Image.new("RGB", g.size, pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    dr.wood(img, (0, 0, WIDTH, HEADER_H))
    for section in g.sections:
        box = g.box(section)
        dr.panel(d, box)
        x0, y0 = box[0], box[1]
        if section == OFFER:
            tx.draw(d, (x0 + 16, y0 + 10), _("Offer"), TITLE, pal.INK, bold=True)
            for i in range(4):
                sx0, sy0, sx1, sy1 = _offer_slot(box, i)
                d.rounded_rectangle(
                    (sx0 - 3, sy0 - 3, sx1 + 3, sy1 + 3), radius=12, fill=pal.SLOT, outline=pal.SLOT_EDGE
                )
                number = dr.pill(str(i + 1), TITLE + 4, pal.WOOD_DARK, pal.CREAM, min_w=56)
                dr.paste_center(img, number, (sx0 + sx1) / 2, sy0 - 28)
            dr.paste(img, icons.bag(40), box[2] - 150, y0 + 6)
        elif section == HAPPINESS:
            tx.draw(d, (x0 + 16, y0 + 10), _("Happiness board"), TITLE, pal.INK, bold=True)
            _happiness_static(img, box, side)
        elif section == WORKSHOP:
            _workshop_static(img, g.workshop)
        elif section == SCORES:
            tx.draw(d, (x0 + 16, y0 + 10), _("Scores"), TITLE, pal.INK, bold=True)
        elif section == RESERVE:
            tx.draw(d, (x0 + 16, y0 + 10), _("Tiles to place"), TITLE, pal.INK, bold=True)
        elif section == OTHERS:
            tx.draw(d, (x0 + 16, y0 + 10), _("The other workshops"), TITLE, pal.INK, bold=True)
            for slot in range(others):
                _box, board = g.other(slot)
                _small_workshop_static(img, board)
    return img


def _workshop_static(img: Image.Image, g: bd.Workshop) -> None:
    d = ImageDraw.Draw(img)
    bd.workshop_wood(d, g, (3, 3))
    for h in range(1, m.HEIGHTS + 1):
        _, by0, _, by1 = g.tile_box(0, h)
        marked = h in m.LEVEL_AT or h in m.TRACK_POINTS
        tx.draw(
            d,
            (g.x + g.axis / 2, (by0 + by1) / 2),
            str(h),
            TEXT,
            pal.INK if marked else pal.INK_SOFT,
            bold=marked,
            anchor="mm",
        )
    for k, kokeshi in enumerate(m.KOKESHI):
        color = m.KOKESHI_COLOR[kokeshi]
        hx0, hy0, hx1, hy1 = bd.workshop_ground(d, g, k, slot_radius=8)
        tx.draw(
            d,
            ((hx0 + hx1) / 2, (hy0 + hy1) / 2),
            pal.LETTER[color],
            TEXT + 4,
            pal.TILE_DARK[color],
            bold=True,
            anchor="mm",
        )
        tx.draw(
            d,
            ((hx0 + hx1 + g.lane) / 2, g.y + _NAMES_H / 2),
            vocab.kokeshi(kokeshi),
            TEXT,
            pal.INK,
            anchor="mm",
            max_width=g.col_w - 2,
        )


def _small_workshop_static(img: Image.Image, g: bd.Workshop) -> None:
    """Another player's workshop: the spaces, and the home spaces with their kokeshi's head (no small text)."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = g.x, g.y, g.x + g.width, g.y + g.height
    d.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=pal.WOOD, outline=pal.shade(pal.WOOD, 0.7), width=2)
    d.rounded_rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), radius=8, fill=pal.WOOD_LIGHT)
    for k, kokeshi in enumerate(m.KOKESHI):
        color = m.KOKESHI_COLOR[kokeshi]
        for h in range(1, m.HEIGHTS + 1):
            d.rounded_rectangle(g.tile_box(k, h), radius=7, fill=pal.SLOT, outline=pal.SLOT_EDGE, width=1)
        hx0, hy0, hx1, hy1 = g.tile_box(k, 0)
        d.rounded_rectangle(
            (hx0, hy0, hx1, hy1), radius=7, fill=pal.shade(pal.TILE[color], 1.35), outline=pal.TILE_DARK[color], width=2
        )
        dr.paste_center(img, icons.kokeshi_head(kokeshi, g.tile_h - 12), (hx0 + hx1) / 2, (hy0 + hy1) / 2)


def _offer_slot(box: Box, i: int) -> Box:
    x0, y0, x1, _ = box
    w = (x1 - x0 - 32 - 3 * 16) // 4
    x = x0 + 16 + i * (w + 16)
    top = y0 + TITLE_H + 48
    return (x, top, x + w, top + _OFFER_TILE_H)


def _cell(box: Box, a: int, pos: int) -> Box:
    x0, y0, x1, _ = box
    w = (x1 - x0 - 24 - _H_LABEL) / (m.MAX_POSITION + 1)
    cx0 = x0 + 12 + _H_LABEL + pos * w
    cy0 = y0 + TITLE_H + a * _H_ROW
    return (round(cx0), cy0, round(cx0 + w) - 3, cy0 + _H_ROW - 4)


def _happiness_static(img: Image.Image, box: Box, side: str) -> None:
    d = ImageDraw.Draw(img)
    x0 = box[0]
    points = m.animal_points(side)
    for a, animal in enumerate(m.ANIMALS):
        _unused, cy0, _unused, cy1 = _cell(box, a, 0)
        dr.paste_center(img, icons.animal(animal, 56), x0 + 12 + _H_LABEL / 2, (cy0 + cy1) / 2)
        for pos in range(m.MAX_POSITION + 1):
            c = _cell(box, a, pos)
            d.rounded_rectangle(c, radius=8, fill=pal.ANIMAL_TINT[animal], outline=pal.SLOT_EDGE)
            tx.draw(d, (c[0] + 6, c[1] + 2), str(points[animal][pos]), TEXT, pal.INK_SOFT, bold=True)
    # The red line: a disc that reaches it crosses it and earns a recognition.
    lx = _cell(box, 0, m.RED_LINE)[0] - 2
    top, bottom = _cell(box, 0, 0)[1] - 4, _cell(box, len(m.ANIMALS) - 1, 0)[3] + 4
    d.rectangle((lx - 2, top, lx + 1, bottom), fill=pal.VERMILION)


# ---------------------------------------------------------------- header


def _name(name: object) -> str:
    """A seat's name as a heading: the automa's, a common noun, with a capital."""
    shown = vocab.seat_name(name)
    return shown[:1].upper() + shown[1:] if name == vocab.AUTOMA_SEAT else shown


def _header(img: Image.Image, view: Mapping[str, Any], name: str, line: str, right: str | None = None) -> None:
    seat = m.seat_of(view, name)
    if right is None:
        rnd = int(view.get("round", 0) or 0)
        final = bool(view.get("final_round")) and rnd >= int(view.get("final_round") or 0)
        right = vocab.round_name(0 if view.get("phase") == "setup" else rnd, final)
    room = tx.width(right, TEXT)
    _text(img, (WIDTH - PAD - 4, 34), right, TEXT, pal.GOLD_LIGHT, anchor="rm")
    x = PAD + 4
    if seat >= 0:
        dr.paste(img, icons.seat_disc(seat, 44), x, 12)
        x += 54
    shown = _name(name)
    _text(img, (x, 34), shown, TITLE + 2, pal.CREAM, bold=True, anchor="lm", max_width=round(WIDTH - x - room - 40))
    space = WIDTH - 2 * PAD - 8
    near = idle_warning(view, name)
    if near is not None:
        # The end against stalling is near: how many idle turns are left, beside the question.
        whose, left = near
        other = None if whose in (None, name) else tx.fit(vocab.seat_name(whose), TEXT, True, 260)
        badge = dr.pill(vocab.idle_left(left, other), TEXT, pal.VERMILION, pal.CREAM)
        dr.paste(img, badge, WIDTH - PAD - badge.width, 84 - badge.height / 2)
        space -= badge.width + 16
    _text(img, (PAD + 4, 84), line, TEXT + 2, pal.CREAM, anchor="lm", max_width=space)


# ---------------------------------------------------------------- the workshop


def _quality_left(img: Image.Image, g: bd.Workshop, view: Mapping[str, Any]) -> None:
    """Above each track, the levels of its quality tiles still to be had (a hollow ring for one gone)."""
    d = ImageDraw.Draw(img)
    supply = view.get("quality_supply") or {}
    for k, kokeshi in enumerate(m.KOKESHI):
        color = m.KOKESHI_COLOR[kokeshi]
        left = set(supply.get(kokeshi) or ())
        hx0, _, hx1, _ = g.tile_box(k, 0)
        cx0 = (hx0 + hx1 + g.lane) / 2 - 58
        cy = g.y + _NAMES_H + _QUALITY_H / 2
        for j, level in enumerate(m.LEVEL_AT.values()):
            cx = cx0 + j * 40 + 18
            if level in left:
                d.rounded_rectangle(
                    (cx - 18, cy - 18, cx + 18, cy + 18), radius=8, fill=pal.TILE[color], outline=pal.TILE_DARK[color]
                )
                _text(img, (cx, cy + 1), str(level), TEXT, pal.INK, bold=True, anchor="mm")
            else:
                d.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), outline=pal.SLOT_EDGE, width=2)


def _workshop_dynamic(
    img: Image.Image,
    g: bd.Workshop,
    player: Mapping[str, Any],
    hl: m.Highlights | None = None,
    active: str | None = None,
) -> None:
    """A player's tiles, kokeshi and pairs; what the last turn changed (`hl`); the tile a choice is about."""
    d = ImageDraw.Draw(img)
    name = player.get("name", "")
    tracks = player.get("tracks") or {}
    heights = player.get("kokeshi") or {}
    if hl is not None:
        for k, kokeshi in enumerate(m.KOKESHI):
            moved = hl.moved.get((name, kokeshi))
            if moved:
                start, to = (max(0, min(m.HEIGHTS, h)) for h in moved)
                lo, hi = sorted((start, to))
                lx0, ly0, lx1, _ = g.lane_box(k, hi)
                _, _, _, ly1 = g.lane_box(k, lo)
                dr.paste(img, dr.glow(lx1 - lx0 + 2, ly1 - ly0, 6, width=4), lx0 - 7, ly0 - 6)
    for k, kokeshi in enumerate(m.KOKESHI):
        for i, tile in enumerate((tracks.get(kokeshi) or [])[: m.HEIGHTS]):
            if not tile:
                continue
            x0, y0, x1, y1 = g.tile_box(k, i + 1)
            if (active is not None and tile.get("id") == active) or (hl is not None and tile.get("id") in hl.tiles):
                dr.paste_center(img, dr.glow(x1 - x0, y1 - y0, 10, width=6), (x0 + x1) / 2, (y0 + y1) / 2)
            dr.paste(img, tiles.sprite(tile, x1 - x0, y1 - y0, TEXT), x0, y0)
    _pair_marks(d, g, player, 22, 5, radius=3)
    for k, kokeshi in enumerate(m.KOKESHI):
        h = max(0, min(m.HEIGHTS, int(heights.get(kokeshi, 0) or 0)))
        lx0, _, lx1, ly1 = g.lane_box(k, h)
        figure = icons.kokeshi(kokeshi, 34)
        dr.paste(img, figure, (lx0 + lx1 - figure.width) / 2, ly1 - figure.height + 2)
        if hl is not None and hl.top.get((name, kokeshi)):
            _top_burst(img, g, k, hl.top[(name, kokeshi)])


def _pair_marks(
    d: ImageDraw.ImageDraw, g: bd.Workshop, player: Mapping[str, Any], long: int, short: int, radius: int
) -> None:
    """A vermilion bar across every shared edge of two same-coloured neighbours (an automa's board has none);
    `long` and `short` are its half-sizes."""
    if player.get("automa"):
        return
    for (ka, ha), (kb, hb) in bd.same_colour_pairs(player):
        ax0, ay0, ax1, ay1 = g.tile_box(ka, ha)
        bx0, _, _, by1 = g.tile_box(kb, hb)
        if ka == kb:
            cx, cy = (ax0 + ax1) / 2, (ay0 + by1) / 2
            box = (cx - long, cy - short, cx + long, cy + short)
        else:
            cx, cy = (ax1 + bx0) / 2, (ay0 + ay1) / 2
            box = (cx - short, cy - long, cx + short, cy + long)
        d.rounded_rectangle(box, radius=radius, fill=pal.VERMILION, outline=pal.CREAM)


def _top_burst(img: Image.Image, g: bd.Workshop, k: int, points: int) -> None:
    """Points for passing the top, over the top of the track."""
    x0, y0, x1, _ = g.track_box(k)
    b = _burst(f"+{points}")
    dr.paste_center(img, b, (x0 + x1) / 2 + 8, y0 + 4)


@lru_cache(maxsize=8)
def _burst(label: str) -> Image.Image:
    """A gold star burst with its points in text of the phone's size."""
    size = 76

    def paint(pen: icons.Pen) -> None:
        pen.poly(icons.star_points(50, 50, 49, 0.74, 12), fill=pal.GOLD, outline=pal.INK, width=3)

    img = icons.render(size, size, 100, paint)
    tx.draw(ImageDraw.Draw(img), (size / 2, size / 2 + 1), label, TEXT, pal.INK, bold=True, anchor="mm")
    return img


def _mark_space(img: Image.Image, g: bd.Workshop, k: int, h: int, *, dashed: bool = False) -> None:
    """A gold frame on a space of the workshop: where a kokeshi lands or a tile goes."""
    x0, y0, x1, y1 = g.tile_box(k, h)
    d = ImageDraw.Draw(img)
    if dashed:
        for inset in (0, 2, 4):
            dr.dashed_rect(d, (x0 + inset, y0 + inset, x1 - inset, y1 - inset), pal.GOLD, 2, 8)
    else:
        d.rounded_rectangle((x0 - 5, y0 - 5, x1 + 5, y1 + 5), radius=12, outline=pal.GOLD, width=6)


def _landing_marks(img: Image.Image, g: bd.Workshop, outcomes: Sequence[Any], player: Mapping[str, Any]) -> None:
    """Where each previewed move ends: its way up the lane, and its last space (buy there, a tile, past the top)."""
    d = ImageDraw.Draw(img)
    heights = player.get("kokeshi") or {}
    done: set[str] = set()
    for out in outcomes:
        path = out.path
        if not path or path[0].kokeshi in done or path[0].kokeshi not in m.KOKESHI:
            continue
        kokeshi = path[0].kokeshi
        done.add(kokeshi)
        k = m.KOKESHI.index(kokeshi)
        final = path[-1]
        start = max(0, min(m.HEIGHTS, int(heights.get(kokeshi, path[0].start) or 0)))
        to = m.HEIGHTS if final.space == TOP else max(1, min(m.HEIGHTS, final.to))
        lx0, _, lx1, _ = g.lane_box(k, to)
        _, top, _, _ = g.lane_box(k, to)
        _, _, _, bottom = g.lane_box(k, start)
        cx = (lx0 + lx1) / 2
        d.line((cx, top + 6, cx, bottom - 30), fill=pal.GOLD, width=6)
        d.polygon([(cx - 12, top + 14), (cx + 12, top + 14), (cx, top - 2)], fill=pal.GOLD)
        if final.space == TOP:
            _top_burst(img, g, k, 3)
            continue
        _mark_space(img, g, k, final.to, dashed=final.space == EMPTY)
        if final.space == EMPTY:
            x0, y0, x1, y1 = g.tile_box(k, final.to)
            coin = icons.side("buy_here", 46)
            dr.paste_center(img, coin, (x0 + x1) / 2, (y0 + y1) / 2)


def _target_marks(img: Image.Image, g: bd.Workshop, outcomes: Sequence[Any], kind: str) -> None:
    """Where a bought or placed tile goes: the track framed, the space dashed; for a placement, the pairs it would
    make there (a vermilion '−3', with the tile's colour letter when several tiles wait)."""
    spaces: dict[tuple[int, int], dict[str, int]] = {}
    for out in outcomes:
        if kind == "buy":
            targets = [(p.track, p.height, "", 0) for p in out.purchases if p.track and p.height and not p.skipped]
        else:
            # Tiles of one colour make the same pairs: one badge per colour.
            targets = [
                (p.track, p.height, _tile_color(p.tile), p.pairs) for p in out.placements[:1] if p.player == out.player
            ]
        for track, height, tile, pairs in targets[:1]:
            if track in m.KOKESHI and 1 <= height <= m.HEIGHTS:
                found = spaces.setdefault((m.KOKESHI.index(track), height), {})
                found[tile] = max(found.get(tile, 0), pairs)
    if kind == "buy":
        _track_frames(img, g, {k for k, _h in spaces})
    several = len({tile for found in spaces.values() for tile in found}) > 1
    for (k, h), found in spaces.items():
        _mark_space(img, g, k, h, dashed=True)
        badges = [(tile, pairs) for tile, pairs in found.items() if pairs]
        x0, y0, x1, y1 = g.tile_box(k, h)
        for i, (tile, pairs) in enumerate(badges[:2]):
            label = vocab.signed(-m.ADJACENCY_PENALTY * pairs)
            if several and tile:
                label = f"{pal.LETTER[tile]} {label}"
            pill = _badge(label, pal.VERMILION, pal.CREAM)
            dr.paste_center(img, pill, (x0 + x1) / 2, (y0 + y1) / 2 + (i - (len(badges[:2]) - 1) / 2) * 30)


def _tile_color(tile_id: str) -> str:
    from games.kokeshi.engine.data import COLORS, TILE_BY_ID, TILE_COLOR

    return COLORS[TILE_COLOR[TILE_BY_ID[tile_id]]]


# ---------------------------------------------------------------- offer, reserve, happiness, scores


def _offer_dynamic(
    img: Image.Image,
    box: Box,
    view: Mapping[str, Any],
    prompt: Mapping[str, Any],
    outcomes: Mapping[str, Any],
    hl: m.Highlights | None,
) -> None:
    offer = list(view.get("offer") or [])[:4]
    _text(img, (box[2] - 104, box[1] + 28), str(int(view.get("bag", 0) or 0)), TITLE, pal.INK, bold=True, anchor="lm")
    buyable = {int(o["id"].split(":")[1]) for o in prompt.get("options") or () if o["id"].startswith("market:")}
    for i in range(4):
        x0, y0, x1, y1 = _offer_slot(box, i)
        tile = offer[i] if i < len(offer) else None
        if tile:
            glowing = (i in buyable and len(buyable) < len(offer)) or (hl is not None and i in hl.offer)
            if glowing:
                dr.paste_center(img, dr.glow(x1 - x0, y1 - y0, 10, width=5), (x0 + x1) / 2, (y0 + y1) / 2)
            dr.paste(img, tiles.sprite(tile, x1 - x0, y1 - y0, TEXT), x0, y0)
            out = outcomes.get(f"market:{i}")
            pairs = max((p.pairs for p in out.purchases if p.tile), default=0) if out is not None else 0
            if pairs:
                pill = _badge(vocab.signed(-m.ADJACENCY_PENALTY * pairs), pal.VERMILION, pal.CREAM)
                dr.paste(img, pill, x1 - pill.width + 6, y1 - pill.height + 8)
        else:
            _text(img, ((x0 + x1) / 2, (y0 + y1) / 2), _("empty"), TEXT, pal.INK_SOFT, anchor="mm")
    if prompt.get("kind") == "buy":
        _buy_line(img, box, prompt, outcomes)


def _buy_line(img: Image.Image, box: Box, prompt: Mapping[str, Any], outcomes: Mapping[str, Any]) -> None:
    """Under the offer of a purchase: where the tile goes, and the quality tiles that may be taken instead."""
    where = ""
    for out in outcomes.values():
        bought = next((p for p in out.purchases if p.tile and not p.quality), None)
        if bought is not None:
            where = vocab.track_height(bought.track, bought.height)
            break
    levels = sorted(int(o["id"].split(":")[1]) for o in prompt.get("options") or () if o["id"].startswith("quality:"))
    parts = [_("goes to: {where}").format(where=where)] if where else []
    if levels:
        parts.append(vocab.quality_offer(levels))
    if parts:
        _text(
            img,
            (box[0] + 16, box[3] - 36),
            " · ".join(parts),
            TEXT,
            pal.INK,
            anchor="lm",
            max_width=box[2] - box[0] - 32,
        )


def _reserve_dynamic(img: Image.Image, box: Box, player: Mapping[str, Any]) -> None:
    x0, y0, x1, _unused = box
    entries = list(player.get("reserve") or [])
    if not entries:
        _text(img, (x0 + 16, y0 + TITLE_H + 50), _("none"), TEXT, pal.INK_SOFT, anchor="lm")
        return
    w, h = 150, 100
    fit = max(1, (x1 - x0 - 32 + 16) // (w + 16))
    for i, entry in enumerate(entries[:fit]):
        tile = entry.get("tile") if isinstance(entry.get("tile"), Mapping) else entry
        tx0 = x0 + 16 + i * (w + 16)
        dr.paste(img, tiles.sprite(tile, w, h, TEXT), tx0, y0 + TITLE_H)
        track = entry.get("track")
        where = vocab.kokeshi(track) if track in m.KOKESHI else pgettext("under a tile", "any track")
        _text(img, (tx0 + w / 2, y0 + TITLE_H + h + 8), where, TEXT, pal.INK, anchor="ma", max_width=w + 12)
    if len(entries) > fit:
        _text(img, (x1 - 16, y0 + 12), f"+{len(entries) - fit}", TEXT, pal.INK, bold=True, anchor="ra")


def _happiness_dynamic(
    img: Image.Image,
    box: Box,
    view: Mapping[str, Any],
    me: int,
    hl: m.Highlights | None = None,
    outcomes: Sequence[Any] = (),
) -> None:
    """Bonus tiles (top right of their space), discs in arrival order (bottom row, from the right), leads (a
    crown), the last turn's moves (a gold trail) and, for a disc choice, each disc's next space and its points."""
    d = ImageDraw.Draw(img)
    for slot in view.get("bonus_slots") or ():
        tile = slot.get("tile")
        for animal in slot.get("animals") or ():
            if animal not in m.ANIMALS:
                continue
            c = _cell(box, m.ANIMALS.index(animal), int(slot.get("position", 0)))
            if tile:
                dr.paste(img, tiles.sprite(tile, 40, 36, TEXT), c[2] - 44, c[1] + 3)
            elif hl is not None and slot.get("id") in hl.bonus:
                dr.paste(img, dr.glow(36, 32, 6, width=3), c[2] - 48, c[1] - 1)
    players = list(view.get("players") or [])
    for out in outcomes:
        for step in out.discs[:1]:
            if step.player != out.player or step.animal not in m.ANIMALS:
                continue
            c = _cell(box, m.ANIMALS.index(step.animal), step.to)
            d.rounded_rectangle((c[0] - 3, c[1] - 3, c[2] + 3, c[3] + 3), radius=10, outline=pal.GOLD, width=6)
            label = f"+{out.points}" if out.points >= 0 else vocab.signed(out.points)
            ink = pal.GOOD if out.points > 0 else (pal.VERMILION if out.points < 0 else pal.INK_SOFT)
            _text(img, (c[0] + 6, c[3] - 4), label, TEXT, ink, bold=True, anchor="ld")
    crown = icons.crown(22)
    size = 28
    for a, animal in enumerate(m.ANIMALS):
        stacks: dict[int, list[tuple[int, int]]] = {}
        for seat, p in enumerate(players):
            pos = max(0, min(m.MAX_POSITION, int((p.get("animals") or {}).get(animal, 0) or 0)))
            order = int((p.get("arrival") or {}).get(animal, 0) or 0)
            stacks.setdefault(pos, []).append((order, seat))
        for pos, stack in stacks.items():
            c = _cell(box, a, pos)
            stack.sort()
            for i, (_order, seat) in enumerate(stack[:4]):
                # The first to arrive (ahead on a tie) sits rightmost; a fourth disc goes above the first.
                x = c[2] - 4 - (i % 3 + 1) * (size + 2)
                y = c[3] - 4 - size - (size + 2) * (i // 3)
                name = players[seat].get("name")
                moved = hl is not None and hl.discs.get((name, animal))
                if moved:
                    start = max(0, min(m.MAX_POSITION, moved[0]))
                    if start != pos:
                        s = _cell(box, a, start)
                        cy = y + size / 2
                        sx = (s[0] + s[2]) / 2
                        d.line((sx, cy, x, cy), fill=pal.GOLD, width=5)
                        d.ellipse((sx - 6, cy - 6, sx + 6, cy + 6), fill=pal.GOLD)
                ring = pal.GOLD if (seat == me or moved) else None
                dr.paste(img, icons.seat_disc(seat, size, ring), x, y)
                if animal in (players[seat].get("leads") or ()):
                    dr.paste(img, crown, x + size - 16, y - 14)


def _scores(
    img: Image.Image, box: Box, view: Mapping[str, Any], me: int, gains: Mapping[str, int] | None = None
) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, _unused = box
    goal = vocab_goal(view)
    for seat, p in enumerate(list(view.get("players") or [])[:4]):
        y = y0 + TITLE_H + seat * ROW
        if seat == me:
            d.rounded_rectangle((x0 + 8, y, x1 - 8, y + ROW - 4), radius=10, fill=pal.shade(pal.GOLD_LIGHT, 1.3))
        mid = y + (ROW - 4) / 2
        dr.paste(img, icons.seat_disc(seat, 40), x0 + 16, mid - 20)
        total = int((p.get("score") or {}).get("total", 0) or 0)
        pts = dr.pill(vocab.points(total), TEXT, pal.WOOD_DARK, pal.CREAM, min_w=120)
        right = x1 - 16 - pts.width
        dr.paste(img, pts, right, mid - pts.height / 2)
        gain = (gains or {}).get(str(p.get("name")))
        if gain:
            label = f"+{gain}" if gain > 0 else vocab.signed(gain)
            right -= 8
            _text(img, (right, mid), label, TEXT, pal.GOOD if gain > 0 else pal.VERMILION, bold=True, anchor="rm")
            right -= round(tx.width(label, TEXT, True))
        rec = f"{int(p.get('recognitions', 0) or 0)}/{goal}"
        right -= 16 + round(tx.width(rec, TEXT, True))
        _text(img, (right, mid), rec, TEXT, pal.INK, bold=True, anchor="lm")
        star = icons.star(30)
        right -= star.width + 4
        dr.paste(img, star, right, mid - star.height / 2)
        for animal in reversed(list(p.get("leads") or ())):
            if animal in m.ANIMALS:
                right -= 36
                dr.paste(img, icons.animal(animal, 34), right, mid - 17)
        name = _name(p.get("name", ""))
        tx.draw(d, (x0 + 68, mid), name, TEXT, pal.INK, bold=True, anchor="lm", max_width=right - x0 - 68 - 12)


def vocab_goal(view: Mapping[str, Any]) -> int:
    """Recognitions that trigger the end in this game."""
    from games.kokeshi.engine.data import END_RECOGNITIONS

    return END_RECOGNITIONS[min(max(2, len(view.get("players") or ())), 4)]


def _others(img: Image.Image, g: PhoneLayout, view: Mapping[str, Any], seats: Sequence[int], hl: m.Highlights) -> None:
    """Every other player's workshop, tiles in full, with their name, recognitions and score."""
    players = list(view.get("players") or [])
    for slot, seat in enumerate(seats):
        (x0, y0, x1, y1), board = g.other(slot)
        p = players[seat]
        mid = (y0 + y1) / 2 - 4
        dr.paste(img, icons.seat_disc(seat, 36), x0, mid - 18)
        total = int((p.get("score") or {}).get("total", 0) or 0)
        pts = dr.pill(vocab.points(total), TEXT, pal.WOOD_DARK, pal.CREAM)
        dr.paste(img, pts, x1 - pts.width, mid - pts.height / 2)
        rec = str(int(p.get("recognitions", 0) or 0))
        right = x1 - pts.width - 10 - round(tx.width(rec, TEXT, True))
        _text(img, (right, mid), rec, TEXT, pal.INK, bold=True, anchor="lm")
        star = icons.star(28)
        right -= star.width + 4
        dr.paste(img, star, right, mid - star.height / 2)
        name = _name(p.get("name", ""))
        room = right - x0 - 52
        _text(img, (x0 + 44, mid), name, TEXT, pal.INK, bold=True, anchor="lm", max_width=room)
        _small_workshop(img, board, p, hl)


def _small_workshop(img: Image.Image, g: bd.Workshop, player: Mapping[str, Any], hl: m.Highlights) -> None:
    d = ImageDraw.Draw(img)
    tracks = player.get("tracks") or {}
    heights = player.get("kokeshi") or {}
    for k, kokeshi in enumerate(m.KOKESHI):
        for i, tile in enumerate((tracks.get(kokeshi) or [])[: m.HEIGHTS]):
            if tile:
                x0, y0, x1, y1 = g.tile_box(k, i + 1)
                if tile.get("id") in hl.tiles:
                    dr.paste_center(img, dr.glow(x1 - x0, y1 - y0, 8, width=4), (x0 + x1) / 2, (y0 + y1) / 2)
                # The art in full; the colour letter's badge would hide half of it at this size.
                dr.paste(img, tiles.sprite(tile, x1 - x0, y1 - y0, TEXT, letter=False), x0, y0)
    _pair_marks(d, g, player, 14, 4, radius=2)
    for k, kokeshi in enumerate(m.KOKESHI):
        h = max(0, min(m.HEIGHTS, int(heights.get(kokeshi, 0) or 0)))
        lx0, _, lx1, ly1 = g.lane_box(k, h)
        figure = icons.kokeshi(kokeshi, 18)
        dr.paste(img, figure, (lx0 + lx1 - figure.width) / 2, ly1 - figure.height + 2)


# ---------------------------------------------------------------- the pictures


def _prompt_dict(prompt: Any) -> dict[str, Any]:
    if prompt is None:
        return {}
    if isinstance(prompt, Mapping):
        return dict(prompt)
    return {
        "player": prompt.player,
        "kind": prompt.kind,
        "options": [{"id": o.id} for o in prompt.options],
    }


def _activated(events: Sequence[Any], name: str) -> str | None:
    """The id of the tile `name` is choosing a side of: the last one their kokeshi activated."""
    for event in reversed(list(events)):
        kind, player, data = m._as_triplet(event)
        if kind == "tile_activated" and player == name:
            return str(data.get("tile", "")) or None
    return None


def draw_turn(
    view: Mapping[str, Any],
    prompt: Any = None,
    player: str | None = None,
    events: Sequence[Any] = (),
    outcomes: Mapping[str, Any] | None = None,
) -> Image.Image:
    """The phone picture of one decision. `prompt` is an engine Prompt or the view's prompt dict (default: the
    view's); `player` whose workshop to show (default: the one deciding); `events` since the last picture (engine
    Events or their dicts) let an effect choice show the tile being activated; `outcomes` (`engine.preview`, by
    action id) mark where each choice leads."""
    p = _prompt_dict(prompt if prompt is not None else view.get("prompt"))
    players = list(view.get("players") or [])
    name = player or p.get("player") or view.get("current") or (players[0].get("name") if players else "")
    kind = str(p.get("kind") or "advance")
    kind = kind if kind in KINDS else "advance"
    seat = m.seat_of(view, name)
    g = PhoneLayout(kind, max(1, min(4, len(players))))
    img = _static(kind, g.seats, 0, str(view.get("side", "basic")), current()).copy()
    _header(img, view, str(name), vocab.question(kind))
    me = players[seat] if seat >= 0 else {}
    shown = dict(outcomes or {})
    # Marks are for the deciding player's own workshop.
    mine = [o for o in shown.values() if getattr(o, "player", None) == name]
    for section in g.sections:
        box = g.box(section)
        if section == OFFER:
            _offer_dynamic(img, box, view, p, shown, None)
        elif section == RESERVE:
            _reserve_dynamic(img, box, me)
        elif section == HAPPINESS:
            _happiness_dynamic(img, box, view, seat, None, mine if kind in ("animal", "effect") else ())
        elif section == SCORES:
            _scores(img, box, view, seat)
        elif section == WORKSHOP:
            w = g.workshop
            _quality_left(img, w, view)
            active = _activated(events, str(name)) if kind == "effect" else None
            _workshop_dynamic(img, w, me, None, active)
            if kind in ("buy", "place", "setup"):
                _target_marks(img, w, mine, kind)
            else:
                _landing_marks(img, w, mine, me)
            if kind in ("place", "setup", "kokeshi") and not mine:
                _track_frames(img, w, _tracks_in_play(p))
    return img


def _tracks_in_play(prompt: Mapping[str, Any]) -> set[int]:
    """The tracks the prompt's options can touch: where a tile may go, or which kokeshi may advance."""
    out: set[int] = set()
    for option in prompt.get("options") or ():
        parts = str(option.get("id", "")).split(":")
        if parts[0] == "place" and len(parts) == 3 and parts[2] in m.KOKESHI:
            out.add(m.KOKESHI.index(parts[2]))
        elif parts[0] in ("kokeshi", "advance") and parts[-1] in m.KOKESHI:
            out.add(m.KOKESHI.index(parts[-1]))
    return out


def _track_frames(img: Image.Image, g: bd.Workshop, marked: set[int]) -> None:
    """A gold frame around each track a choice can touch (without a preview to say more)."""
    if not marked or len(marked) >= len(m.KOKESHI):  # all tracks marked would say nothing
        return
    d = ImageDraw.Draw(img)
    for k in marked:
        x0, y0, x1, y1 = g.track_box(k)
        d.rounded_rectangle((x0 - 4, y0 - 4, x1 + 3, y1 + 4), radius=10, outline=pal.GOLD, width=6)


def draw_table_phone(
    view: Mapping[str, Any],
    events: Sequence[Any] = (),
    focus: str | None = None,
    others: bool = False,
    title: str | None = None,
    gains: Mapping[str, int] | None = None,
) -> Image.Image:
    """The table for a phone: the focused player's workshop (default: the one who just played, else the one to
    play) with what the turn changed marked, the happiness board, the offer and bag, the scores with this turn's
    `gains` (points by name; default: what the events tell, leads left out); with `others`, every other workshop
    below, its tiles drawn in full. `title` is the header's second line."""
    players = list(view.get("players") or [])[:4]
    n = max(1, len(players))
    hl = m.highlights(events)
    name = focus or hl.actor or view.get("current") or (players[0].get("name") if players else "")
    seat = max(0, m.seat_of(view, name))
    rest = [i for i in range(len(players)) if i != seat] if others else []
    g = PhoneLayout(TABLE, n, len(rest))
    img = _static(TABLE, n, len(rest), str(view.get("side", "basic")), current()).copy()
    gains = dict(gains) if gains is not None else _turn_gains(view, hl)
    me = players[seat] if players else {}
    if title is None:
        gained = gains.get(str(me.get("name")), 0)
        total = int((me.get("score") or {}).get("total", 0) or 0)
        if hl.actor and hl.actor == me.get("name"):
            title = _("this turn: {gained} → {total}").format(
                gained=f"+{gained}" if gained >= 0 else vocab.signed(gained), total=vocab.points(total)
            )
        else:
            title = _("{name}'s workshop").format(name=vocab.seat_name(str(me.get("name", ""))))
    _header(img, view, str(me.get("name", "")), title)
    for section in g.sections:
        box = g.box(section)
        if section == OFFER:
            _offer_dynamic(img, box, view, {}, {}, hl)
        elif section == HAPPINESS:
            _happiness_dynamic(img, box, view, seat, hl)
        elif section == SCORES:
            _scores(img, box, view, seat, gains)
        elif section == WORKSHOP:
            _quality_left(img, g.workshop, view)
            _workshop_dynamic(img, g.workshop, me, hl)
        elif section == OTHERS:
            _others(img, g, view, rest, hl)
    return img


def _turn_gains(view: Mapping[str, Any], hl: m.Highlights) -> dict[str, int]:
    """Points each player won during the turn, as far as its events tell (leads are not in the events)."""
    out: dict[str, int] = {}
    for (player, _key), points in m.gains(view, hl).items():
        out[player] = out.get(player, 0) + points
    return out
