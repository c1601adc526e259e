"""Replay animation: draw time and size of a whole game's animated picture, 2 and 4 players, GIF and WebP side by
side, from seeded games played by the greedy policy."""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import PIL  # noqa: E402

from bench.common import pin_to_one_core  # noqa: E402
from games.kokeshi.engine import GreedyPolicy, new_game  # noqa: E402
from games.kokeshi.pictures.replay import MAX_BYTES, ReplayTurn, animation  # noqa: E402

PLAYERS = ["Aiko", "Botan", "Chiyo", "Daiki"]
TURN_ENDS = {"turn_ended", "setup_done", "game_over"}
# Candidates: (kind, quality); quality 100 is lossless WebP, measured only when asked (minutes a game).
CANDIDATES = (("gif", 0), ("webp", 80))
LOSSLESS = ("webp", 100)


def played(players: int, seed: int) -> list[ReplayTurn]:
    """A whole game as the replay sees it: each finished turn with the public views around it and its events."""
    game = new_game(PLAYERS[:players], seed=seed, side="advanced" if seed % 2 else "basic")
    policies = {n: GreedyPolicy(seed) for n in game.names}
    turns: list[ReplayTurn] = []
    before, events, player = game.view(), [], None
    while game.prompt is not None:
        mover = game.prompt.player
        player = player or mover
        got = game.apply(mover, policies[mover].choose(game))
        events += [e.to_dict() for e in got]
        if any(e.kind in TURN_ENDS for e in got):
            after = game.view()
            turns.append(ReplayTurn(player, before, after, tuple(events)))
            before, events, player = after, [], None
    return turns


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="one game of each size, GIF only (a smoke run)")
    parser.add_argument("--seed", type=int, default=300)
    parser.add_argument("--games", type=int, default=3, help="games of each size")
    parser.add_argument("--lossless", action="store_true", help="lossless WebP too")
    args = parser.parse_args()
    pinned = pin_to_one_core()
    games = 1 if args.quick else args.games
    candidates = CANDIDATES[:1] if args.quick else CANDIDATES + ((LOSSLESS,) if args.lossless else ())
    print(
        f"Python {platform.python_version()}, Pillow {PIL.__version__}, {pinned}, load average {os.getloadavg()[0]:.1f}"
    )
    # The pictures' caches (tile sprites, static layers) warm up once, as in a worker of the bot's pool.
    animation(played(2, args.seed - 1)[:4], "en")
    ok = True
    for players in (2, 4):
        for kind, quality in candidates:
            seconds, cpu, sizes, frames = [], [], [], []
            for g in range(games):
                turns = played(players, args.seed + g)
                start, start_cpu = time.perf_counter(), time.process_time()
                data = animation(turns, "en", kind) if kind == "gif" else _webp(turns, quality)
                seconds.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                sizes.append(len(data))
                frames.append(len(turns))
            name = kind if kind == "gif" else f"webp {'lossless' if quality == 100 else f'q{quality}'}"
            print(
                f"{players} players, {name:>13}: {min(frames)}–{max(frames)} turns, draw + encode median "
                f"{statistics.median(seconds):.2f} s (max {max(seconds):.2f} s; CPU median "
                f"{statistics.median(cpu):.2f} s), size median "
                f"{statistics.median(sizes) / 1024:.0f} KiB (max {max(sizes) / 1024:.0f} KiB)"
            )
            if kind == "gif" and max(sizes) > MAX_BYTES:
                ok = False
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("every GIF under 8 MiB" if ok else "A GIF IS OVER 8 MiB")
    return 0 if ok else 1


def _webp(turns: list[ReplayTurn], quality: int) -> bytes:
    from games.kokeshi.pictures.replay import draw_animation

    return draw_animation(turns, kind="webp", quality=quality)


if __name__ == "__main__":
    raise SystemExit(main())
