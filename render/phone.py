"""The phone turn picture: one decision, drawn large for a 390 px wide screen, portrait, no text under 28 px.

It shows what the decision needs and nothing else: a header with whose turn and the question, then the offer with
its numbered places (buying), the tiles waiting to be placed (placing), or the happiness board (moving a disc);
always the deciding player's workshop, with the tracks the choice can touch marked, and every player's score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import engine.vocab as vocab
from engine.game import idle_warning
from i18n import _, current, pgettext

from . import boards as bd
from . import draw as dr
from . import icons, tiles
from . import model as m
from . import palette as pal
from . import text as tx
from .draw import Box

WIDTH = 900
TEXT = 28  # the smallest text: about 12 px on a 390 px wide phone screen
TITLE = 32
PAD = 16
HEADER_H = 112
SCORE_ROW = 56

# Which part above the workshop each decision kind needs.
_OFFER, _RESERVE, _HAPPINESS = "offer", "reserve", "happiness"
PANELS = {"buy": _OFFER, "place": _RESERVE, "setup": _RESERVE, "animal": _HAPPINESS}
KINDS = ("setup", "advance", "effect", "kokeshi", "animal", "buy", "place")


@dataclass(frozen=True)
class PhoneLayout:
    """Where each part of the phone picture goes, for a decision kind and a number of seats."""

    kind: str
    seats: int

    @property
    def panel(self) -> str | None:
        return PANELS.get(self.kind)

    @property
    def panel_h(self) -> int:
        return {_OFFER: 292, _RESERVE: 232, _HAPPINESS: 56 + 4 * 100 + 12, None: 0}[self.panel]

    @property
    def panel_box(self) -> Box:
        y0 = HEADER_H + PAD
        return (PAD, y0, WIDTH - PAD, y0 + self.panel_h)

    @property
    def workshop_box(self) -> Box:
        y0 = self.panel_box[3] + (PAD if self.panel else 0)
        return (PAD, y0, WIDTH - PAD, y0 + 52 + self.workshop.height + 8)

    @property
    def workshop(self) -> bd.Workshop:
        x0, y0 = PAD + 8, (self.panel_box[3] + (PAD if self.panel else 0)) + 52
        return bd.Workshop(x0, y0, tile_w=118, tile_h=76, lane=36, gap=7, axis=44, header=40)

    @property
    def scores_box(self) -> Box:
        y0 = self.workshop_box[3] + PAD
        return (PAD, y0, WIDTH - PAD, y0 + 52 + self.seats * SCORE_ROW + 8)

    @property
    def size(self) -> tuple[int, int]:
        return (WIDTH, self.scores_box[3] + PAD)


@lru_cache(maxsize=512)
def _mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """A line of text as an alpha mask, with its offset from the anchor point (text drawing is the costly part)."""
    face = tx.font(size, bold)
    x0, y0, x1, y1 = face.getbbox(text, anchor=anchor)
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


# ---------------------------------------------------------------- static layer


@lru_cache(maxsize=64)
def _static(kind: str, seats: int, side: str, locale: str = "en") -> Image.Image:
    """Everything that depends only on the decision kind, the number of seats and the board side."""
    g = PhoneLayout(kind, seats)
    img = Image.new("RGB", g.size, pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    dr.wood(img, (0, 0, WIDTH, HEADER_H))
    if g.panel:
        dr.panel(d, g.panel_box)
    dr.panel(d, g.workshop_box)
    dr.panel(d, g.scores_box)
    if g.panel == _OFFER:
        _offer_static(img, g.panel_box)
    elif g.panel == _HAPPINESS:
        _happiness_static(img, g.panel_box, side)
    _workshop_static(img, g.workshop)
    return img


def _workshop_static(img: Image.Image, g: bd.Workshop) -> None:
    d = ImageDraw.Draw(img)
    x0, y0 = g.x + g.axis, g.y + g.header
    x1, y1 = g.x + g.width, g.y + g.height
    d.rounded_rectangle((x0 - 2, y0 - 2, x1, y1), radius=10, fill=pal.WOOD, outline=pal.shade(pal.WOOD, 0.7), width=2)
    d.rounded_rectangle((x0 + 1, y0 + 1, x1 - 3, y1 - 3), radius=8, fill=pal.WOOD_LIGHT)
    for h in sorted(set(m.LEVEL_AT) | set(m.TRACK_POINTS)):
        bx0, by0, _, by1 = g.tile_box(0, h)
        d.rectangle((bx0 - 3, by0 - 3, x1 - 5, by1 + 3), fill=pal.THRESHOLD)
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
        for h in range(1, m.HEIGHTS + 1):
            d.rounded_rectangle(g.tile_box(k, h), radius=8, fill=pal.SLOT, outline=pal.SLOT_EDGE, width=1)
        lx0, ly0, lx1, _ = g.lane_box(k, m.HEIGHTS)
        _, _, _, ly1 = g.lane_box(k, 0)
        d.rounded_rectangle((lx0 + 2, ly0, lx1 - 2, ly1), radius=4, fill=pal.shade(pal.WOOD_LIGHT, 0.93))
        hx0, hy0, hx1, hy1 = g.tile_box(k, 0)
        d.rounded_rectangle(
            (hx0, hy0, hx1, hy1), radius=8, fill=pal.shade(pal.TILE[color], 1.35), outline=pal.TILE_DARK[color], width=2
        )
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
            ((hx0 + hx1 + g.lane) / 2, g.y + g.header / 2),
            vocab.kokeshi(kokeshi),
            TEXT,
            pal.INK,
            anchor="mm",
            max_width=g.col_w - 2,
        )


def _offer_static(img: Image.Image, box: Box) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, _unused, _unused = box
    tx.draw(d, (x0 + 16, y0 + 12), _("Offer"), TITLE, pal.INK, bold=True)
    for i in range(4):
        sx0, sy0, sx1, sy1 = _offer_slot(box, i)
        d.rounded_rectangle((sx0 - 3, sy0 - 3, sx1 + 3, sy1 + 3), radius=12, fill=pal.SLOT, outline=pal.SLOT_EDGE)
        number = dr.pill(str(i + 1), TITLE + 4, pal.WOOD_DARK, pal.CREAM, min_w=56)
        dr.paste_center(img, number, (sx0 + sx1) / 2, sy0 - 30)


def _offer_slot(box: Box, i: int) -> Box:
    x0, y0, x1, _ = box
    w = (x1 - x0 - 32 - 3 * 20) // 4
    x = x0 + 16 + i * (w + 20)
    return (x, y0 + 104, x + w, y0 + 104 + 160)


# ---------------------------------------------------------------- happiness board

_H_LABEL = 72  # the animal column


def _cell(box: Box, a: int, pos: int) -> Box:
    x0, y0, x1, _ = box
    w = (x1 - x0 - 24 - _H_LABEL) / (m.MAX_POSITION + 1)
    cx0 = x0 + 12 + _H_LABEL + pos * w
    cy0 = y0 + 56 + a * 100
    return (round(cx0), cy0, round(cx0 + w) - 3, cy0 + 96)


def _happiness_static(img: Image.Image, box: Box, side: str) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, _unused, _unused = box
    tx.draw(d, (x0 + 16, y0 + 10), _("Happiness board"), TITLE, pal.INK, bold=True)
    points = m.animal_points(side)
    for a, animal in enumerate(m.ANIMALS):
        _unused, cy0, _unused, cy1 = _cell(box, a, 0)
        dr.paste_center(img, icons.animal(animal, 60), x0 + 12 + _H_LABEL / 2, (cy0 + cy1) / 2)
        for pos in range(m.MAX_POSITION + 1):
            c = _cell(box, a, pos)
            d.rounded_rectangle(c, radius=8, fill=pal.ANIMAL_TINT[animal], outline=pal.SLOT_EDGE)
            tx.draw(d, (c[0] + 8, c[1] + 4), str(points[animal][pos]), TEXT, pal.INK_SOFT, bold=True)
    # The red line: a disc that reaches it crosses it and earns a recognition.
    lx = _cell(box, 0, m.RED_LINE)[0] - 2
    d.rectangle((lx - 2, _cell(box, 0, 0)[1] - 4, lx + 1, _cell(box, len(m.ANIMALS) - 1, 0)[3] + 4), fill=pal.VERMILION)


def _happiness_dynamic(img: Image.Image, box: Box, view: Mapping[str, Any], me: int) -> None:
    d = ImageDraw.Draw(img)
    for slot in view.get("bonus_slots") or ():
        tile = slot.get("tile")
        if not tile:
            continue
        for animal in slot.get("animals") or ():
            if animal in m.ANIMALS:
                c = _cell(box, m.ANIMALS.index(animal), int(slot.get("position", 0)))
                dr.paste(img, tiles.sprite(tile, 44, 40, TEXT), c[2] - 48, c[1] + 4)
    players = list(view.get("players") or [])
    for a, animal in enumerate(m.ANIMALS):
        stacks: dict[int, list[tuple[int, int]]] = {}
        for seat, p in enumerate(players):
            pos = max(0, min(m.MAX_POSITION, int((p.get("animals") or {}).get(animal, 0) or 0)))
            order = int((p.get("arrival") or {}).get(animal, 0) or 0)
            stacks.setdefault(pos, []).append((order, seat))
        for pos, stack in stacks.items():
            c = _cell(box, a, pos)
            for i, (_order, seat) in enumerate(sorted(stack)[:4]):
                size = 30
                x = c[0] + 8 + (i % 2) * (size + 6)
                y = c[1] + 34 + (i // 2) * (size + 1) + (0 if len(stack) > 2 else 14)
                disc = icons.seat_disc(seat, size, pal.GOLD if seat == me else None)
                dr.paste(img, disc, x, y)
            if me in (s for _, s in stack):
                d.rounded_rectangle(c, radius=8, outline=pal.GOLD, width=4)


# ---------------------------------------------------------------- dynamic parts


def _header(img: Image.Image, view: Mapping[str, Any], kind: str, player: str) -> None:
    seat = m.seat_of(view, player)
    rnd = int(view.get("round", 0) or 0)
    final = bool(view.get("final_round")) and rnd >= int(view.get("final_round") or 0)
    stage = vocab.round_name(0 if view.get("phase") == "setup" else rnd, final)
    right = tx.width(stage, TEXT)
    _text(img, (WIDTH - PAD - 4, 34), stage, TEXT, pal.GOLD_LIGHT, anchor="rm")
    x = PAD + 4
    if seat >= 0:
        dr.paste(img, icons.seat_disc(seat, 44), x, 12)
        x += 54
    _text(img, (x, 34), player, TITLE + 2, pal.CREAM, bold=True, anchor="lm", max_width=round(WIDTH - x - right - 40))
    room = WIDTH - 2 * PAD
    near = idle_warning(view, player)
    if near is not None:
        # The end against stalling is near: how many idle turns are left, beside the question.
        whose, left = near
        other = None if whose in (None, player) else tx.fit(vocab.seat_name(whose), TEXT, True, 260)
        badge = dr.pill(vocab.idle_left(left, other), TEXT, pal.VERMILION, pal.CREAM)
        dr.paste(img, badge, WIDTH - PAD - badge.width, 84 - badge.height / 2)
        room -= badge.width + 16
    _text(img, (PAD + 4, 84), vocab.question(kind), TEXT + 2, pal.CREAM, anchor="lm", max_width=room)


def _offer_dynamic(img: Image.Image, box: Box, view: Mapping[str, Any], prompt: Mapping[str, Any]) -> None:
    offer = list(view.get("offer") or [])[:4]
    buyable = {int(o["id"].split(":")[1]) for o in prompt.get("options") or () if o["id"].startswith("market:")}
    for i in range(4):
        x0, y0, x1, y1 = _offer_slot(box, i)
        tile = offer[i] if i < len(offer) else None
        if tile:
            if i in buyable and len(buyable) < len(offer):
                dr.paste_center(img, dr.glow(x1 - x0, y1 - y0, 10, width=5), (x0 + x1) / 2, (y0 + y1) / 2)
            dr.paste(img, tiles.sprite(tile, x1 - x0, y1 - y0, TEXT), x0, y0)
        else:
            _text(img, ((x0 + x1) / 2, (y0 + y1) / 2), _("empty"), TEXT, pal.INK_SOFT, anchor="mm")
    levels = sorted(int(o["id"].split(":")[1]) for o in prompt.get("options") or () if o["id"].startswith("quality:"))
    if levels:
        text = vocab.quality_offer(levels)
        _text(img, (box[2] - 16, box[1] + 12), text, TEXT, pal.INK, anchor="ra", max_width=box[2] - box[0] - 160)


def _reserve_dynamic(img: Image.Image, box: Box, player: Mapping[str, Any]) -> None:
    x0, y0, x1, _unused = box
    _text(img, (x0 + 16, y0 + 12), _("Tiles to place"), TITLE, pal.INK, bold=True)
    entries = list(player.get("reserve") or [])
    if not entries:
        _text(img, (x0 + 16, y0 + 110), _("none"), TEXT, pal.INK_SOFT, anchor="lm")
        return
    w, h = 150, 120
    fit = max(1, (x1 - x0 - 32 + 16) // (w + 16))
    for i, entry in enumerate(entries[:fit]):
        tile = entry.get("tile") if isinstance(entry.get("tile"), Mapping) else entry
        tx0 = x0 + 16 + i * (w + 16)
        dr.paste(img, tiles.sprite(tile, w, h, TEXT), tx0, y0 + 60)
        track = entry.get("track")
        where = vocab.kokeshi(track) if track in m.KOKESHI else pgettext("under a tile", "any track")
        _text(img, (tx0 + w / 2, y0 + 60 + h + 6), where, TEXT, pal.INK, anchor="ma", max_width=w + 12)
    if len(entries) > fit:
        _text(img, (x1 - 16, y0 + 12), f"+{len(entries) - fit}", TEXT, pal.INK, bold=True, anchor="ra")


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


def _workshop_dynamic(
    img: Image.Image, g: bd.Workshop, player: Mapping[str, Any], marked: set[int], active: str | None = None
) -> None:
    d = ImageDraw.Draw(img)
    tracks = player.get("tracks") or {}
    heights = player.get("kokeshi") or {}
    for k, kokeshi in enumerate(m.KOKESHI):
        for i, tile in enumerate((tracks.get(kokeshi) or [])[: m.HEIGHTS]):
            if tile:
                x0, y0, x1, y1 = g.tile_box(k, i + 1)
                if active is not None and tile.get("id") == active:
                    dr.paste_center(img, dr.glow(x1 - x0, y1 - y0, 10, width=6), (x0 + x1) / 2, (y0 + y1) / 2)
                dr.paste(img, tiles.sprite(tile, x1 - x0, y1 - y0, TEXT), x0, y0)
    if not player.get("automa"):
        for (ka, ha), (kb, hb) in bd.same_colour_pairs(player):
            ax0, ay0, ax1, ay1 = g.tile_box(ka, ha)
            bx0, _, _, by1 = g.tile_box(kb, hb)
            if ka == kb:
                cx, cy = (ax0 + ax1) / 2, (ay0 + by1) / 2
                d.rounded_rectangle((cx - 22, cy - 5, cx + 22, cy + 5), radius=3, fill=pal.VERMILION, outline=pal.CREAM)
            else:
                cx, cy = (ax1 + bx0) / 2, (ay0 + ay1) / 2
                d.rounded_rectangle((cx - 5, cy - 22, cx + 5, cy + 22), radius=3, fill=pal.VERMILION, outline=pal.CREAM)
    if marked and len(marked) < len(m.KOKESHI):  # all tracks marked would say nothing
        # A gold frame around each track the choice can touch; a frame, not a wash, so colours stay true.
        for k in marked:
            x0, y0, x1, y1 = g.track_box(k)
            d.rounded_rectangle((x0 - 4, y0 - 4, x1 + 3, y1 + 4), radius=10, outline=pal.GOLD, width=6)
    for k, kokeshi in enumerate(m.KOKESHI):
        h = max(0, min(m.HEIGHTS, int(heights.get(kokeshi, 0) or 0)))
        lx0, _, lx1, ly1 = g.lane_box(k, h)
        figure = icons.kokeshi(kokeshi, 38)
        dr.paste(img, figure, (lx0 + lx1 - figure.width) / 2, ly1 - figure.height + 2)


def _scores(img: Image.Image, box: Box, view: Mapping[str, Any], me: int) -> None:
    d = ImageDraw.Draw(img)
    x0, y0, x1, _unused = box
    _text(img, (x0 + 16, y0 + 10), _("Scores"), TITLE, pal.INK, bold=True)
    for seat, p in enumerate(list(view.get("players") or [])[:4]):
        y = y0 + 52 + seat * SCORE_ROW
        if seat == me:
            d.rounded_rectangle((x0 + 8, y, x1 - 8, y + SCORE_ROW - 4), radius=10, fill=pal.shade(pal.GOLD_LIGHT, 1.3))
        dr.paste(img, icons.seat_disc(seat, 40), x0 + 16, y + (SCORE_ROW - 4 - 40) / 2)
        total = int((p.get("score") or {}).get("total", 0) or 0)
        pts = dr.pill(vocab.points(total), TEXT, pal.WOOD_DARK, pal.CREAM, min_w=120)
        dr.paste(img, pts, x1 - 16 - pts.width, y + (SCORE_ROW - 4 - pts.height) / 2)
        star = icons.star(32)
        rec = str(int(p.get("recognitions", 0) or 0))
        sx = x1 - 16 - pts.width - 24 - round(tx.width(rec, TEXT, True)) - star.width - 6
        dr.paste(img, star, sx, y + (SCORE_ROW - 4 - star.height) / 2)
        _text(img, (sx + star.width + 6, y + (SCORE_ROW - 4) / 2), rec, TEXT, pal.INK, bold=True, anchor="lm")
        name = vocab.seat_name(p.get("name", ""))
        tx.draw(
            d,
            (x0 + 68, y + (SCORE_ROW - 4) / 2),
            name,
            TEXT,
            pal.INK,
            bold=True,
            anchor="lm",
            max_width=sx - x0 - 68 - 12,
        )


# ---------------------------------------------------------------- the picture


def _prompt_dict(prompt: Any) -> dict[str, Any]:
    if prompt is None:
        return {}
    if isinstance(prompt, Mapping):
        return dict(prompt)
    return {
        "player": prompt.player,
        "kind": prompt.kind,
        "options": [{"id": o.id, "label": o.label} for o in prompt.options],
    }


def _activated(events: Sequence[Any], name: str) -> str | None:
    """The id of the tile `name` is choosing a side of: the last one their kokeshi activated."""
    for event in reversed(list(events)):
        kind, player, data = m._as_triplet(event)
        if kind == "tile_activated" and player == name:
            return str(data.get("tile", "")) or None
    return None


def draw_turn(
    view: Mapping[str, Any], prompt: Any = None, player: str | None = None, events: Sequence[Any] = ()
) -> Image.Image:
    """The phone picture of one decision. `prompt` is an engine Prompt or the view's prompt dict (default: the
    view's); `player` whose workshop to show (default: the one deciding); `events` since the last picture (engine
    Events or their dicts) let an effect choice show the tile being activated."""
    p = _prompt_dict(prompt if prompt is not None else view.get("prompt"))
    players = list(view.get("players") or [])
    name = player or p.get("player") or view.get("current") or (players[0].get("name") if players else "")
    kind = str(p.get("kind") or "advance")
    kind = kind if kind in KINDS else "advance"
    seat = m.seat_of(view, name)
    g = PhoneLayout(kind, max(1, min(4, len(players))))
    img = _static(kind, g.seats, str(view.get("side", "basic")), current()).copy()
    _header(img, view, kind, str(name))
    me = players[seat] if seat >= 0 else {}
    if g.panel == _OFFER:
        _offer_dynamic(img, g.panel_box, view, p)
    elif g.panel == _RESERVE:
        _reserve_dynamic(img, g.panel_box, me)
    elif g.panel == _HAPPINESS:
        _happiness_dynamic(img, g.panel_box, view, seat)
    marked = _tracks_in_play(p) if kind in ("place", "setup", "kokeshi") else set()
    _workshop_title(img, g.workshop_box, str(name))
    active = _activated(events, str(name)) if kind == "effect" else None
    _workshop_dynamic(img, g.workshop, me, marked, active)
    _scores(img, g.scores_box, view, seat)
    return img


def _workshop_title(img: Image.Image, box: Box, name: str) -> None:
    text = _("{name}'s workshop").format(name=tx.fit(vocab.seat_name(name), TITLE, True, 560))
    _text(img, (box[0] + 16, box[1] + 10), text, TITLE, pal.INK, bold=True)
