"""A game read back from its thread: every finished turn leaves a complete story (every recognition, top pass,
quality tile, red-line crossing, bonus tile, lead and side chosen, discs told by the values printed on the board),
and each 'your turn' ping says, one line per other player, what they did and why their score moved."""

from __future__ import annotations

import re

import pytest

from cogs.matches import seat_names
from cogs.speech import escape
from games.kokeshi import story, vocab
from games.kokeshi.engine.data import ANIMAL_POINTS, ANIMALS
from games.kokeshi.module import engine_event, named_view
from games.kokeshi.narrate import describe
from tests.botkit import open_game, play_to_end


def records(thread, game_id: int) -> list:
    """The thread's records of finished turns, at Kokeshi's own table or at the platform's, in order."""
    own, platform = f"kokeshi-{game_id}-turn-", f"turn-{game_id}-"
    return [
        m for m in thread.history() if any(own in a.filename or a.filename.startswith(platform) for a in m.attachments)
    ]


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


async def _turns(world, game_id: int) -> list[tuple[str, list, dict, dict]]:
    """Every finished turn of the game as (who played it, its events, the table's view before it, after it), in the
    engine's terms under the players' names."""
    record = await world.store.get_game(game_id)
    # Its log by seat, each decision with the events it caused (the automa's included).
    decisions = await world.store.match_decisions(game_id)
    assert decisions and decisions[-1].ends_turn
    turns, current = [], []
    for decision in decisions:
        current.append(decision)
        if decision.ends_turn:
            turns.append(current)
            current = []
    seqs = [0] + [turn[-1].seq for turn in turns]
    views = await world.store.match_views(game_id, seqs)
    names = seat_names(record)
    return [
        (
            names[turn[0].seat],
            [engine_event(e, names) for d in turn for e in d.events],
            named_view(views[seqs[i]], names),
            named_view(views[seqs[i + 1]], names),
        )
        for i, turn in enumerate(turns)
    ]


def _told_in_the_end(final: str, game_id: int, events: list) -> None:
    """The end's post tells the last turn one sentence an event, the end included, then says the game is over; a
    turn too long for the post keeps its newest sentences under a line that says how many were left out."""
    story, over, _places = _unescape(final).partition(f"**Kokeshi #{game_id} is over.**")
    assert over, final
    told = [line for line in (describe(e) for e in events) if line]
    lines = story.splitlines()
    assert lines and lines[-1].startswith("The game is over. Winner: "), final
    if lines[0].startswith("… "):
        lines = lines[1:]
        assert lines == told[-len(lines) :], final
    else:
        assert lines == told, final


async def _read_back(world, game_id: int, thread) -> dict[str, int]:
    """Check every record against the turn it tells; returns how many of each telling event were checked."""
    turns = await _turns(world, game_id)
    posted = records(thread, game_id)
    # The last turn is told in the end's post, above the places.
    *turns, (_player, last, _before, _after) = turns
    _told_in_the_end(thread.history()[-1].content, game_id, last)
    assert len(posted) == len(turns) > 10
    side = turns[-1][3]["side"]
    seen: dict[str, int] = {}
    for (player, events, before, after), message in zip(turns, posted, strict=True):
        content = message.content
        text = _unescape(content)
        head = content.splitlines()[0]
        assert head.startswith(f"**{escape(vocab.seat_name(player))}** · ")
        change, total, _items = story.score_change(player, before, after)
        sign = "+" if change >= 0 else "\u2212"
        shown = f"\u2212{-total}" if total < 0 else str(total)
        assert f" · {sign}{abs(change)} → {shown} point" in head, head
        assert "only one choice" not in text and "-3" not in text
        assert len(content) <= 2000
        running: dict[str, int] = {p["name"]: p["recognitions"] for p in before["players"]}
        for e in events:
            seen[e.kind] = seen.get(e.kind, 0) + 1
            if e.kind == "disc_moved":
                values = ANIMAL_POINTS[side][ANIMALS.index(e.data["animal"])]
                start, to = values[e.data["to"] - 1], values[e.data["to"]]
                assert f"{vocab.animal(e.data['animal'])} disc {start}→{to}" in text, (e.data, text)
            elif e.kind in ("red_line_crossed", "quality_bought", "automa_quality"):
                running[e.player] += 1
                assert f"recognition {running[e.player]} of " in text, (e.kind, text)
                if e.kind == "red_line_crossed":
                    assert "crosses the red line" in text
                elif e.kind == "quality_bought":
                    assert f"takes the level {e.data['level']} {vocab.kokeshi(e.data['kokeshi'])} quality tile" in text
                else:
                    assert f"receives the {vocab.kokeshi(e.data['kokeshi'])} quality tile" in text
            elif e.kind == "top_passed":
                direct = f"{vocab.kokeshi(e.data['kokeshi'])} {e.data['height']}→top: +3"
                assert direct in text or "past the top: +3" in text
            elif e.kind == "bonus_taken":
                assert "collects a bonus tile" in text
            elif e.kind == "effect_chosen":
                assert "chooses: " in text
            elif e.kind == "quality_step":
                assert "quality tile: one more step" in text
            elif e.kind == "tile_placed" and e.player == player:
                assert f"{vocab.kokeshi(e.data['kokeshi'])} track, height {e.data['height']}" in text
            elif e.kind == "end_triggered":
                assert "The end is triggered" in text
        # Every disc of the player told by the value printed where it stands now on the board.
        for p in after["players"]:
            for animal, position in p["animals"].items():
                mine = [e for e in events if e.kind == "disc_moved" and e.player == p["name"]]
                if any(e.data["animal"] == animal for e in mine):
                    printed = ANIMAL_POINTS[side][ANIMALS.index(animal)][position]
                    assert f"{vocab.animal(animal)} disc " in text and f"→{printed}" in text
        # Leads won or lost in the turn.
        old = {a: next((q["name"] for q in before["players"] if a in q["leads"]), None) for a in ANIMALS}
        new = {a: next((q["name"] for q in after["players"] if a in q["leads"]), None) for a in ANIMALS}
        for animal in ANIMALS:
            if new[animal] is not None and new[animal] != old[animal]:
                assert f"leads the {vocab.animal(animal)}" in text or f"takes the {vocab.animal(animal)} lead" in text
    return seen


@pytest.mark.slow
async def test_every_turn_record_tells_the_whole_turn_with_the_boards_values(world):
    game_id, thread = await open_game(world, players=3, side="advanced")
    await play_to_end(world, game_id, thread, seed=11)
    seen = await _read_back(world, game_id, thread)
    assert seen.get("disc_moved", 0) > 5 and seen.get("effect_chosen", 0) > 5
    assert seen.get("red_line_crossed", 0) + seen.get("quality_bought", 0) > 0
    # The final picture comes after the last record; nothing else was lost in between.
    assert f"**Kokeshi #{game_id} is over.**" in thread.history()[-1].content


@pytest.mark.slow
async def test_a_solo_game_read_back_tells_the_automas_tiles_and_recognitions(world):
    aiko = world.members[0]
    await aiko.slash(world.channel, "kokeshi solo")
    record = (await world.store.games_in_channel(world.channel.id, statuses=("active",)))[0]
    thread = next(t for t in world.channel.threads if t.id == record.thread_id)
    await play_to_end(world, record.id, thread, seed=3)
    seen = await _read_back(world, record.id, thread)
    assert seen.get("automa_tile", 0) > 3 and seen.get("disc_moved", 0) > 3
    texts = "\n".join(m.content for m in records(thread, record.id))
    assert "The automa: draws a tile" in _unescape(texts)


@pytest.mark.slow
async def test_each_your_turn_ping_gives_one_line_per_other_player_and_none_before_a_first_turn(world):
    game_id, thread = await open_game(world, players=3)
    await play_to_end(world, game_id, thread, seed=12)
    posts = [r.json for r in world.env.http_requests if r.method == "POST" and r.path.endswith(f"{thread.id}/messages")]
    names = [m.user.name for m in world.members[:3]]
    # At the platform's table a new turn's post opens "Your turn: <@id>.", then the question, then what happened.
    pings = [p for p in posts if p and p.get("content", "").startswith("Your turn: <@")]
    assert len(pings) > 20
    firsts: set[str] = set()
    for body in pings:
        content = body["content"]
        lines = content.splitlines()
        pinged = next(n for n in names if lines[0] == f"Your turn: <@{world.member(n).id}>.")
        if pinged not in firsts:
            # A player's first prompt has no 'since your last turn': they had no turn yet.
            firsts.add(pinged)
            assert "Since your last turn" not in content
            continue
        assert "**Since your last turn:**" in lines[1:3], content
        others = [n for n in names if n != pinged]
        told = [line for line in lines[lines.index("**Since your last turn:**") + 1 :] if line.startswith("• ")]
        for other in others:
            # One line per other player, with their points as a signed change and their total (who is near the end
            # is said after those lines).
            mine = [line for line in told if re.match(rf"• {re.escape(other)} \S+ → ", line)]
            assert len(mine) <= 1, told
        assert any(re.match(rf"• ({'|'.join(others)}) [+\u2212]\d+ → \u2212?\d+", line) for line in told), told
        for line in told:
            # Never cut in the middle of a phrase.
            assert not line.endswith("…") and len(line) < 260, line
            assert "-" not in re.sub(r"[A-Za-z]-[A-Za-z]", "", line), line


def test_the_since_lines_name_the_cause_of_the_points_and_who_is_near_the_end():
    before = {
        "side": "basic",
        "players": [
            {"name": "Aiko", "recognitions": 1, "leads": ["fox"], "animals": {}, "score": {"total": 10, "animals": 3}},
            {"name": "Botan", "recognitions": 3, "leads": [], "animals": {}, "score": {"total": 20, "animals": 1}},
        ],
    }
    after = {
        "side": "basic",
        "players": [
            {"name": "Aiko", "recognitions": 1, "leads": [], "animals": {}, "score": {"total": 7, "animals": 3}},
            {
                "name": "Botan",
                "recognitions": 4,
                "leads": ["fox", "panda"],
                "animals": {},
                "score": {"total": 32, "animals": 7, "leads": 6},
            },
        ],
    }
    events = [
        {"kind": "disc_moved", "player": "Botan", "data": {"animal": "panda", "to": 4}},
        {"kind": "red_line_crossed", "player": "Botan", "data": {"animal": "panda", "recognitions": 4}},
        {"kind": "disc_moved", "player": "Botan", "data": {"animal": "fox", "to": 2}},
        {"kind": "tile_bought", "player": "Botan", "data": {"tile": "n01", "slot": 0, "track": "samurai"}},
    ]
    lines = story.since_lines("Aiko", [story.Turn("Botan", events, before, after)])
    assert lines[0].startswith("Botan +12 → 32: recognition 4 of 5, ")
    assert "Panda disc to 7" in lines[0] and "leads the Panda" in lines[0] and "leads the Fox" in lines[0]
    assert "buys for Samurai" in lines[0]
    assert "You lose the lead on: Fox" in lines
    assert "Botan has 4 of 5 recognitions: one more triggers the end." in lines


def test_a_story_longer_than_a_message_drops_tile_names_then_whole_lines_never_half_a_line():
    view = {"side": "basic", "players": [{"name": "Aiko", "recognitions": 0, "leads": []}]}
    events = []
    for i in range(60):
        k = ("princess", "batchan", "fisherman", "samurai", "sumotori")[i % 5]
        events.append({"kind": "kokeshi_moved", "player": "Aiko", "data": {"kokeshi": k, "start": 0, "to": 1}})
        events.append({"kind": "tile_activated", "player": "Aiko", "data": {"kokeshi": k, "tile": "n05", "height": 1}})
        events.append({"kind": "effect_chosen", "player": "Aiko", "data": {"tile": "n05", "side": 0}})
    full = story.turn_story(events, view, view)
    assert len(full) == 60 and all("tile (" in line for line in full)
    short = story.turn_story(events, view, view, limit=1700)
    assert sum(len(line) + 3 for line in short) <= 1700
    assert short[-1].startswith("…and ") and short[-1].endswith("more lines (`/kokeshi log` has them all)")
    # Tile names went first; each line kept is whole: a move, its tile and the side chosen.
    assert all(re.fullmatch(r"\w+ 0→1 → tile → chooses: \w.+", line) for line in short[:-1]), short
    # At the platform's table, the same lines point to its log.
    there = story.turn_story(events, view, view, limit=1700, games_log=True)
    assert there[:-1] == short[:-1] and there[-1].endswith("more lines (`/games log` has them all)")


def test_an_idle_turn_counted_by_the_end_against_stalling_is_told():
    view = {"side": "basic", "players": [{"name": "Aiko", "recognitions": 0, "leads": []}]}
    events = [
        {"kind": "top_passed", "player": "Aiko", "data": {"kokeshi": "samurai", "height": 7, "points": 3}},
        {"kind": "idle_turn", "player": "Aiko", "data": {"count": 5, "limit": 8}},
    ]
    assert story.turn_story(events, view, view) == ["Samurai 7→top: +3, home", "An idle turn: 5 of 8"]
