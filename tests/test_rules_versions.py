"""Rules versions: games recorded under versions 1, 2 and 3 replay exactly; new games get version 4 and 128-bit
seeds."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import games
from games.kokeshi.engine import CURRENT_RULES, RULES_VERSIONS, Game, RandomPolicy, load_game, new_game, replay
from storage import migrations, open_store
from tests.botkit import open_game
from tests.dbkit import decide

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = json.loads((Path(__file__).with_name("fixtures") / "rules_v1_games.json").read_text(encoding="utf-8"))
V1_GAMES = FIXTURE["games"]
V2_GAMES = json.loads((Path(__file__).with_name("fixtures") / "rules_v2_games.json").read_text(encoding="utf-8"))[
    "games"
]
V3_GAMES = json.loads((Path(__file__).with_name("fixtures") / "rules_v3_games.json").read_text(encoding="utf-8"))[
    "games"
]


def _replay_v1(spec: dict) -> Game:
    return replay(
        spec["players"],
        seed=spec["seed"],
        side=spec["side"],
        solo=spec["solo"],
        actions=[tuple(a) for a in spec["actions"]],
        rules=1,
    )


def test_new_games_take_the_current_rules_version():
    assert RULES_VERSIONS == (1, 2, 3, 4) and CURRENT_RULES == 4
    assert new_game(["ana", "bo"], seed=1).rules == CURRENT_RULES
    for rules in RULES_VERSIONS:
        assert new_game(["ana", "bo"], seed=1, rules=rules).rules == rules
    for bad in (0, 5, True, "2"):
        with pytest.raises(ValueError, match="rules"):
            new_game(["ana", "bo"], seed=1, rules=bad)


@pytest.mark.parametrize("spec", V1_GAMES, ids=lambda s: f"{len(s['players'])}p-{s['side']}-seed{s['seed']}")
def test_a_game_recorded_under_rules_1_replays_to_the_same_end(spec):
    game = _replay_v1(spec)
    assert game.is_over and game.round == spec["round"]
    assert hashlib.sha256(game.to_json().encode()).hexdigest() == spec["final_sha256"]
    assert {name: s.to_dict() for name, s in game.scores().items()} == spec["scores"]
    assert game.ranking() == spec["ranking"]


@pytest.mark.parametrize(
    "spec", V2_GAMES, ids=lambda s: f"{len(s['players'])}p-{s['side']}-seed{s['seed']}-{s['end_reason']}"
)
def test_a_game_recorded_under_rules_2_replays_to_the_same_end(spec):
    """Version 2 keeps its idle-round end: two of these games ended by it, and replay to the same state."""
    game = replay(
        spec["players"],
        seed=spec["seed"],
        side=spec["side"],
        solo=spec["solo"],
        actions=[tuple(a) for a in spec["actions"]],
        rules=2,
    )
    assert game.is_over and game.round == spec["round"] and game.end_reason == spec["end_reason"]
    assert hashlib.sha256(game.to_json().encode()).hexdigest() == spec["final_sha256"]
    assert {name: s.to_dict() for name, s in game.scores().items()} == spec["scores"]
    assert game.ranking() == spec["ranking"]


# The sentences rules 3 gave as reasons when these games were recorded, by the codes and values that replace them.
_RECORDED_REASONS = {
    "offer_empty": "the offer is empty",
    "every_track_full": "every track is full",
    "track_full": "the {kokeshi} track is full",
    "every_disc_at_end": "every disc is at the end of its track",
    "disc_at_end": "your {animal} disc is at the end of its track",
    "no_track_on_side": "there is no track on that side",
    "nothing_to_do": "nothing can be done",
    "no_legal_space": "it has no legal space",
    "no_room": "no track has room for it",
    "bag_empty": "the bag is empty",
    "automa_track_full": "the automa's {kokeshi} track is full",
    "empty_space": "empty space",
}


def _as_recorded(event: dict) -> dict:
    """An event as rules 3 emitted it when the fixture was recorded: a reason was a sentence with the values in it
    (`track_full` + `kokeshi` then read "the samurai track is full"), and a choice carried how it was worded
    (`label` then, `words` now), which is left out: what happened is compared, not how it is worded."""
    data = {k: v for k, v in event["data"].items() if k not in ("label", "words")}
    if event["kind"] in ("effect_skipped", "tile_discarded", "kokeshi_home"):
        code = data["reason"]
        named = {k: data.pop(k) for k in ("kokeshi", "animal") if k in data and event["kind"] == "effect_skipped"}
        text = _RECORDED_REASONS[code]
        if code == "automa_track_full" and not named:
            text = "the automa's track is full"
        data["reason"] = text.format(**named)
    return {**event, "data": data}


def _story(events: list[dict]) -> bytes:
    """The events as the rules emitted them when the games were recorded, without how a choice is worded."""
    kept = [_as_recorded(e) for e in events]
    return json.dumps(kept, sort_keys=True, separators=(",", ":")).encode()


@pytest.mark.parametrize(
    "spec", V3_GAMES, ids=lambda s: f"{len(s['players'])}p-{s['side']}-seed{s['seed']}-{s['end_reason']}"
)
def test_a_game_recorded_under_rules_3_replays_to_the_same_end_and_events(spec):
    """Version 3 keeps its idle-turn end (a count for the table of turns without an offer tile): two of these games
    ended by it. The same log gives the same final state and, event for event, the same story."""
    game = new_game(spec["players"], seed=spec["seed"], side=spec["side"], solo=spec["solo"], rules=3)
    events = []
    for player, action in spec["actions"]:
        events.extend(e.to_dict() for e in game.apply(player, action))
    assert game.is_over and game.round == spec["round"] and game.end_reason == spec["end_reason"]
    assert hashlib.sha256(game.to_json().encode()).hexdigest() == spec["final_sha256"]
    assert hashlib.sha256(_story(events)).hexdigest() == spec["events_sha256"]
    assert {name: s.to_dict() for name, s in game.scores().items()} == spec["scores"]
    assert game.ranking() == spec["ranking"]
    assert "idles" not in json.loads(game.to_json())


def test_the_rules_3_games_ended_by_its_guard_would_not_have_ended_so_under_rules_4():
    """The stalled rules-3 games of the fixture: their logs stop being legal under rules 4 before the end, or end
    otherwise: version 4 is another rule, and only the version a game was dealt under replays it."""
    for spec in (s for s in V3_GAMES if s["end_reason"] == "stall"):
        game = new_game(spec["players"], seed=spec["seed"], side=spec["side"], solo=spec["solo"], rules=4)
        try:
            for player, action in spec["actions"]:
                game.apply(player, action)
        except ValueError:
            continue
        assert not (game.is_over and game.end_reason == "stall" and game.round == spec["round"])


def test_the_same_log_does_not_replay_under_rules_2():
    """The fixture pins version 1: under version 2 (another generator) its first recorded moves are refused."""
    spec = V1_GAMES[0]
    with pytest.raises(ValueError):
        replay(spec["players"], seed=spec["seed"], actions=[tuple(a) for a in spec["actions"]], rules=2)


def test_saves_keep_their_version_and_version_1_saves_their_old_form():
    old = new_game(["ana", "bo"], seed=5, rules=1)
    assert "rules" not in json.loads(old.to_json()) and "idle" not in json.loads(old.to_json())
    two = new_game(["ana", "bo"], seed=5, rules=2)
    three = new_game(["ana", "bo"], seed=5, rules=3)
    new = new_game(["ana", "bo"], seed=5)
    assert json.loads(two.to_json())["rules"] == 2 and json.loads(three.to_json())["rules"] == 3
    assert json.loads(new.to_json())["rules"] == 4
    # Rules 2 and 3 keep the table's idle count; rules 4 each seat's idle turns and what the current turn did.
    assert {"idle", "bought"} <= set(json.loads(three.to_json())) and "idles" not in json.loads(three.to_json())
    assert {"idles", "marks"} <= set(json.loads(new.to_json())) and "idle" not in json.loads(new.to_json())
    for game in (old, two, three, new):
        policy = RandomPolicy(3)
        for _ in range(40):
            game.apply(game.prompt.player, policy.choose(game))
        loaded = load_game(game.to_json())
        assert loaded == game and loaded.rules == game.rules and loaded.view()["rules"] == game.rules
        assert loaded.clone().to_json() == game.to_json()
    data = json.loads(old.to_json())
    data["rules"] = 1  # version 1 saves never carry the key
    with pytest.raises(ValueError, match="rules"):
        load_game(json.dumps(data))
    data = json.loads(new.to_json())
    data["rules"] = 7
    with pytest.raises(ValueError, match="rules"):
        load_game(json.dumps(data))


def _opening(seed: int, rules: int) -> str:
    g = new_game(["ana", "bo", "cy"], seed=seed, rules=rules)
    view = g.view()
    return json.dumps([view["players"], view["offer"], view["bonus_slots"]])


def test_rules_2_draws_depend_on_every_bit_of_a_128_bit_seed():
    seed = (0x1234_5678_9ABC_DEF0 << 64) | 0x0FED_CBA9_8765_4321
    low = seed & ((1 << 64) - 1)
    # Version 1 reads only the low 64 bits: two seeds that share them deal the same game.
    assert _opening(seed, 1) == _opening(low, 1)
    # Version 2 digests the whole seed: the high half matters, down to its last bit, and so does the sign.
    assert _opening(seed, 2) != _opening(low, 2)
    assert _opening(seed, 2) != _opening(seed ^ (1 << 127), 2)
    assert _opening(seed, 2) != _opening(-seed, 2)
    assert _opening(seed, 2) == _opening(seed, 2)


_REPLAY_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from games.kokeshi.engine import replay
spec = json.load(sys.stdin)
game = replay(spec["players"], seed=spec["seed"], solo=True, actions=[tuple(a) for a in spec["actions"]])
sys.stdout.write(game.to_json())
"""


def test_a_128_bit_seed_replays_the_same_in_another_process():
    seed = 2**128 - 12345
    game = new_game(["ana"], seed=seed, solo=True)
    policy = RandomPolicy(9)
    actions = []
    while game.prompt is not None:
        action = policy.choose(game)
        actions.append((game.prompt.player, action))
        game.apply(game.prompt.player, action)
    out = subprocess.run(
        [sys.executable, "-c", _REPLAY_SCRIPT, str(ROOT)],
        input=json.dumps({"players": ["ana"], "seed": seed, "actions": actions}),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert out.stdout == game.to_json()


# ---------------------------------------------------------------------- storage


def _database_at_schema_3(path: Path, spec: dict) -> None:
    """A database as the bot left it before migration 0004, holding one finished rules-version-1 game."""
    db = sqlite3.connect(path)
    for number, sql in migrations()[:3]:
        db.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
    game = new_game(spec["players"], seed=spec["seed"], side=spec["side"], solo=spec["solo"], rules=1)
    seats = spec["players"]
    db.execute(
        "INSERT INTO games (id, guild_id, channel_id, host_id, status, players, side, solo, seed, version, moves, "
        "created_at, updated_at) VALUES (1, 1, 10, 100, 'active', ?, ?, ?, ?, 1, 0, 0, 0)",
        (len(seats), spec["side"], int(spec["solo"]), spec["seed"]),
    )
    for i, name in enumerate(seats):
        db.execute("INSERT INTO seats (game_id, seat, name, user_id) VALUES (1, ?, ?, ?)", (i, name, 100 + i))
    for seq, (player, action) in enumerate(spec["actions"], start=1):
        events = game.apply(player, action)
        db.execute(
            "INSERT INTO actions (game_id, seq, player, action, created_at) VALUES (1, ?, ?, ?, 0)",
            (seq, player, action),
        )
        db.executemany(
            "INSERT INTO events (game_id, seq, idx, kind, player, data, reveals) VALUES (1, ?, ?, ?, ?, ?, ?)",
            [(seq, i, e.kind, e.player, json.dumps(e.data), int(e.reveals)) for i, e in enumerate(events)],
        )
    db.execute(
        "UPDATE games SET status = ?, version = ?, moves = ?, snapshot = ? WHERE id = 1",
        ("finished" if game.is_over else "active", len(spec["actions"]) + 1, len(spec["actions"]), game.to_json()),
    )
    if game.is_over:  # a finished game has its results, as the bot wrote them
        scores = game.scores()
        for rank, name in enumerate(game.ranking(), start=1):
            s = scores[name]
            db.execute(
                "INSERT INTO results (game_id, seat, name, user_id, rank, total, in_play, tracks, quality, animals, "
                "leads, adjacency, finished_at) VALUES (1, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (
                    game.players.index(name),
                    name,
                    rank,
                    s.total,
                    s.in_play,
                    s.tracks,
                    s.quality,
                    s.animals,
                    s.leads,
                    s.adjacency,
                ),
            )
    db.commit()
    db.close()


async def test_a_database_from_before_rules_versions_migrates_loads_and_verifies(tmp_path):
    spec = V1_GAMES[3]  # the solo game
    path = tmp_path / "old.sqlite3"
    _database_at_schema_3(path, spec)
    store = await open_store(path)
    try:
        assert await store.schema_version() == len(migrations()) >= 4
        assert await store.verify() == []
        match, _version, _record = await store.load_match(1)
        assert match.rules == 1
        assert hashlib.sha256(match.to_json().encode()).hexdigest() == spec["final_sha256"]
        record = await store.get_game(1)
        assert record.seed == spec["seed"]
        assert await store.started_games() == 1
    finally:
        await store.close()
    out = subprocess.run(
        [sys.executable, "-m", "storage", "verify", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr


async def test_a_new_game_stores_its_128_bit_seed_and_rules_version_losslessly(tmp_path):
    path = tmp_path / "new.sqlite3"
    store = await open_store(path)
    seed = 2**127 + 2**64 + 99
    try:
        game_id = await store.create_game(guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2)
        await store.add_seat(game_id, 101, "Bo")
        await store.start_match(game_id, seed)
        rng = random.Random(1)
        for _ in range(30):
            assert await decide(store, game_id, rng)
        assert (await store.get_game(game_id)).seed == seed
        assert await store.verify() == []
    finally:
        await store.close()
    db = sqlite3.connect(path)
    row = db.execute("SELECT seed, seed_text, rules FROM games WHERE id = ?", (game_id,)).fetchone()
    db.close()
    assert row == (None, str(seed), CURRENT_RULES)
    reopened = await open_store(path)
    try:
        match, _version, _record = await reopened.load_match(game_id)
        game = match.engine
        assert game.seed == seed and game.rules == CURRENT_RULES and game.version == 30
    finally:
        await reopened.close()


async def test_a_game_started_by_the_bot_gets_a_128_bit_seed_and_the_current_rules(world):
    game_id, _thread = await open_game(world, players=2)
    record = await world.store.get_game(game_id)
    match, _version, _record = await world.store.load_match(game_id)
    assert match.rules == CURRENT_RULES and match.engine.seed == record.seed
    # A 128-bit seed from the operating system has more than 64 significant bits but for a 2^-64 chance.
    assert 64 < record.seed.bit_length() <= 128


async def test_a_game_started_under_rules_3_keeps_them_in_the_store(tmp_path):
    """A game dealt before rules 4 (its row says rules 3) loads, plays on and verifies under rules 3: the table's
    idle count, no idle turns per player."""
    path = tmp_path / "three.sqlite3"
    store = await open_store(path)
    try:
        game_id = await store.create_game(guild_id=1, channel_id=10, host_id=100, host_name="Ana", players=2)
        await store.add_seat(game_id, 101, "Bo")
        await store.start_match(game_id, 77)
        await store.close()
        # As dealt before rules 4 shipped: its row says rules 3, its snapshot is the deal under them.
        dealt = games.get("kokeshi").deal({"side": "basic"}, 77, 2, 3)
        with sqlite3.connect(path) as db:
            db.execute("UPDATE games SET rules = 3, snapshot = ? WHERE id = ?", (dealt.to_json(), game_id))
        db.close()
        store = await open_store(path)  # the bot now deals rules 4; the stored game keeps its own version
        rng = random.Random(2)
        for _ in range(60):
            assert await decide(store, game_id, rng)
        match, _version, _record = await store.load_match(game_id)
        game = match.engine
        saved = json.loads(game.to_json())
        assert game.rules == 3 and saved["rules"] == 3 and "idle" in saved and "idles" not in saved
        assert game.view()["idle"]["shared"] is True
        assert await store.verify() == []
    finally:
        await store.close()
