"""Picture speed: draw and encode times of the 4-player table and of the phone turn picture, from random games,
and the candidate encoders side by side on the same pictures."""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import struct
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import PIL  # noqa: E402
from isal import isal_zlib  # noqa: E402

import render  # noqa: E402
from bench.common import percentile, pin_to_one_core  # noqa: E402
from games.kokeshi import pictures as kokeshi_pictures  # noqa: E402
from games.kokeshi.engine import RandomPolicy, new_game  # noqa: E402
from games.kokeshi.engine.preview import preview_all  # noqa: E402

PLAYERS = ["Aiko", "Botan", "Chiyo", "Daiki"]
GOAL_TABLE_MS = 25.0  # table picture, draw + encode, median
GOAL_PHONE_MS = 15.0  # phone picture, draw + encode, median
KINDS = ("setup", "advance", "effect", "kokeshi", "animal", "buy", "place")


def views(count: int, seed: int) -> list[tuple[dict, list]]:
    """`count` mid-game 4-player views, each with the events of its last turn, from seeded random games."""
    out = []
    for i in range(count):
        game = new_game(PLAYERS, seed=seed + i, side="advanced" if i % 2 else "basic")
        policies = {n: RandomPolicy(seed + i) for n in game.names}
        turns = 8 + (i * 7) % 36  # spread over the game, from early to the last rounds
        done, current, last = 0, [], []
        while game.prompt is not None and done < turns:
            events = game.apply(game.prompt.player, policies[game.prompt.player].choose(game))
            current.extend(events)
            if any(e.kind == "turn_ended" for e in events):
                done, last, current = done + 1, current, []
        out.append((game.view(), last))
    return out


def phone_views(count: int, seed: int) -> list[tuple[dict, dict]]:
    """`count` views waiting on a decision, every decision kind in turn, from seeded random 4-player games, each with
    the preview of every choice that the picture marks."""
    out: list[tuple[dict, dict]] = []
    i = 0
    while len(out) < count:
        game = new_game(PLAYERS, seed=seed + i, side="advanced" if i % 2 else "basic")
        policies = {n: RandomPolicy(seed + i) for n in game.names}
        step = 0
        while game.prompt is not None and len(out) < count:
            wanted = KINDS[len(out) % len(KINDS)]
            if game.prompt.kind == wanted and step % 3 == 0:
                out.append((game.view(), preview_all(game)))
            game.apply(game.prompt.player, policies[game.prompt.player].choose(game))
            step += 1
        i += 1
    return out


def preview_games(count: int, seed: int) -> list:
    """`count` games waiting on a decision, every kind in turn, for timing the previews themselves."""
    out = []
    i = 0
    while len(out) < count:
        game = new_game(PLAYERS, seed=seed + i, side="advanced" if i % 2 else "basic")
        policies = {n: RandomPolicy(seed + i) for n in game.names}
        step = 0
        while game.prompt is not None and len(out) < count:
            if game.prompt.kind == KINDS[len(out) % len(KINDS)] and step % 3 == 0:
                out.append(game.clone())
            game.apply(game.prompt.player, policies[game.prompt.player].choose(game))
            step += 1
        i += 1
    return out


def _pillow(img, **options) -> bytes:
    buf = io.BytesIO()
    img.save(buf, **options)
    return buf.getvalue()


def _rows_copied(img) -> bytes:
    """`render.encode` as it was: the same bytes, its rows laid out by a copy per row instead of one join."""
    width, height = img.size
    stride = width * len(img.getbands())
    raw = memoryview(img.tobytes())
    rows = bytearray((stride + 1) * height)
    for y in range(height):
        rows[y * (stride + 1) + 1 : (y + 1) * (stride + 1)] = raw[y * stride : (y + 1) * stride]
    colour = {"RGB": 2, "RGBA": 6}[img.mode]

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, colour, 0, 0, 0)
    idat = isal_zlib.compress(rows, render.PNG_COMPRESS_LEVEL)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


# The candidates, each turning a picture into bytes Discord and the sandbox page show inline.
ENCODERS = {
    "PNG, unfiltered, ISA-L level 1 (render.encode)": render.encode,
    "the same, a copy per row (before)": _rows_copied,
    "PNG, Pillow level 1 (before)": lambda img: _pillow(img, format="PNG", compress_level=1),
    "PNG, unfiltered, stdlib zlib level 1": render.png_unfiltered,
    "WebP lossless, method 0": lambda img: _pillow(img, format="WEBP", lossless=True, method=0, quality=0),
}


def _row(label: str, values: list[float]) -> str:
    return f"  {label:<7} median {statistics.median(values):6.1f} ms   p99 {percentile(values, 0.99):6.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer views and rounds (a smoke run)")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    n_views, rounds = (14, 2) if args.quick else (56, 5)
    pinned = pin_to_one_core()
    samples = views(n_views, args.seed)
    phones = phone_views(n_views, args.seed)
    # Warm-up: the first picture builds the cached static layers and sprites; report it on its own.
    start = time.perf_counter()
    render.encode(kokeshi_pictures.draw_table(*samples[0]))
    cold_ms = (time.perf_counter() - start) * 1000
    for view, events in samples:
        kokeshi_pictures.draw_table(view, events)
    for view, outcomes in phones:
        kokeshi_pictures.draw_turn(view, outcomes=outcomes)
    for view, events in samples:
        kokeshi_pictures.draw_table_phone(view, events)
    table = {"draw": [], "encode": [], "total": []}
    phone = {"draw": [], "encode": [], "total": []}
    record = {"draw": [], "encode": [], "total": []}
    sizes, phone_sizes, record_sizes = [], [], []
    for _ in range(rounds):
        for (view, events), (phone_view, outcomes) in zip(samples, phones, strict=True):
            for draw, into, size_into in (
                (lambda v=view, e=events: kokeshi_pictures.draw_table(v, e), table, sizes),
                (lambda v=phone_view, o=outcomes: kokeshi_pictures.draw_turn(v, outcomes=o), phone, phone_sizes),
                (lambda v=view, e=events: kokeshi_pictures.draw_table_phone(v, e), record, record_sizes),
            ):
                t0 = time.perf_counter()
                img = draw()
                t1 = time.perf_counter()
                data = render.encode(img)
                t2 = time.perf_counter()
                into["draw"].append((t1 - t0) * 1000)
                into["encode"].append((t2 - t1) * 1000)
                into["total"].append((t2 - t0) * 1000)
                size_into.append(len(data))
    # The previews the decision pictures and buttons are made from: every choice of a prompt, on a sealed copy.
    games = preview_games(n_views, args.seed)
    previews = []
    for _ in range(rounds):
        for game in games:
            t0 = time.perf_counter()
            preview_all(game)
            previews.append((time.perf_counter() - t0) * 1000)
    # The encoders side by side, in turns on the same pictures.
    pictures = [kokeshi_pictures.draw_table(v, e) for v, e in samples[: max(4, n_views // 4)]]
    timings: dict[str, list[float]] = {name: [] for name in ENCODERS}
    encoded: dict[str, list[int]] = {name: [] for name in ENCODERS}
    for _ in range(rounds):
        for img in pictures:
            for name, encode in ENCODERS.items():
                t0 = time.perf_counter()
                data = encode(img)
                timings[name].append((time.perf_counter() - t0) * 1000)
                encoded[name].append(len(data))
    heights = sorted(kokeshi_pictures.draw_turn(v, outcomes=o).height for v, o in phones)
    print(
        f"render bench: {len(table['total'])} table pictures (1600x1000), as many phone decision pictures "
        f"(900 wide, {heights[0]}-{heights[-1]} high, every decision kind, choices marked) and as many turn "
        f"records' pictures (900 wide), from {n_views} views each, Python {platform.python_version()}, "
        f"Pillow {PIL.__version__}, {pinned}"
    )
    print(f"  first picture (cold caches): {cold_ms:.1f} ms")
    print(" table:")
    for label, values in table.items():
        print(_row(label, values))
    print(f"  PNG size  median {statistics.median(sizes) / 1024:.0f} KiB   max {max(sizes) / 1024:.0f} KiB")
    print(" phone:")
    for label, values in phone.items():
        print(_row(label, values))
    print(f"  PNG size  median {statistics.median(phone_sizes) / 1024:.0f} KiB   max {max(phone_sizes) / 1024:.0f} KiB")
    print(" turn record (phone table):")
    for label, values in record.items():
        print(_row(label, values))
    print(
        f"  PNG size  median {statistics.median(record_sizes) / 1024:.0f} KiB   max {max(record_sizes) / 1024:.0f} KiB"
    )
    print(" preview of every choice of a prompt (engine.preview.preview_all):")
    print(_row("all", previews))
    print(f" encoders on {len(pictures)} table pictures, side by side:")
    for name in ENCODERS:
        print(
            f"  {name:<54} median {statistics.median(timings[name]):6.1f} ms   "
            f"size {statistics.median(encoded[name]) / 1024:5.0f} KiB"
        )
    ok_table = statistics.median(table["total"]) <= GOAL_TABLE_MS
    ok_phone = statistics.median(phone["total"]) <= GOAL_PHONE_MS
    print(
        f"  goal: table draw + encode <= {GOAL_TABLE_MS:.0f} ms (median): {'met' if ok_table else 'MISSED'}; "
        f"phone draw + encode <= {GOAL_PHONE_MS:.0f} ms (median): {'met' if ok_phone else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
