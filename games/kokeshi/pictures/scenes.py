"""The table picture: its layout, its cached static layer and the drawing of one turn on top."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

import games.kokeshi.vocab as vocab
from i18n import _, current
from render import draw as dr
from render import text as tx
from render.draw import Box

from . import boards as bd
from . import icons
from . import model as m
from . import palette as pal

TABLE_SIZE = (1600, 1000)
HEADER_H = 58
MARGIN = 12


@dataclass(frozen=True)
class TableLayout:
    """Boxes of every part of the table picture, for `n` seats."""

    n: int

    @property
    def focus_panel(self) -> Box:
        return (MARGIN, HEADER_H + 10, 636, TABLE_SIZE[1] - MARGIN)

    @property
    def focus_board(self) -> bd.Workshop:
        x0, y0, _, _ = self.focus_panel
        return bd.Workshop(x0 + 8, y0 + 46, tile_w=80, tile_h=70, lane=24, gap=4, axis=54, header=26)

    @property
    def reserve_box(self) -> Box:
        g = self.focus_board
        x0, _, x1, _ = self.focus_panel
        top = g.y + g.height + 6
        return (x0 + 8, top, x1 - 8, top + 80)

    @property
    def scores_box(self) -> Box:
        x0, _, x1, y1 = self.focus_panel
        top = self.reserve_box[3] + 6
        return (x0 + 8, top, x1 - 8, y1 - 8)

    @property
    def happiness_panel(self) -> Box:
        return (648, HEADER_H + 10, TABLE_SIZE[0] - MARGIN, HEADER_H + 10 + 356)

    @property
    def happiness(self) -> bd.Happiness:
        x0, y0, x1, _ = self.happiness_panel
        g = bd.Happiness(0, 0)
        return bd.Happiness(x0 + (x1 - x0 - g.width) // 2, y0 + 38)

    @property
    def market_panel(self) -> Box:
        y0 = self.happiness_panel[3] + 10
        return (648, y0, TABLE_SIZE[0] - MARGIN, y0 + 128)

    @property
    def market(self) -> bd.Market:
        x0, y0, _, _ = self.market_panel
        return bd.Market(x0 + 16, y0 + 10)

    @property
    def others_panel(self) -> Box:
        y0 = self.market_panel[3] + 10
        return (648, y0, TABLE_SIZE[0] - MARGIN, TABLE_SIZE[1] - MARGIN)

    def other_board(self, slot: int) -> bd.Workshop:
        """The small board in position `slot` (0..n-2) of the others' row."""
        x0, y0, x1, _ = self.others_panel
        size = {"tile_w": 42, "tile_h": 38, "lane": 14, "gap": 3}
        g = bd.Workshop(0, 0, **size)
        room = (x1 - x0) // 3
        x = x0 + slot * room + (room - g.width) // 2
        return bd.Workshop(x, y0 + 44, **size)

    @property
    def legend_box(self) -> Box | None:
        """The free third of the others' row with fewer than four seats: the marks are explained there."""
        if self.n >= 4:
            return None
        x0, y0, x1, y1 = self.others_panel
        room = (x1 - x0) // 3
        return (x0 + max(1, self.n - 1) * room + 16, y0 + 14, x1 - 14, y1 - 14)


def _header(img: Image.Image, view: Mapping[str, Any], width: int) -> None:
    d = ImageDraw.Draw(img)
    phase = view.get("phase")
    rnd = int(view.get("round", 0) or 0)
    side = str(view.get("side", "basic"))
    where = _("Setup") if phase == "setup" else _("Round {number}").format(number=rnd)
    side_name = _("advanced side") if side == "advanced" else _("basic side")
    if view.get("solo"):
        status = _("{round} \u00b7 {side} \u00b7 solo").format(round=where, side=side_name)
    else:
        status = _("{round} \u00b7 {side}").format(round=where, side=side_name)
    tx.draw(d, (MARGIN + 8, HEADER_H / 2), "KOKESHI", 26, pal.CREAM, bold=True, anchor="lm")
    tx.draw(d, (MARGIN + 160, HEADER_H / 2), status, 18, pal.GOLD_LIGHT, anchor="lm")
    x_right = width - MARGIN - 8
    current = view.get("current")
    seat = m.seat_of(view, current)
    if seat >= 0 and phase != "over":
        x = 560
        dr.paste(img, icons.seat_disc(seat, 30), x, (HEADER_H - 30) / 2)
        label = tx.fit(vocab.seat_name(current), 20, True, 300)
        tx.draw(d, (x + 40, HEADER_H / 2), label, 20, pal.CREAM, bold=True, anchor="lm")
        tx.draw(
            d, (x + 48 + tx.width(label, 20, True), HEADER_H / 2), _next_label(view), 18, pal.GOLD_LIGHT, anchor="lm"
        )
    if phase == "over":
        banner = dr.pill(_("GAME OVER"), 20, pal.VERMILION, pal.CREAM)
        dr.paste(img, banner, x_right - banner.width, (HEADER_H - banner.height) / 2)
    elif view.get("end_triggered"):
        last = view.get("final_round")
        if last and rnd >= last:
            label = _("FINAL ROUND {number}").format(number=last)
        else:
            label = _("END TRIGGERED \u2014 last round {number}").format(number=last)
        banner = dr.pill(label, 18, pal.VERMILION, pal.CREAM)
        dr.paste(img, banner, x_right - banner.width, (HEADER_H - banner.height) / 2)


def _next_label(view: Mapping[str, Any]) -> str:
    prompt = view.get("prompt") or {}
    kind = prompt.get("kind", "")
    return {
        "setup": _("places starting tiles"),
        "advance": _("advances a kokeshi"),
        "effect": _("chooses an effect"),
        "kokeshi": _("chooses a kokeshi"),
        "animal": _("chooses an animal"),
        "buy": _("buys a tile"),
        "place": _("places a tile"),
    }.get(kind, _("to play"))


def _player_title(
    img: Image.Image, view: Mapping[str, Any], seat: int, x: int, y: int, width: int, size: int, actor: str | None
) -> None:
    """Seat disc, name, a 'to play' or 'last turn' badge, recognitions and total score on one line."""
    d = ImageDraw.Draw(img)
    players = view.get("players") or []
    p = players[seat]
    disc = icons.seat_disc(seat, size + 8)
    dr.paste(img, disc, x, y)
    total = (p.get("score") or {}).get("total", 0)
    right = dr.pill(vocab.points(int(total)), max(size - 2, tx.MIN_SIZE), pal.WOOD_DARK, pal.CREAM)
    dr.paste(img, right, x + width - right.width, y + (disc.height - right.height) / 2)
    rec = int(p.get("recognitions", 0) or 0)
    star = icons.star(size)
    rec_x = x + width - right.width - 14 - star.width - round(tx.width(str(rec), size, True)) - 4
    dr.paste(img, star, rec_x, y + (disc.height - star.height) / 2)
    tx.draw(d, (rec_x + star.width + 3, y + disc.height / 2), str(rec), size, pal.INK, bold=True, anchor="lm")
    name_x = x + disc.width + 8
    badge = None
    if view.get("current") == p.get("name") and view.get("phase") != "over":
        badge = dr.pill(_("to play"), tx.MIN_SIZE, pal.GOLD, pal.INK)
    elif actor is not None and actor == p.get("name"):
        badge = dr.pill(_("last turn"), tx.MIN_SIZE, pal.GOLD_LIGHT, pal.INK)
    room = rec_x - name_x - 10
    name = vocab.seat_name(p.get("name", ""))
    # The name comes first: a badge that would cut it short is left out (the panel's highlights still show
    # what the last turn changed).
    label = tx.fit(name, size + 2, True, max(40, room - (badge.width + 8 if badge else 0)))
    if badge and label != name:
        badge = None
        label = tx.fit(name, size + 2, True, max(40, room))
    tx.draw(d, (name_x, y + disc.height / 2), label, size + 2, pal.INK, bold=True, anchor="lm")
    if badge:
        dr.paste(img, badge, name_x + tx.width(label, size + 2, True) + 8, y + (disc.height - badge.height) / 2)


def _scores(img: Image.Image, view: Mapping[str, Any], box: Box, highlight: int, gains: Mapping) -> None:
    """Every seat's score item by item; items scored this turn get a gold cell and their gain."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, _ = box
    players = view.get("players") or []
    col_w = 64
    name_w = x1 - x0 - col_w * len(bd.SCORE_COLUMNS)
    row_h = 25
    for j, label in enumerate(bd.SCORE_COLUMNS.values()):
        cx = x0 + name_w + j * col_w + col_w / 2
        tx.draw(d, (cx, y0 + 2), label, tx.MIN_SIZE, pal.INK_SOFT, anchor="ma")
    for i, p in enumerate(players[:4]):
        y = y0 + 22 + i * row_h
        if i == highlight:
            d.rounded_rectangle((x0, y, x1, y + row_h - 2), radius=6, fill=pal.shade(pal.GOLD_LIGHT, 1.3))
        dr.paste(img, icons.seat_disc(i, 20), x0 + 4, y + (row_h - 22) / 2)
        name = vocab.seat_name(p.get("name", ""))
        tx.draw(d, (x0 + 30, y + row_h / 2 - 1), name, 15, pal.INK, bold=True, anchor="lm", max_width=name_w - 36)
        score = p.get("score") or {}
        for j, key in enumerate(bd.SCORE_COLUMNS):
            cx = x0 + name_w + j * col_w + col_w / 2
            value = int(score.get(key, 0) or 0)
            ink = pal.VERMILION if value < 0 else pal.INK
            gain = gains.get((name, key))
            if gain:
                d.rounded_rectangle(
                    (cx - col_w / 2 + 2, y + 1, cx + col_w / 2 - 2, y + row_h - 3),
                    radius=5,
                    fill=pal.GOLD_LIGHT,
                    outline=pal.GOLD,
                )
                tx.draw(d, (cx - 4, y + row_h / 2 - 1), tx.number(value), 15, ink, bold=True, anchor="rm")
                tx.draw(
                    d,
                    (cx, y + row_h / 2 - 1),
                    tx.number(gain, sign=True),
                    tx.MIN_SIZE,
                    pal.GOOD if gain > 0 else pal.VERMILION,
                    bold=True,
                    anchor="lm",
                )
            else:
                tx.draw(
                    d,
                    (cx, y + row_h / 2 - 1),
                    tx.number(value),
                    16 if key == "total" else 15,
                    ink,
                    bold=key == "total",
                    anchor="mm",
                )


@lru_cache(maxsize=8)
def _table_static(n: int, side: str, slots_key: tuple, locale: str = "en") -> Image.Image:
    """The parts of a table picture that depend only on the seat count and the board side."""
    lay = TableLayout(n)
    img = Image.new("RGB", TABLE_SIZE, pal.BACKGROUND)
    d = ImageDraw.Draw(img)
    dr.wood(img, (0, 0, TABLE_SIZE[0], HEADER_H))
    for box in (lay.focus_panel, lay.happiness_panel, lay.market_panel, lay.others_panel):
        dr.panel(d, box)
    bd.workshop_static(img, lay.focus_board)
    x0, y0, _unused, _unused = lay.reserve_box
    tx.draw(d, (x0, y0), _("Reserve"), 15, pal.INK, bold=True)
    hx0, hy0, _unused, _unused = lay.happiness_panel
    tx.draw(d, (hx0 + 16, hy0 + 10), _("Happiness"), 18, pal.INK, bold=True)
    slots = [{"animals": list(a), "position": p} for a, p in slots_key]
    bd.happiness_static(img, lay.happiness, side, slots)
    bd.market_static(img, lay.market)
    for i in range(max(0, n - 1)):
        bd.workshop_static(img, lay.other_board(i))
    if lay.legend_box:
        bd.legend(img, lay.legend_box)
    return img


def _slots_key(view: Mapping[str, Any]) -> tuple:
    return tuple((tuple(s.get("animals") or ()), int(s.get("position", 0))) for s in view.get("bonus_slots") or ())


def draw_table(view: Mapping[str, Any], events: Sequence[Any] = (), focus: str | None = None) -> Image.Image:
    """The turn picture as an RGB image (see `render.table`)."""
    players = list(view.get("players") or [])[:4]
    n = max(1, len(players))
    hl = m.highlights(events)
    fi = min(m.focus_index(view, focus, hl), n - 1)
    lay = TableLayout(n)
    img = _table_static(n, str(view.get("side", "basic")), _slots_key(view), current()).copy()
    _header(img, view, TABLE_SIZE[0])
    if players:
        fx0, fy0, fx1, _unused = lay.focus_panel
        _player_title(img, view, fi, fx0 + 12, fy0 + 8, fx1 - fx0 - 24, 20, hl.actor)
        bd.workshop_dynamic(img, lay.focus_board, players[fi], hl)
        rx0, ry0, rx1, _unused = lay.reserve_box
        bd.reserve(img, rx0 + 80, ry0, rx1 - rx0 - 80, players[fi].get("reserve") or [], hl)
        _scores(img, view, lay.scores_box, fi, m.gains(view, hl))
    bd.happiness_dynamic(img, lay.happiness, view, hl)
    bd.market_dynamic(img, lay.market, view, hl)
    others = [i for i in range(n) if i != fi]
    for slot, seat in enumerate(others[:3]):
        g = lay.other_board(slot)
        _player_title(img, view, seat, g.x, g.y - 40, g.width, 15, hl.actor)
        bd.workshop_dynamic(img, g, players[seat], hl)
        entries = players[seat].get("reserve") or []
        if entries:
            ry = g.y + g.height + 8
            tx.draw(ImageDraw.Draw(img), (g.x, ry + 12), _("Reserve"), tx.MIN_SIZE, pal.INK, bold=True, anchor="lm")
            bd.reserve_small(img, g.x + 70, ry, g.width - 70, entries, hl)
    return img
