"""Golden picture cases: seeded engine playouts and their pictures; regenerate with `python -m tests.golden`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import games.kokeshi.engine as engine
import i18n
from games.kokeshi import pictures
from games.kokeshi.engine.preview import preview_all

GOLDEN_DIR = Path(__file__).resolve().parent
NAMES = ["Aiko", "Botan", "Chiyo", "Daiki"]


def playout(names: list[str], seed: int, *, turns: int, side: str = "basic", solo: bool = False, greedy: bool = True):
    """Play `turns` complete turns (or to the end) with seeded policies; return the game and the last turn's events."""
    game = engine.new_game(names, seed=seed, side=side, solo=solo)
    policy = engine.GreedyPolicy if greedy else engine.RandomPolicy
    policies = {n: policy(seed) for n in game.names}
    done, current, last = 0, [], []
    while game.prompt is not None and done < turns:
        events = game.apply(game.prompt.player, policies[game.prompt.player].choose(game))
        current.extend(events)
        if any(e.kind in ("turn_ended", "game_over") for e in events):
            done += 1
            last, current = current, []
    return game, last


def _table(names, seed, turns, side="basic", solo=False, as_dicts=False) -> Callable[[], bytes]:
    def make() -> bytes:
        game, events = playout(names, seed, turns=turns, side=side, solo=solo)
        return pictures.table(game.view(), [e.to_dict() for e in events] if as_dicts else events)

    return make


def _final(names, seed, side="basic", solo=False) -> Callable[[], bytes]:
    def make() -> bytes:
        game, _ = playout(names, seed, turns=10_000, side=side, solo=solo)
        return pictures.final(game.view(), game.scores(), game.ranking())

    return make


def _board(names, seed, turns, seat) -> Callable[[], bytes]:
    def make() -> bytes:
        game, _ = playout(names, seed, turns=turns)
        view = game.view()
        return pictures.board(view, view["players"][seat]["name"])

    return make


def decision(names, seed: int, kind: str, *, after: int = 40, side: str = "basic", solo: bool = False):
    """A seeded greedy game played until, after `after` decisions, the prompt is of `kind`; returns the game and
    the events of that player's decisions so far in this turn."""
    game = engine.new_game(names, seed=seed, side=side, solo=solo)
    policies = {n: engine.GreedyPolicy(seed) for n in game.names}
    events: list = []
    last = None
    for step in range(5000):
        prompt = game.prompt
        assert prompt is not None, f"no {kind} prompt in this game"
        if prompt.player != last:
            events, last = [], prompt.player
        if prompt.kind == kind and (step >= after or kind == "setup"):
            return game, events
        events += game.apply(prompt.player, policies[prompt.player].choose(game))
    raise AssertionError(f"no {kind} prompt")


def _turn(names, seed, kind, after=40, side="basic", solo=False) -> Callable[[], bytes]:
    def make() -> bytes:
        game, events = decision(names, seed, kind, after=after, side=side, solo=solo)
        return pictures.turn(game.view(), game.prompt, events=events, outcomes=preview_all(game))

    return make


def _record(names, seed, turns, side="basic", solo=False, others=False) -> Callable[[], bytes]:
    """The phone table after a turn, focused on the player who just played (a turn record's picture)."""

    def make() -> bytes:
        game, events = playout(names, seed, turns=turns, side=side, solo=solo)
        actor = [e.player for e in events if e.player != engine.AUTOMA][-1]
        return pictures.table_phone(game.view(), events, actor, others=others)

    return make


def _setup() -> bytes:
    return pictures.table(engine.new_game(NAMES, seed=4).view())


# name -> how to draw it. Seeds and turn counts are fixed, so the views are reproducible.
CASES: dict[str, Callable[[], bytes]] = {
    "table_setup_4p": _setup,
    "table_2p_basic": _table(NAMES[:2], 11, 14),
    "table_3p_advanced": _table(NAMES[:3], 5, 24, side="advanced", as_dicts=True),
    "table_4p_basic": _table(NAMES, 7, 32),
    "table_4p_advanced_final_round": _table(NAMES, 2, 53, side="advanced"),
    "table_solo_basic": _table(NAMES[:1], 3, 18, solo=True),
    "table_solo_advanced": _table(NAMES[:1], 8, 30, side="advanced", solo=True),
    "board_4p": _board(NAMES, 7, 32, 2),
    "final_4p_basic": _final(NAMES, 3),
    "final_2p_advanced": _final(NAMES[:2], 6, side="advanced"),
    "final_solo": _final(NAMES[:1], 5, solo=True),
    "glossary": pictures.glossary,
    # The phone picture, one per decision kind.
    "turn_setup_4p": _turn(NAMES, 1, "setup"),
    "turn_advance_2p": _turn(NAMES[:2], 2, "advance"),
    "turn_effect_3p": _turn(NAMES[:3], 3, "effect", side="advanced"),
    "turn_kokeshi_4p": _turn(NAMES, 4, "kokeshi", after=60),
    "turn_animal_4p_advanced": _turn(NAMES, 5, "animal", side="advanced"),
    "turn_buy_2p": _turn(NAMES[:2], 6, "buy"),
    "turn_place_solo": _turn(NAMES[:1], 7, "place", solo=True),
    # The phone table: a turn record's picture (the board of the player who just played), and /kokeshi table's
    # with every other workshop.
    "record_2p_basic": _record(NAMES[:2], 11, 14),
    "record_4p_advanced": _record(NAMES, 2, 53, side="advanced"),
    "record_solo": _record(NAMES[:1], 3, 18, solo=True),
    "table_phone_4p": _record(NAMES, 7, 32, others=True),
}
# The rules for a phone, one golden per page.
CASES.update({f"rules_phone_{n}": (lambda n=n: pictures.rules_phone()[n - 1]) for n in (1, 2, 3)})


def _in(locale: str, make: Callable[[], bytes]) -> Callable[[], bytes]:
    def make_in() -> bytes:
        with i18n.using(locale):
            return make()

    return make_in


# Brazilian Portuguese twins: one per picture kind, chosen for the longest labels (the final-round banner, the
# glossary's descriptions), and every decision picture at phone size.
CASES.update(
    {
        f"pt_BR_{name}": _in("pt_BR", CASES[name])
        for name in (
            "table_4p_advanced_final_round",
            "table_solo_basic",
            "board_4p",
            "final_2p_advanced",
            "final_solo",
            "glossary",
            "turn_setup_4p",
            "turn_advance_2p",
            "turn_effect_3p",
            "turn_kokeshi_4p",
            "turn_animal_4p_advanced",
            "turn_buy_2p",
            "turn_place_solo",
            "record_4p_advanced",
            "table_phone_4p",
            "rules_phone_1",
            "rules_phone_2",
            "rules_phone_3",
        )
    }
)


DOCS_TABLE = GOLDEN_DIR.parent.parent / "docs" / "table.png"


def docs_table() -> bytes:
    """The README's picture: a 4-player table focused on the player who just moved, so the highlights show."""
    game, events = playout(NAMES, 7, turns=41)
    actor = [e.player for e in events if e.player != engine.AUTOMA][-1]
    return pictures.table(game.view(), events, focus=actor)


DOCS_TURN = GOLDEN_DIR.parent.parent / "docs" / "turn.png"


def docs_turn() -> bytes:
    """The README's phone picture: a 4-player game waiting for a buy."""
    game, events = decision(NAMES, 7, "buy", after=120)
    return pictures.turn(game.view(), game.prompt, events=events, outcomes=preview_all(game))


def path(name: str) -> Path:
    """Where the golden picture of a case lives."""
    return GOLDEN_DIR / f"{name}.png"
