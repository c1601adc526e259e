"""The pieces of a picture: workshop boards, the happiness board, the offer, the reserve and the score table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

import games.kokeshi.vocab as vocab
from i18n import _, pgettext
from render import draw as dr
from render import text as tx
from render.draw import Box

from . import icons, tiles
from . import model as m
from . import palette as pal

# ---------------------------------------------------------------- workshop boards


@dataclass(frozen=True)
class Workshop:
    """Where everything of one workshop board goes. Tracks are columns, home (height 0) at the bottom."""

    x: int
    y: int
    tile_w: int
    tile_h: int
    lane: int  # the groove right of each track where its kokeshi stands
    gap: int = 4
    axis: int = 0  # left margin for heights, thresholds and track values; 0 on small boards
    header: int = 0  # room above the tracks for kokeshi names; 0 on small boards

    @property
    def big(self) -> bool:
        return self.tile_h >= tiles.FULL_MIN_HEIGHT

    @property
    def col_w(self) -> int:
        return self.tile_w + self.lane + self.gap

    @property
    def row_h(self) -> int:
        return self.tile_h + self.gap

    @property
    def width(self) -> int:
        return self.axis + len(m.KOKESHI) * self.col_w + 8

    @property
    def height(self) -> int:
        return self.header + (m.HEIGHTS + 1) * self.row_h + 8

    def tile_box(self, k: int, h: int) -> Box:
        """The space of track `k` at height `h` (0 = home)."""
        x = self.x + self.axis + 4 + k * self.col_w
        y = self.y + self.header + 4 + (m.HEIGHTS - h) * self.row_h
        return (x, y, x + self.tile_w, y + self.tile_h)

    def lane_box(self, k: int, h: int) -> Box:
        """The groove beside the space of track `k` at height `h`, where the kokeshi stands."""
        x0, y0, x1, y1 = self.tile_box(k, h)
        return (x1 + 1, y0, x1 + self.lane - 1, y1)

    def track_box(self, k: int) -> Box:
        """The whole column of track `k`, tiles and lane, home to top."""
        x0, y0, _, _ = self.tile_box(k, m.HEIGHTS)
        _, _, _, y1 = self.tile_box(k, 0)
        return (x0, y0, x0 + self.tile_w + self.lane, y1)

    @property
    def box(self) -> Box:
        return (self.x, self.y, self.x + self.width, self.y + self.height)


def workshop_ground(d: ImageDraw.ImageDraw, g: Workshop, k: int, *, slot_radius: int) -> Box:
    """Track `k` of a workshop board as no game changes it, at any size: its empty spaces, its lane, and its home
    space in the kokeshi's own colour (it counts for same-colour pairs). Returns the home space's box."""
    color = m.KOKESHI_COLOR[m.KOKESHI[k]]
    for h in range(1, m.HEIGHTS + 1):
        d.rounded_rectangle(g.tile_box(k, h), radius=slot_radius, fill=pal.SLOT, outline=pal.SLOT_EDGE, width=1)
    lx0, ly0, lx1, _ = g.lane_box(k, m.HEIGHTS)
    _, _, _, ly1 = g.lane_box(k, 0)
    d.rounded_rectangle((lx0 + 2, ly0, lx1 - 2, ly1), radius=4, fill=pal.shade(pal.WOOD_LIGHT, 0.93))
    home = g.tile_box(k, 0)
    d.rounded_rectangle(home, radius=8, fill=pal.shade(pal.TILE[color], 1.35), outline=pal.TILE_DARK[color], width=2)
    return home


def workshop_wood(d: ImageDraw.ImageDraw, g: Workshop, threshold: tuple[int, int]) -> None:
    """A workshop board's wood, and a band across it at every height where a quality level or track points begin
    (`threshold`: how far the band reaches above and below the spaces of that height)."""
    x0, y0 = g.x + g.axis, g.y + g.header
    x1, y1 = g.x + g.width, g.y + g.height
    d.rounded_rectangle((x0 - 2, y0 - 2, x1, y1), radius=10, fill=pal.WOOD, outline=pal.shade(pal.WOOD, 0.7), width=2)
    d.rounded_rectangle((x0 + 1, y0 + 1, x1 - 3, y1 - 3), radius=8, fill=pal.WOOD_LIGHT)
    above, below = threshold
    for h in sorted(set(m.LEVEL_AT) | set(m.TRACK_POINTS)):
        bx0, by0, _, by1 = g.tile_box(0, h)
        d.rectangle((bx0 - 3, by0 - above, x1 - 5, by1 + below), fill=pal.THRESHOLD)


def workshop_static(img: Image.Image, g: Workshop) -> None:
    """Everything of a workshop board that no game changes: wood, spaces, homes, thresholds, labels."""
    d = ImageDraw.Draw(img)
    workshop_wood(d, g, (2, 1))
    for k, kokeshi in enumerate(m.KOKESHI):
        color = m.KOKESHI_COLOR[kokeshi]
        hx0, hy0, hx1, hy1 = workshop_ground(d, g, k, slot_radius=7)
        # The home space's letter (and on a big board the kokeshi's head).
        if g.big:
            head = icons.kokeshi_head(kokeshi, min(g.tile_h - 16, 46))
            dr.paste_center(img, head, (hx0 + hx1) / 2 + 10, (hy0 + hy1) / 2)
            tx.draw(d, (hx0 + 8, hy0 + 5), pal.LETTER[color], tx.MIN_SIZE, pal.TILE_DARK[color], bold=True)
        else:
            tx.draw(
                d,
                ((hx0 + hx1) / 2, (hy0 + hy1) / 2),
                pal.LETTER[color],
                tx.MIN_SIZE,
                pal.TILE_DARK[color],
                bold=True,
                anchor="mm",
            )
        if g.header:
            size = 16 if g.tile_w >= 90 else 15
            tx.draw(
                d,
                ((hx0 + hx1) / 2 + g.lane / 2, g.y + g.header / 2),
                m.KOKESHI_LABEL[kokeshi],
                size,
                pal.INK,
                bold=True,
                anchor="mm",
            )
    if g.axis:
        _axis(img, d, g)


def _axis(img: Image.Image, d: ImageDraw.ImageDraw, g: Workshop) -> None:
    """Heights, and at each threshold the quality level (stars) and the track value (points)."""
    for h in range(1, m.HEIGHTS + 1):
        _, y0, _, y1 = g.tile_box(0, h)
        tx.draw(d, (g.x + g.axis - 6, (y0 + y1) / 2), str(h), tx.MIN_SIZE, pal.INK_SOFT, anchor="rm")
        room = g.axis - 22  # left of the height number
        level = m.LEVEL_AT.get(h, 0)
        if level:
            star = icons.star(12)
            sx = g.x + 2 + (room - level * 11) / 2
            for i in range(level):
                dr.paste(img, star, sx + i * 11, y0 + 8)
        if h in m.TRACK_POINTS:
            tag = dr.pill(f"+{m.TRACK_POINTS[h]}", tx.MIN_SIZE, pal.WOOD_DARK, pal.CREAM)
            dr.paste(img, tag, g.x + 2 + (room - tag.width) / 2, y1 - tag.height - 8)


def same_colour_pairs(player: Mapping[str, Any]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Orthogonal same-colour neighbours, home spaces included, as the engine counts them."""
    tracks = player.get("tracks") or {}

    def color_at(k: int, h: int) -> str | None:
        if h == 0:
            return m.KOKESHI_COLOR[m.KOKESHI[k]]
        column = tracks.get(m.KOKESHI[k]) or []
        return column[h - 1].get("color") if h <= len(column) and column[h - 1] else None

    pairs = []
    for k in range(len(m.KOKESHI)):
        column = tracks.get(m.KOKESHI[k]) or []
        for h in range(1, min(len(column), m.HEIGHTS) + 1):
            c = color_at(k, h)
            if c is None:
                continue
            if color_at(k, h - 1) == c:
                pairs.append(((k, h - 1), (k, h)))
            if k + 1 < len(m.KOKESHI) and color_at(k + 1, h) == c:
                pairs.append(((k, h), (k + 1, h)))
    return pairs


def workshop_dynamic(img: Image.Image, g: Workshop, player: Mapping[str, Any], hl: m.Highlights) -> None:
    """A player's tiles, kokeshi, pairs and this turn's changes on a board drawn by `workshop_static`."""
    name = player.get("name", "")
    tracks = player.get("tracks") or {}
    heights = player.get("kokeshi") or {}
    # Changes go under the pieces so the pieces stay readable.
    for k, kokeshi in enumerate(m.KOKESHI):
        moved = hl.moved.get((name, kokeshi))
        if moved:
            _trail(img, g, k, moved)
    for k, kokeshi in enumerate(m.KOKESHI):
        for i, tile in enumerate((tracks.get(kokeshi) or [])[: m.HEIGHTS]):
            if not tile:
                continue
            x0, y0, x1, y1 = g.tile_box(k, i + 1)
            if tile.get("id") in hl.tiles:
                frame = dr.glow(x1 - x0, y1 - y0, 8, width=4 if g.big else 3)
                dr.paste_center(img, frame, (x0 + x1) / 2, (y0 + y1) / 2)
            dr.paste(img, tiles.sprite(tile, x1 - x0, y1 - y0), x0, y0)
    if not player.get("automa"):
        # The automa never pays for pairs (its adjacent_pairs is always 0), so marking them would mislead.
        _pairs(img, g, player)
    for k, kokeshi in enumerate(m.KOKESHI):
        h = max(0, min(m.HEIGHTS, int(heights.get(kokeshi, 0) or 0)))
        lx0, _, lx1, ly1 = g.lane_box(k, h)
        fig_w = min(lx1 - lx0 + (4 if g.big else 2), (g.tile_h - (14 if g.big else 4)) // 2)
        figure = icons.kokeshi(kokeshi, fig_w)
        dr.paste(img, figure, (lx0 + lx1 - figure.width) / 2, ly1 - figure.height + 2)
        points = hl.top.get((name, kokeshi))
        if points:
            tx0, ty0, tx1, _ = g.track_box(k)
            b = dr.burst(f"+{points}", 40 if g.big else 32)
            dr.paste_center(img, b, (tx0 + tx1) / 2, ty0 + b.height / 2 - 2)


def _trail(img: Image.Image, g: Workshop, k: int, moved: tuple[int, int]) -> None:
    start, to = moved
    lo, hi = sorted((max(0, min(m.HEIGHTS, start)), max(0, min(m.HEIGHTS, to))))
    lx0, ly0, lx1, _ = g.lane_box(k, hi)
    _, _, _, ly1 = g.lane_box(k, lo)
    frame = dr.glow(lx1 - lx0 + 2, ly1 - ly0, 6, width=3)
    dr.paste(img, frame, lx0 - 1 - 5, ly0 - 5)


def _pairs(img: Image.Image, g: Workshop, player: Mapping[str, Any]) -> None:
    """A vermilion '−3' on the edge between two same-colour neighbours (a bar on small boards)."""
    d = ImageDraw.Draw(img)
    for (ka, ha), (kb, hb) in same_colour_pairs(player):
        ax0, ay0, ax1, ay1 = g.tile_box(ka, ha)
        bx0, by0, bx1, by1 = g.tile_box(kb, hb)
        if ka == kb:  # one above the other: the shared edge is horizontal
            cx, cy = (ax0 + ax1) / 2, (ay0 + by1) / 2
            vertical = False
        else:
            # High in the lane, above the head of a kokeshi standing there.
            cx, cy = (ax1 + bx0) / 2, ay0 + (5 if g.big else 7)
            vertical = True
        if g.big:
            dr.paste_center(img, dr.pill(m.PAIR_LABEL, tx.MIN_SIZE, pal.VERMILION, pal.CREAM), cx, cy)
        elif vertical:
            d.rounded_rectangle((cx - 3, cy - 7, cx + 3, cy + 7), radius=2, fill=pal.VERMILION, outline=pal.CREAM)
        else:
            d.rounded_rectangle((cx - 8, cy - 3, cx + 8, cy + 3), radius=2, fill=pal.VERMILION, outline=pal.CREAM)


# ---------------------------------------------------------------- the happiness board


@dataclass(frozen=True)
class Happiness:
    """Geometry of the happiness board: one row per animal, one column per position 0..7."""

    x: int
    y: int
    cell_w: int = 104
    cell_h: int = 76
    label_w: int = 84

    @property
    def width(self) -> int:
        return self.label_w + (m.MAX_POSITION + 1) * self.cell_w

    @property
    def height(self) -> int:
        return len(m.ANIMALS) * self.cell_h

    @property
    def box(self) -> Box:
        return (self.x, self.y, self.x + self.width, self.y + self.height)

    def cell(self, a: int, pos: int) -> Box:
        """The space of animal row `a` at position `pos`."""
        x = self.x + self.label_w + pos * self.cell_w
        y = self.y + a * self.cell_h
        return (x, y, x + self.cell_w, y + self.cell_h)

    def slot_box(self, slot: Mapping[str, Any]) -> Box:
        """Where a bonus slot's tile lies: the right of its cell, across the rows it covers."""
        rows = [m.ANIMALS.index(a) for a in slot.get("animals", ()) if a in m.ANIMALS] or [0]
        pos = max(0, min(m.MAX_POSITION, int(slot.get("position", 0))))
        top = self.cell(min(rows), pos)
        bottom = self.cell(max(rows), pos)
        s = self.slot_size
        cy = (top[1] + bottom[3]) / 2
        x1 = top[2] - 5
        return (round(x1 - s), round(cy - s / 2), round(x1), round(cy + s / 2))

    @property
    def slot_size(self) -> int:
        return min(self.cell_w // 2 - 12, self.cell_h // 2 - 2)

    def disc_spot(self, a: int, pos: int, i: int) -> tuple[float, float]:
        """Centre of the i-th disc (in arrival order) on a space: a 2 x 2 stack at the left of the cell."""
        x0, y0, _, y1 = self.cell(a, pos)
        s = self.disc_size
        col, row = i % 2, (i // 2) % 2
        return (x0 + 6 + s / 2 + col * (s + 2), y1 - 3 - s / 2 - (1 - row) * (s + 2))

    @property
    def disc_size(self) -> int:
        """Discs fit two rows high under the printed value."""
        return min(28, (self.cell_h - 28) // 2)


def happiness_static(img: Image.Image, g: Happiness, side: str, slots: Sequence[Mapping[str, Any]]) -> None:
    """Rows, the printed values of this side, the red line, the animals and the bonus slot places."""
    d = ImageDraw.Draw(img)
    values = m.animal_points(side)
    d.rounded_rectangle(
        (g.x - 4, g.y - 4, g.x + g.width + 4, g.y + g.height + 4),
        radius=10,
        fill=pal.WOOD,
        outline=pal.shade(pal.WOOD, 0.7),
        width=2,
    )
    for a, animal in enumerate(m.ANIMALS):
        tint = pal.shade(pal.ANIMAL_TINT[animal], 0.97)
        _, y0, _, y1 = g.cell(a, 0)
        d.rounded_rectangle((g.x, y0 + 2, g.x + g.label_w - 4, y1 - 2), radius=8, fill=pal.PAPER)
        icon = icons.animal(animal, min(44, g.cell_h - 28))
        dr.paste_center(img, icon, g.x + (g.label_w - 4) / 2, y0 + 4 + icon.height / 2)
        tx.draw(
            d, (g.x + (g.label_w - 4) / 2, y1 - 6), m.ANIMAL_LABEL[animal], tx.MIN_SIZE, pal.INK, bold=True, anchor="md"
        )
        for pos in range(m.MAX_POSITION + 1):
            x0, cy0, x1, cy1 = g.cell(a, pos)
            fill = pal.shade(tint, 1.0 if (pos + a) % 2 else 0.95)
            if pos > m.RED_LINE - 1:
                fill = pal.shade(fill, 0.97)
            d.rectangle((x0 + 1, cy0 + 2, x1 - 1, cy1 - 2), fill=fill)
            value = values[animal][pos] if pos < len(values[animal]) else 0
            tx.draw(d, (x0 + 6, cy0 + 2), str(value), 16, pal.INK, bold=True)
    # The red line between positions RED_LINE - 1 and RED_LINE: thick, with end notches, visible in grey too.
    x = g.cell(0, m.RED_LINE)[0]
    d.rectangle((x - 3, g.y - 4, x + 3, g.y + g.height + 4), fill=pal.VERMILION)
    for y in (g.y - 4, g.y + g.height + 4):
        d.polygon([(x - 9, y), (x + 9, y), (x, y + (8 if y < g.y else -8))], fill=pal.VERMILION)
    for slot in slots:
        bx0, by0, bx1, by1 = g.slot_box(slot)
        d.rounded_rectangle((bx0 - 3, by0 - 3, bx1 + 3, by1 + 3), radius=6, fill=pal.shade(pal.WOOD_LIGHT, 0.95))
        dr.dashed_rect(d, (bx0 - 3, by0 - 3, bx1 + 3, by1 + 3), pal.SLOT_EDGE, 2, 4)


def happiness_dynamic(img: Image.Image, g: Happiness, view: Mapping[str, Any], hl: m.Highlights) -> None:
    """Bonus tiles still in their slots, every disc stacked in arrival order, leads and this turn's moves."""
    d = ImageDraw.Draw(img)
    for slot in view.get("bonus_slots") or ():
        bx0, by0, bx1, by1 = g.slot_box(slot)
        tile = slot.get("tile")
        if tile:
            dr.paste(img, tiles.sprite(tile, bx1 - bx0, by1 - by0), bx0, by1 - (by1 - by0))
        elif slot.get("id") in hl.bonus:
            frame = dr.glow(bx1 - bx0, by1 - by0, 6, width=3)
            dr.paste_center(img, frame, (bx0 + bx1) / 2, (by0 + by1) / 2)
    players = view.get("players") or []
    s = g.disc_size
    crown = icons.crown(16)
    for a, animal in enumerate(m.ANIMALS):
        by_pos: dict[int, list[tuple[int, int]]] = {}
        for seat, p in enumerate(players):
            pos = max(0, min(m.MAX_POSITION, int((p.get("animals") or {}).get(animal, 0) or 0)))
            stamp = int((p.get("arrival") or {}).get(animal, 0) or 0)
            by_pos.setdefault(pos, []).append((stamp, seat))
        # Every disc's spot first, so that trails go under all discs and crowns over them.
        spots = []
        for pos, stack in by_pos.items():
            stack.sort()
            for i, (_order, seat) in enumerate(stack[:4]):
                spots.append((seat, pos, g.disc_spot(a, pos, i)))
        for seat, pos, (cx, cy) in spots:
            moved = hl.discs.get((players[seat].get("name"), animal))
            start = max(0, min(m.MAX_POSITION, moved[0])) if moved else pos
            if start != pos:
                sx, _ = g.disc_spot(a, start, 0)
                d.line((sx, cy, cx - s / 2, cy), fill=pal.GOLD, width=4)
                d.ellipse((sx - 5, cy - 5, sx + 5, cy + 5), fill=pal.GOLD)
        for seat, _, (cx, cy) in spots:
            lit = (players[seat].get("name"), animal) in hl.discs
            disc = icons.seat_disc(seat, s + (6 if lit else 0), pal.GOLD if lit else None)
            dr.paste_center(img, disc, cx, cy)
        for seat, _, (cx, cy) in spots:
            if animal in (players[seat].get("leads") or ()):
                # Worn on the top of the disc, clear of the neighbour disc and of the printed value.
                dr.paste(img, crown, cx + s / 2 - 13, cy - s / 2 - 10)


# ---------------------------------------------------------------- offer, bag and quality supply


@dataclass(frozen=True)
class Market:
    """The offer row: four slots, the bag and the quality tiles left."""

    x: int
    y: int
    tile_w: int = 80
    tile_h: int = 70

    def slot_box(self, i: int) -> Box:
        """Where offer slot `i` (0..3) shows its tile."""
        x = self.x + i * (self.tile_w + 14)
        return (x, self.y + 24, x + self.tile_w, self.y + 24 + self.tile_h)

    @property
    def bag_xy(self) -> tuple[int, int]:
        return (self.slot_box(3)[2] + 34, self.y + 24)

    @property
    def quality_x(self) -> int:
        return self.bag_xy[0] + 124

    quality_step = 68  # width of one kokeshi's group of quality levels


def market_static(img: Image.Image, g: Market) -> None:
    """Labels, the four offer places with their numbers, the bag and the kokeshi heads of the quality supply."""
    d = ImageDraw.Draw(img)
    tx.draw(d, (g.x, g.y), _("Offer"), 16, pal.INK, bold=True)
    for i in range(4):
        x0, y0, x1, y1 = g.slot_box(i)
        d.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=9, fill=pal.SLOT, outline=pal.SLOT_EDGE)
        tx.draw(d, ((x0 + x1) / 2, y1 + 4), str(i + 1), tx.MIN_SIZE, pal.INK_SOFT, anchor="ma")
    bx, by = g.bag_xy
    dr.paste(img, icons.bag(58), bx, by)
    tx.draw(d, (bx, g.y), _("Bag"), 16, pal.INK, bold=True)
    tx.draw(d, (g.quality_x, g.y), _("Quality tiles left"), 16, pal.INK, bold=True)
    for k, kokeshi in enumerate(m.KOKESHI):
        x = g.quality_x + k * g.quality_step
        head = icons.kokeshi_head(kokeshi, 30)
        dr.paste(img, head, x + (g.quality_step - 8 - head.width) / 2, g.y + 24)


def market_dynamic(img: Image.Image, g: Market, view: Mapping[str, Any], hl: m.Highlights) -> None:
    """The offer tiles (or 'empty'), the bag count and which quality levels each kokeshi has left."""
    d = ImageDraw.Draw(img)
    offer = list(view.get("offer") or [])[:4]
    for i in range(4):
        x0, y0, x1, y1 = g.slot_box(i)
        tile = offer[i] if i < len(offer) else None
        if i in hl.offer:
            dr.paste_center(img, dr.glow(x1 - x0, y1 - y0, 8), (x0 + x1) / 2, (y0 + y1) / 2)
        if tile:
            dr.paste(img, tiles.sprite(tile, x1 - x0, y1 - y0), x0, y0)
        else:
            tx.draw(d, ((x0 + x1) / 2, (y0 + y1) / 2), _("empty"), tx.MIN_SIZE, pal.INK_SOFT, anchor="mm")
    bx, by = g.bag_xy
    tx.draw(d, (bx + 64, by + 30), str(int(view.get("bag", 0) or 0)), 24, pal.INK, bold=True, anchor="lm")
    supply = view.get("quality_supply") or {}
    for k, kokeshi in enumerate(m.KOKESHI):
        x = g.quality_x + k * g.quality_step
        color = m.KOKESHI_COLOR[kokeshi]
        levels = set(supply.get(kokeshi) or ())
        for j, level in enumerate((1, 2, 3)):
            cy = g.y + 70
            cx = x + 10 + j * 20
            if level in levels:
                d.ellipse(
                    (cx - 10, cy - 10, cx + 10, cy + 10), fill=pal.TILE[color], outline=pal.TILE_DARK[color], width=1
                )
                tx.draw(d, (cx, cy), str(level), tx.MIN_SIZE, pal.INK, bold=True, anchor="mm")
            else:
                d.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), outline=pal.SLOT_EDGE, width=1)


# ---------------------------------------------------------------- reserve and players


def reserve(
    img: Image.Image,
    x: int,
    y: int,
    width: int,
    entries: Sequence[Mapping[str, Any]],
    hl: m.Highlights,
    tile_w: int = 64,
    tile_h: int = 56,
) -> None:
    """Tiles waiting to be placed, each with the track it must go on ('any' for the side reserve)."""
    d = ImageDraw.Draw(img)
    if not entries:
        tx.draw(d, (x, y + tile_h / 2), _("empty"), tx.MIN_SIZE, pal.INK_SOFT, anchor="lm")
        return
    step = tile_w + 26
    fit = max(1, (width - 40) // step)
    shown = list(entries)[: fit if len(entries) > fit else len(entries)]
    for i, entry in enumerate(shown):
        x0 = x + i * step
        if entry.get("id") in hl.tiles:
            dr.paste_center(img, dr.glow(tile_w, tile_h, 8), x0 + tile_w / 2, y + tile_h / 2)
        dr.paste(img, tiles.sprite(entry, tile_w, tile_h), x0, y)
        track = entry.get("track")
        any_track = pgettext("under a tile", "any track")
        label = m.KOKESHI_LABEL.get(track, any_track) if track else any_track
        tx.draw(d, (x0 + tile_w / 2, y + tile_h + 3), label, tx.MIN_SIZE, pal.INK, anchor="ma", max_width=step - 4)
    if len(entries) > len(shown):
        tx.draw(
            d,
            (x + len(shown) * step, y + tile_h / 2),
            f"+{len(entries) - len(shown)}",
            18,
            pal.INK,
            bold=True,
            anchor="lm",
        )


def reserve_small(
    img: Image.Image, x: int, y: int, width: int, entries: Sequence[Mapping[str, Any]], hl: m.Highlights
) -> None:
    """A compact reserve for the small boards: the tiles only."""
    w, h = 30, 25
    fit = max(1, width // (w + 4))
    for i, entry in enumerate(list(entries)[:fit]):
        x0 = x + i * (w + 4)
        if entry.get("id") in hl.tiles:
            dr.paste_center(img, dr.glow(w, h, 5, width=2), x0 + w / 2, y + h / 2)
        dr.paste(img, tiles.sprite(entry, w, h), x0, y)


# The score table's columns: each item's key and its name in the current language.
SCORE_COLUMNS = vocab.Names(vocab.SCORE_ITEMS, vocab.score_heading)


def threshold_sample() -> Image.Image:
    """The axis marks of one threshold height (stars for the quality level, the track value), for legends."""
    level = m.LEVEL_AT.get(m.SAMPLE_HEIGHT, 0)
    tag = dr.pill(f"+{m.TRACK_POINTS.get(m.SAMPLE_HEIGHT, 0)}", tx.MIN_SIZE, pal.WOOD_DARK, pal.CREAM)
    img = Image.new("RGBA", (level * 11 + 4 + tag.width, 24), (0, 0, 0, 0))
    for i in range(level):
        dr.paste(img, icons.star(12), i * 11, 6)
    dr.paste(img, tag, level * 11 + 4, 0)
    return img


def legend(img: Image.Image, box: Box) -> None:
    """What the marks on the boards mean, one per line."""
    d = ImageDraw.Draw(img)
    x0, y0, x1, _unused = box
    tx.draw(d, (x0, y0), _("Marks"), 16, pal.INK, bold=True)
    h = m.SAMPLE_HEIGHT
    rows = [
        (tiles.split_sample(), _("choose one side / do both")),
        (dr.pill(m.PAIR_LABEL, tx.MIN_SIZE, pal.VERMILION, pal.CREAM), _("same-colour neighbours")),
        (
            threshold_sample(),
            _("height {height}: quality {level}, track {points}").format(
                height=h, level=m.LEVEL_AT.get(h, 0), points=m.TRACK_POINTS.get(h, 0)
            ),
        ),
        (dr.glow(26, 20, 5), _("changed during the last turn")),
        (dr.burst(f"+{m.TOP_POINTS}", 34), _("kokeshi passed the top")),
        (icons.crown(22), _("leads that animal (+{points})").format(points=m.LEAD_BONUS)),
        (icons.star(20), _("recognitions")),
    ]
    for i, (sprite, label) in enumerate(rows):
        y = y0 + 32 + i * 36
        dr.paste(img, sprite, x0 + (60 - sprite.width) / 2, y + (28 - sprite.height) / 2)
        tx.draw(d, (x0 + 68, y + 14), label, tx.MIN_SIZE, pal.INK, anchor="lm", max_width=x1 - x0 - 70)
