"""Computer players: fair (blind to the hidden seed), legal, deterministic, and able to finish games."""

from __future__ import annotations

import math

import pytest

from games.kokeshi.engine import LEVELS, EasyPolicy, Game, GreedyPolicy, Hint, SearchPolicy, new_game, policy

# Small budgets keep the suite quick; the levels' own budgets are measured in bench/ai_bench.py.
BUDGET = {"easy": None, "normal": 300, "hard": 400}


def small(level: str, seed: int = 0):
    return policy(level, seed=seed, budget=BUDGET[level])


def advance(game: Game, decisions: int, seed: int = 0) -> Game:
    """Play `decisions` greedy decisions (fewer if the game ends)."""
    baseline = GreedyPolicy(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(game.prompt.player, baseline.choose(game))
    return game


def near_the_end(game: Game, left: int) -> Game:
    """The position `left` decisions before the end of a greedy game from `game`."""
    probe = game.clone()
    baseline = GreedyPolicy(0)
    moves = []
    while not probe.is_over:
        moves.append((probe.prompt.player, baseline.choose(probe)))
        probe.apply(*moves[-1])
    for move in moves[: len(moves) - left]:
        game.apply(*move)
    return game


def twin(game: Game, seed: int) -> Game:
    """The same position with another hidden seed: everything a player sees is equal, the future draws are not."""
    other = game.clone()
    other.reseed(seed)
    return other


def positions() -> list[Game]:
    """Positions from 2-player, 3-player and solo games, early and late, each waiting for a decision."""
    out = [
        advance(new_game(["ann", "bob"], seed=11), 40),
        advance(new_game(["ann", "bob", "cy"], seed=12, side="advanced"), 90),
        advance(new_game(["ann"], seed=13, solo=True), 60),
        advance(new_game(["ann", "bob"], seed=14, side="advanced"), 170),
    ]
    assert all(g.prompt is not None for g in out)
    return out


def next_draws(game: Game, count: int = 6) -> list[str]:
    """Tile ids the game's own seed would draw next (what a fair player must not depend on)."""
    probe = game.clone()
    return [probe.bag[probe._rand(len(probe.bag))] for _ in range(count) if probe.bag]


def test_a_twin_differs_only_in_what_nobody_sees():
    for game in positions():
        other = twin(game, game.seed + 987_654_321)
        assert other.view() == game.view()
        assert other != game
        assert next_draws(other) != next_draws(game)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.slow
def test_every_level_ignores_the_hidden_seed(level):
    changed = 0
    for i, game in enumerate(positions()):
        for hidden in (1, 2**40 + 3):
            other = twin(game, game.seed + hidden)
            assert small(level, seed=i).choose(other) == small(level, seed=i).choose(game)
        # A look-ahead on the real seed would see the true draws: the hidden seed does change the game.
        changed += next_draws(twin(game, game.seed + 1)) != next_draws(game)
    assert changed > 0


def test_a_search_on_the_real_seed_would_not_be_fair():
    # The determinized copy is what makes the policies fair: its draws do not follow the game's seed.
    game = positions()[0]
    a, b = game, twin(game, game.seed + 5)
    assert next_draws(a.determinized(7)) == next_draws(b.determinized(7))
    assert next_draws(a.clone()) != next_draws(b.clone())


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.slow
def test_a_fixed_seed_gives_the_same_choice_every_time(level):
    for i, game in enumerate(positions()):
        before = game.to_json()
        player = small(level, seed=i)
        first = player.explain(game)
        assert player.explain(game) == first
        assert small(level, seed=i).explain(game.clone()) == first
        assert game.to_json() == before  # the policy changed nothing


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.slow
def test_every_level_plays_legal_actions_to_the_end(level):
    games = [
        near_the_end(new_game(["ann", "bob"], seed=21), 16),
        near_the_end(new_game(["ann"], seed=22, solo=True), 12),
    ]
    for g in games:
        players = {name: small(level, seed=p) for p, name in enumerate(g.names)}
        decisions = 0
        while not g.is_over:
            player = g.prompt.player
            action = players[player].choose(g)
            assert action in g.legal_actions()
            g.apply(player, action)
            decisions += 1
        assert decisions > 0


@pytest.mark.parametrize("level", LEVELS)
def test_a_hint_is_a_legal_action_with_a_finite_gain(level):
    for game in positions():
        hint = small(level).explain(game)
        assert isinstance(hint, Hint)
        assert hint.action in game.legal_actions()
        assert math.isfinite(hint.gain)


@pytest.mark.slow
def test_easy_mostly_matches_the_greedy_choice_when_there_is_one_best():
    # Easy is the greedy player made fair: where one action is best the two mostly agree (they may differ where
    # the best move refills the offer, as each imagines its own draw).
    clear = agree = 0
    for seed in range(20, 40):
        for steps in (15, 35, 60, 90):
            game = advance(new_game(["ann", "bob"], seed=seed), steps)
            if game.prompt is None:
                continue
            hint = EasyPolicy(0).explain(game)
            if hint.gain > 0:
                clear += 1
                agree += hint.action == GreedyPolicy(0).choose(game)
    assert clear >= 10 and agree >= 2 * clear / 3, (agree, clear)


def test_the_levels_and_their_errors():
    assert LEVELS == ("easy", "normal", "hard")
    assert isinstance(policy("easy"), EasyPolicy)
    assert isinstance(policy("hard", seed=3), SearchPolicy)
    assert policy("normal").budget < policy("hard").budget
    with pytest.raises(ValueError, match="level must be one of"):
        policy("expert")
    with pytest.raises(ValueError, match="budget"):
        SearchPolicy(budget=0)
    over = advance(new_game(["ann", "bob"], seed=5), 10_000)
    assert over.is_over
    for level in LEVELS:
        with pytest.raises(ValueError, match="over"):
            small(level).choose(over)


def test_the_baseline_greedy_player_ignores_the_hidden_seed_too():
    for game in positions():
        other = twin(game, game.seed + 99)
        assert GreedyPolicy(4).choose(other) == GreedyPolicy(4).choose(game)


def test_the_search_scores_every_seat_as_the_engine_does():
    from games.kokeshi.engine.ai import _adjacent_pairs, _total
    from games.kokeshi.engine.policies import RandomPolicy

    checked = 0
    for seed, names in enumerate((["ann"], ["ann", "bob"], ["ann", "bob", "cy"], ["ann", "bob", "cy", "dee"])):
        game = new_game(names, seed=seed, side=("basic", "advanced")[seed % 2], solo=len(names) == 1)
        player = RandomPolicy(seed) if seed % 2 else GreedyPolicy(seed)
        while not game.is_over:
            leaders = game._leaders()
            for p in range(len(game.names)):
                assert _total(game, p, leaders) == game._score(p, leaders).total
                assert _adjacent_pairs(game.tracks[p]) == game._adjacent_pairs(p)
                checked += 1
            game.apply(game.prompt.player, player.choose(game))
    assert checked > 500
