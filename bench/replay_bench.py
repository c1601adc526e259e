"""Replay animation: draw time and size of a whole game's animated picture, 2 and 4 players, GIF and WebP side by
side, from seeded games played by the greedy policy; with `--game kohaku`, another game's (`render.animation.film`
through its contract), every player count, from seeded games played at random."""

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

import random  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import PIL  # noqa: E402

import games as registry  # noqa: E402
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


def contract_played(key: str, players: int, seed: int, options: dict[str, Any] | None = None) -> list[tuple]:
    """A game of the contract played at random to its end: after each turn (the turn key changed, or the match
    ended), the arguments of its table picture: the spectator's view, the names, the turn's events."""
    module = registry.get(key)
    match = module.deal(module.options(options), seed, players)
    rng = random.Random(seed)
    names = tuple(PLAYERS[:players])
    steps: list[tuple] = []
    events: list[Any] = []
    turn = match.turn_key()
    while not match.is_over:
        seat = match.waiting()[0]
        events += match.apply(seat, rng.choice(match.legal_actions(seat)))
        if match.turn_key() != turn or match.is_over:
            steps.append((match.view(None), names, tuple(events)))
            events, turn = [], match.turn_key()
    return steps


def measured(games: int, make: Callable[[int], tuple[bytes, int]]) -> tuple[str, int]:
    """`make(g)` (an animation's bytes and its turns) timed for games 0 to `games - 1`: a summary of the turns, the
    time, the CPU time and the size, and the largest size."""
    seconds, cpu, sizes, turns = [], [], [], []
    for g in range(games):
        start, start_cpu = time.perf_counter(), time.process_time()
        data, count = make(g)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        sizes.append(len(data))
        turns.append(count)
    summary = (
        f"{min(turns)}–{max(turns)} turns, draw + encode median {statistics.median(seconds):.2f} s "
        f"(max {max(seconds):.2f} s; CPU median {statistics.median(cpu):.2f} s), size median "
        f"{statistics.median(sizes) / 1024:.0f} KiB (max {max(sizes) / 1024:.0f} KiB)"
    )
    return summary, max(sizes)


def contract(key: str, games: int, seed: int) -> bool:
    """Another game's animation for each player count, its turns played before the clock starts; True if every
    one fits `MAX_BYTES`."""
    from render.animation import film

    module = registry.get(key)
    film(module.table_picture, contract_played(key, module.players[0], seed - 1)[:2], "warm", ["", ""], "en")
    ok = True
    for players in module.players:
        played_games = [contract_played(key, players, seed + g) for g in range(games)]

        def make(g: int, played_games: list[list[tuple]] = played_games) -> tuple[bytes, int]:
            steps = played_games[g]
            captions = [f"turn {n} of {len(steps)}" for n in range(1, len(steps) + 1)]
            return film(module.table_picture, steps, f"{module.name} #{g + 1}", captions, "en"), len(steps)

        summary, largest = measured(games, make)
        print(f"{module.name}, {players} players: {summary}")
        ok = ok and largest <= MAX_BYTES
    return ok


def kokeshi(games: int, seed: int, candidates: tuple[tuple[str, int], ...]) -> bool:
    """Kokeshi's animation, 2 and 4 players, each candidate format; True if every GIF fits `MAX_BYTES`."""
    # The pictures' caches (tile sprites, static layers) warm up once, as in a worker of the bot's pool.
    animation(played(2, seed - 1)[:4], "en")
    ok = True
    for players in (2, 4):
        for kind, quality in candidates:
            played_games = [played(players, seed + g) for g in range(games)]

            def make(
                g: int, played_games: list[list[ReplayTurn]] = played_games, kind: str = kind, quality: int = quality
            ) -> tuple[bytes, int]:
                turns = played_games[g]
                return (animation(turns, "en", kind) if kind == "gif" else _webp(turns, quality)), len(turns)

            summary, largest = measured(games, make)
            name = kind if kind == "gif" else f"webp {'lossless' if quality == 100 else f'q{quality}'}"
            print(f"{players} players, {name:>13}: {summary}")
            if kind == "gif" and largest > MAX_BYTES:
                ok = False
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="kokeshi", help="kokeshi, or another game's key (its contract animation)")
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
    ok = kokeshi(games, args.seed, candidates) if args.game == "kokeshi" else contract(args.game, games, args.seed)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("every GIF under 8 MiB" if ok else "A GIF IS OVER 8 MiB")
    return 0 if ok else 1


def _webp(turns: list[ReplayTurn], quality: int) -> bytes:
    from games.kokeshi.pictures.replay import draw_animation

    return draw_animation(turns, kind="webp", quality=quality)


if __name__ == "__main__":
    raise SystemExit(main())
