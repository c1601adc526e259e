"""The game state is declared once: its slots, its copy and its saved form all cover the declared fields."""

from __future__ import annotations

import pytest

from games.kokeshi.engine import Game, RandomPolicy, load_game, new_game

# Fields the saved form leaves out, because loading derives them from others: the tiles and the draw generator's
# key from the rules version and the seed, the seat count of humans from `solo`, the idle limit from the rules
# version, the options from the open decision.
DERIVED = {"tiles", "key", "humans", "stall_limit", "_options"}


def _games() -> list[Game]:
    """Games of every rules version and of both kinds, at the start, mid-way and over."""
    found = []
    for rules in (1, 2, 3, 4):
        for players, solo in ((["ana", "bo", "cy"], False), (["ana"], True)):
            game = new_game(players, seed=rules, solo=solo, rules=rules)
            found.append(game.clone())
            policy = RandomPolicy(rules)
            while not game.is_over:
                game.apply(game.prompt.player, policy.choose(game))
                if game.version == 40:
                    found.append(game.clone())
            found.append(game)
    return found


GAMES = _games()


def _lists(value: object, path: str) -> list[tuple[str, int]]:
    """Every list inside `value`, with where it is."""
    if isinstance(value, list):
        inner = [found for i, item in enumerate(value) for found in _lists(item, f"{path}[{i}]")]
        return [(path, id(value)), *inner]
    return []


def test_the_slots_are_the_declared_fields():
    assert Game.__slots__ == tuple(Game.__annotations__)
    game = GAMES[0]
    with pytest.raises(AttributeError):
        object.__setattr__(game, "undeclared", 1)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"rules{g.rules}-{'solo' if g.solo else 'table'}-v{g.version}")
def test_a_saved_game_loads_with_every_declared_field_equal(game):
    loaded = load_game(game.to_json())
    for name in Game.__slots__:
        assert getattr(loaded, name) == getattr(game, name), name
    saved = game._state()
    stored = {"names" if key == "players" else key for key in saved}
    assert set(Game.__slots__) - DERIVED - {"rules", "idle", "bought", "idles", "marks"} <= stored
    assert {"idle", "bought"} <= stored if game.rules in (2, 3) else not {"idle", "bought"} & stored
    assert {"idles", "marks"} <= stored if game.rules >= 4 else not {"idles", "marks"} & stored


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"rules{g.rules}-{'solo' if g.solo else 'table'}-v{g.version}")
def test_a_clone_has_every_field_equal_and_shares_no_list(game):
    copy = game.clone()
    assert type(copy) is Game
    for name in Game.__slots__:
        assert getattr(copy, name) == getattr(game, name), name
        ours = _lists(getattr(game, name), name)
        theirs = _lists(getattr(copy, name), name)
        assert [path for path, _ in ours] == [path for path, _ in theirs]
        assert not {i for _, i in ours} & {i for _, i in theirs}, f"{name} shares a list with its clone"
