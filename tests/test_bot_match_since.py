"""Since your last turn at the other games' table: one private answer with what happened, the table and the choices."""

from __future__ import annotations

import random

import pytest

import games
from bot import create_bot
from cogs.limits import MESSAGE
from cogs.since import fit, recap, since_last_turn, story
from games.base import Match
from storage import MatchDecision
from tests.botkit import custom_ids, restart
from tests.games import tiny
from tests.test_bot_language import locales  # noqa: F401  (the fixture giving each person a language)
from tests.test_bot_matches import choose, current_prompt, open_table, reply


def since_id(message) -> str:
    return next(c for c in custom_ids(message) if c.startswith("mt:w:"))


async def test_a_returning_player_sees_what_the_others_did_privately_and_chooses_from_there(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    aiko = w.members[0]
    rng = random.Random(4)
    # Aiko plays her first turn; the AI plays its own; her turn comes back.
    await choose(aiko, await current_prompt(w, game_id, thread), rng)
    while (await w.store.match_decisions(game_id))[-1].seat == 0:
        await choose(aiko, await current_prompt(w, game_id, thread), rng)
    post = await current_prompt(w, game_id, thread)
    assert f"<@{aiko.user.id}>" in post.content
    assert since_id(post) == f"mt:w:{game_id}"
    posts = len(thread.history())
    asked = await aiko.click(post, custom_id=since_id(post))
    answer = reply(asked)
    assert asked.ephemeral and "since your last turn" in answer.content
    # Every line the game's narration tells of the AI's turn (and of what aiko's last decision did) is there.
    decisions = await w.store.match_decisions(game_id)
    window = since_last_turn(decisions, 0)
    assert window[0].seat == 0 and any(d.seat == 1 for d in window)
    record = await w.store.get_game(game_id)
    lines = story(games.get("kohaku"), window, [s.name for s in sorted(record.seats, key=lambda s: s.seat)])
    assert lines and all(line in answer.content for line in lines)
    assert "Your turn:" in answer.content
    assert answer.attachments and (await answer.attachments[0].read()).startswith(b"\x89PNG")
    # Nothing was posted in the thread for it.
    assert len(thread.history()) == posts
    # The choices came with it: one tap more and the turn is played from the private answer.
    before = (await w.store.get_game(game_id)).moves
    chosen = await choose(aiko, answer, rng)
    assert chosen.acknowledged
    assert (await w.store.get_game(game_id)).moves > before


async def test_someone_not_seated_is_refused(world):
    w = world
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy")
    post = await current_prompt(w, game_id, thread)
    refused = await w.members[2].click(post, custom_id=since_id(post))
    assert refused.ephemeral and "not playing" in reply(refused).content
    assert not reply(refused).attachments


async def test_simultaneous_secret_bids_stay_secret_in_the_answer(world, bids):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    aiko, botan = w.members[:2]
    rng = random.Random(2)
    post = await current_prompt(w, game_id, thread)
    assert [c.split(":")[:2] for c in custom_ids(post)] == [["mt", "c"], ["mt", "w"]]
    # A first round by both, then botan bids secretly in the second.
    for member in (aiko, botan, botan):
        await bid(w, game_id, thread, member, rng)
    botan_bid = (await w.store.match_decisions(game_id))[-1].action
    post = await current_prompt(w, game_id, thread)
    asked = await aiko.click(post, custom_id=since_id(post))
    answer = reply(asked)
    assert asked.ephemeral
    # The first prize's end is told; botan's waiting bid is not, in any form.
    assert "takes" in answer.content and "Your turn:" in answer.content
    assert botan_bid not in answer.content and tiny.MODULE.label({}, _option(botan_bid)) not in answer.content
    # Botan has nothing to choose now: the table as anyone sees it, no choices.
    told = reply(await botan.click(post, custom_id=since_id(post)))
    assert "Waiting for" in told.content and not [c for c in custom_ids(told) if c.startswith("mt:a:")]


async def bid(w, game_id: int, thread, member, rng: random.Random) -> None:
    """`member` bids: privately when both still bid, else on the post that asks them alone."""
    post = await current_prompt(w, game_id, thread)
    if custom_ids(post)[0].startswith("mt:c:"):
        post = reply(await member.click(post, custom_id=custom_ids(post)[0]))
    assert (await choose(member, post, rng)).acknowledged


def _option(action: str):
    card = int(action.split(":")[1])
    return next(o for o in tiny.MODULE.deal({}, 1, 2).prompts()[0].options if o.code == ("bid", card))


@pytest.mark.slow
async def test_the_since_button_works_after_a_restart(world, bids, db_path):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    post = await current_prompt(w, game_id, thread)
    await restart(w, create_bot(db_path))
    asked = await w.members[1].click(post, custom_id=since_id(post))
    answer = reply(asked)
    assert asked.ephemeral and "everything since the game began" in answer.content
    assert answer.attachments and [c for c in custom_ids(answer) if c.startswith("mt:a:")]
    assert w.env.errors == []


# ---------------------------------------------------------------- nothing secret, any seed


def decisions_of(match: Match, played: list[tuple[int, str]]) -> list[MatchDecision]:
    """The decisions `played` applied to `match`, as the store logs them."""
    out = []
    for seq, (seat, action) in enumerate(played, start=1):
        before = match.turn_key()
        events = match.apply(seat, action)
        out.append(MatchDecision(seq, seat, action, tuple(events), match.turn_key() != before or match.is_over))
    return out


class Seen(tiny.BidsModule):
    """Bids noting every view its pictures are drawn from."""

    def __init__(self) -> None:
        self.views: list[dict] = []

    def decision_picture(self, view, names, seat, events=()):
        self.views.append(dict(view))
        return super().decision_picture(view, names, seat, events)

    def table_picture(self, view, names, events=()):
        self.views.append(dict(view))
        return super().table_picture(view, names, events)


@pytest.mark.parametrize("seats", [2, 3])
@pytest.mark.slow
def test_no_since_answer_shows_another_seats_waiting_bid_for_any_seed(seats):
    names = ["aiko", "botan", "chiyo"][:seats]
    for seed in range(60):
        rng = random.Random(seed)
        module = Seen()
        match = module.deal({}, seed, seats)
        played: list[tuple[int, str]] = []
        for _round in range(rng.randrange(len(tiny.PRIZES))):
            for seat in range(seats):
                played.append((seat, rng.choice(match.legal_actions(seat))))
                match.apply(*played[-1])
        # The others bid this round in secret; seat 0 has not.
        others = [(seat, match.legal_actions(seat)) for seat in range(1, seats)]
        answers = set()
        for variant in range(4):
            chosen = [(seat, hand[(variant + seat) % len(hand)]) for seat, hand in others]
            copy = module.deal({}, seed, seats)
            log = decisions_of(copy, [*played, *chosen])
            module.views = []
            told = recap(module, copy, log, 0, names, 7, "**aiko**")
            # Drawn from seat 0's own view only (or a spectator's): never a view holding another's bid.
            assert all(v == copy.view(0) or v == copy.view(None) for v in module.views), seed
            answers.add((told.text, told.picture, told.alt))
            for _seat, action in chosen:
                assert tiny.MODULE.label({}, _option(action)) not in told.text
        # The answer is the same whatever the others bid: it cannot tell their bids.
        assert len(answers) == 1, (seed, seats)


def test_the_window_starts_at_the_seats_last_decision_of_a_finished_turn():
    match = tiny.MODULE.deal({}, 3, 2)
    log = decisions_of(match, [(0, "bid:1"), (1, "bid:2"), (1, "bid:3")])
    # Round 1 is over (botan's bid ended it); in round 2 botan has bid, aiko not.
    assert [d.seq for d in since_last_turn(log, 0)] == [1, 2, 3]
    assert [d.seq for d in since_last_turn(log, 1)] == [2, 3]
    assert since_last_turn(log[:1], 1) == log[:1]  # no finished turn yet: the whole game


async def test_the_answer_is_in_the_clicking_players_language(world, bids, locales):  # noqa: F811
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1)
    locales[w.members[1].id] = "pt-BR"
    post = await current_prompt(w, game_id, thread)
    answer = reply(await w.members[1].click(post, custom_id=since_id(post)))
    assert "tudo desde o começo da partida" in answer.content and "Sua vez:" in answer.content
    assert "Seu lance secreto" in answer.content  # the game's own words, in that language
    # The other player, in English, is told in English.
    english = reply(await w.members[0].click(post, custom_id=since_id(post)))
    assert "everything since the game began" in english.content


def test_a_long_absence_keeps_the_newest_lines_within_one_message():
    lines = [f"Player {n % 4} placed tile {n}: +{n % 7} points." for n in range(400)]
    text = fit("head", lines, ["**Your turn:** which?"])
    assert len(text) <= MESSAGE
    assert text.startswith("head\n… ") and "earlier lines" in text.splitlines()[1]
    assert text.endswith("**Your turn:** which?") and f"• {lines[-1]}" in text
    dropped = int(text.splitlines()[1].split()[1])
    assert text.count("\n• ") == len(lines) - dropped and f"• {lines[dropped]}\n" in text
    assert fit("head", lines[:3], []) == "head\n" + "\n".join(f"• {line}" for line in lines[:3])
