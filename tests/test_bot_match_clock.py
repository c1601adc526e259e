"""A fair clock at the other games' table, on SimCord's clock: time banks charged and shown, each person of a
simultaneous turn on their own bank, the opponents' choice after a third expired turn (each answer, and none), the
AI taking the seat when nobody else is there to ask, and `/games rejoin`."""

from __future__ import annotations

import random

import pytest

from bot import create_bot
from cogs.clock import CHOICE_SECONDS
from tests.botkit import components, custom_ids, lobby_message, message_in, restart, texts
from tests.test_bot_match_refusals import bid_round
from tests.test_bot_match_turns import bid, stamp, timeouts
from tests.test_bot_matches import choose, current_prompt, open_table, reply
from tests.test_bot_refusals import lift, refuse, wait

HOUR = 3600
MINUTE = 60
# The "1h" bank: one hour, ten minutes more after each turn, at most two hours.
BANK, STEP = HOUR, 10 * MINUTE


def clock(w) -> float:
    return w.env.now().timestamp()


async def deadline(w, game_id: int) -> float:
    return next(t.due_at for t in await w.store.timers(game_id) if t.kind == "deadline")


async def seat_of(w, game_id: int, member):
    return (await w.store.get_game(game_id)).seat_of(member.user.id)


async def waiting(w, game_id: int) -> tuple[int, ...]:
    match, _version, _record = await w.store.load_match(game_id)
    return match.waiting()


async def answer_all(w, game_id: int, thread, member, rng: random.Random) -> None:
    """`member` answers everything the game asks of them (privately when it asks so) until it waits for them no
    more."""
    for _ in range(100):
        seat = await seat_of(w, game_id, member)
        record = await w.store.get_game(game_id)
        if record.status != "active" or seat.seat not in await waiting(w, game_id):
            return
        prompt = await current_prompt(w, game_id, thread)
        secret = [c for c in custom_ids(prompt) if c.startswith("mt:c:")]
        where = reply(await member.click(prompt, custom_id=secret[0])) if secret else prompt
        assert (await choose(member, where, rng)).acknowledged
    raise AssertionError("the game kept asking")


def asked(thread):
    return next(m for m in thread.history() if "what now?" in m.content)


def choice_id(game_id: int, seat, answer: str) -> str:
    return f"kk:c:{game_id}:{seat.seat}:{answer}"


async def three_expired(w, **options):
    """A 2-person Kōhaku table with a 1-hour deadline whose first player let three turns in a row run out:
    (game id, thread, the sleeper, the other player)."""
    rng = random.Random(7)
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=1, deadline=HOUR, **options)
    record = await w.store.get_game(game_id)
    mover = (await waiting(w, game_id))[0]
    first = next(s for s in record.seats if s.seat == mover)
    sleeper = next(m for m in w.members if m.user.id == first.user_id)
    player = next(m for m in w.members[:2] if m is not sleeper)
    for expired in (1, 2, 3):
        await answer_all(w, game_id, thread, player, rng)
        assert (await seat_of(w, game_id, sleeper)).seat in await waiting(w, game_id)
        await w.env.advance_time(await deadline(w, game_id) - clock(w))
        assert (await seat_of(w, game_id, sleeper)).expired == expired
        assert len(timeouts(thread)) == expired
    return game_id, thread, sleeper, player


# ---------------------------------------------------------------------- the bank


@pytest.mark.slow
async def test_a_bank_table_says_its_bank_charges_each_bid_and_a_turn_left_to_one_person_runs_on_their_bank(
    world, bids
):
    w = world
    aiko, botan = w.members[:2]
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, clock="1h")
    record = await w.store.get_game(game_id)
    assert record.settings["clock"] == "1h" and record.turn_timer == BANK
    assert "time bank: 1 h, +10 min after each turn, at most 2 h" in (await lobby_message(w, game_id)).content
    start = clock(w)
    assert await deadline(w, game_id) == start + BANK
    # Both bid at once: the prompt shows both banks.
    assert "⏳ Time banks: aiko 1 h · botan 1 h." in (await current_prompt(w, game_id, thread)).content

    # Botan bids at once, aiko after half an hour: each bank is charged its own time, then the step is added.
    await bid(w, botan, game_id, thread)
    assert (await w.store.banks(game_id))["botan"] == BANK + STEP
    assert await deadline(w, game_id) == start + BANK  # aiko's bank, still running
    await w.env.advance_time(30 * MINUTE)
    await bid(w, aiko, game_id, thread)
    assert await w.store.banks(game_id) == {"aiko": BANK - 30 * MINUTE + STEP, "botan": BANK + STEP}
    # The next turn runs out first on aiko's 40 minutes; the prompt and `/games status` say what is left.
    assert await deadline(w, game_id) == clock(w) + 40 * MINUTE
    assert "⏳ Time banks: aiko 40 min · botan 1 h 10 min." in (await current_prompt(w, game_id, thread)).content
    status = await aiko.slash(w.channel, "games status")
    line = next(t for t in reply(status).content.splitlines() if f"#{game_id}" in t)
    # And what the other has left: how long they may still take.
    assert "⏳ 40 min in your bank (botan 1 h 10 min)" in line

    # Nobody bids. Halfway to the deadline both are reminded, each of their own bank.
    await w.env.advance_time(20 * MINUTE)
    half = [m for m in thread.history() if m.content.startswith("⏰")][-1]
    assert aiko.mention in half.content and botan.mention in half.content
    assert "You have" not in half.content and "⏳ Time banks: aiko 20 min · botan 50 min." in half.content
    # At 40 minutes aiko's bank is empty and the AI bids for aiko alone; botan goes on, on theirs.
    await w.env.advance_time(20 * MINUTE)
    assert timeouts(thread) == ["Time ran out for **aiko**: the AI decided in their place."]
    assert await waiting(w, game_id) == (1,)
    assert (await w.store.banks(game_id))["aiko"] == STEP
    assert await deadline(w, game_id) == clock(w) + 30 * MINUTE
    assert f"Decide by {stamp(clock(w) + 30 * MINUTE)}." in (await current_prompt(w, game_id, thread)).content
    assert (await seat_of(w, game_id, aiko)).expired == 1 and (await seat_of(w, game_id, botan)).expired == 0
    await w.env.advance_time(30 * MINUTE - 1)
    assert len(timeouts(thread)) == 1
    await w.env.advance_time(1)
    assert timeouts(thread)[1] == "Time ran out for **botan**: the AI decided in their place."
    assert await w.store.verify() == []
    assert w.env.errors == []


@pytest.mark.slow
async def test_a_kohaku_turn_is_charged_once_when_it_ends_and_its_deadline_holds_until_then(world):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy", clock="1h")
    start = clock(w)
    assert (await seat_of(w, game_id, aiko)).seat in await waiting(w, game_id)
    assert "⏳ 1 h left in your bank." in (await current_prompt(w, game_id, thread)).content
    await w.env.advance_time(20 * MINUTE)
    rng = random.Random(4)
    steps = 0
    turn = (await w.store.load_match(game_id))[0].turn_key()
    while (await w.store.load_match(game_id))[0].turn_key() == turn:
        # Within the turn (however many steps it has) the bank is not charged yet, and the deadline stays put.
        assert await w.store.banks(game_id) == {"aiko": BANK}
        assert await deadline(w, game_id) == start + BANK
        prompt = await current_prompt(w, game_id, thread)
        secret = [c for c in custom_ids(prompt) if c.startswith("mt:c:")]
        where = reply(await aiko.click(prompt, custom_id=secret[0])) if secret else prompt
        assert (await choose(aiko, where, rng)).acknowledged
        steps += 1
    # The turn is over (the AI seat played its own, and it is aiko's again): charged once, the step added once.
    assert steps >= 1 and (await seat_of(w, game_id, aiko)).seat in await waiting(w, game_id)
    assert await w.store.banks(game_id) == {"aiko": BANK - 20 * MINUTE + STEP}
    assert await deadline(w, game_id) == clock(w) + BANK - 20 * MINUTE + STEP
    assert await w.store.verify() == []
    assert w.env.errors == []


async def test_the_bank_survives_a_restart_in_the_middle_of_a_turn(world, bids, db_path):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, clock="1h")
    start = clock(w)
    await w.env.advance_time(15 * MINUTE)
    await restart(w, create_bot(db_path))
    assert await w.store.bank_left(game_id, "aiko") == BANK - 15 * MINUTE
    await w.env.advance_time(45 * MINUTE)
    assert clock(w) == start + BANK and len(timeouts(thread)) == 1
    assert await w.store.banks(game_id) == {"aiko": STEP, "botan": STEP}
    assert w.env.errors == []


@pytest.mark.slow
async def test_a_turn_nobody_could_see_while_discord_refused_its_posts_charges_no_bank(world, bids):
    w = world
    game_id, thread = await open_table(w, "bids", players=2, joiners=1, clock="1h")
    for member in w.members[:2]:
        await bid(w, member, game_id, thread)
    assert await w.store.banks(game_id) == {"aiko": BANK + STEP, "botan": BANK + STEP}
    # The next turn's post is refused for two hours: its clock stops, and its banks with it.
    for method in ("POST", "PATCH"):
        refuse(w, method, f"/channels/{thread.id}/messages*", 403, 50013, "Missing Permissions")
    # Both bids land; the thread cannot show what follows.
    await bid_round(w, game_id, thread, random.Random(1))
    assert {t.kind for t in await w.store.timers(game_id)} == {"repost"}
    await wait(w, 2 * HOUR)
    assert timeouts(thread) == []
    lift(w)
    w.env.backend.announce_channel_update(w.channel.id)
    await w.env.advance_time(10)
    assert await w.store.reach(game_id) is None
    left = await w.store.bank_left(game_id, "aiko")
    assert BANK + 2 * STEP - 10 <= left <= BANK + 2 * STEP
    assert clock(w) + BANK + 2 * STEP - 10 <= await deadline(w, game_id) <= clock(w) + BANK + 2 * STEP
    assert w.env.errors == []


async def test_a_solo_table_keeps_its_deadline_and_takes_no_bank(world):
    w = world
    game_id, _thread = await open_table(w, "kohaku", players=1, joiners=0, clock="1h", deadline=HOUR * 24)
    record = await w.store.get_game(game_id)
    assert "clock" not in record.settings and record.turn_timer == 24 * HOUR
    assert await w.store.banks(game_id) == {}


# ---------------------------------------------------------------------- the opponents' choice


@pytest.mark.slow  # several turns run out, each played for through SimCord
async def test_after_a_third_expired_turn_the_other_person_chooses_to_wait_with_buttons_that_survive_a_restart(
    world, db_path
):
    w = world
    game_id, thread, sleeper, player = await three_expired(w)
    question = asked(thread)
    assert player.mention in question.content and player.user.id in [u.id for u in question.mentions]
    seat = await seat_of(w, game_id, sleeper)
    assert not seat.ai
    await restart(w, create_bot(db_path))
    # The player whose seat it is cannot answer, nor can someone from outside the table.
    for member in (sleeper, w.members[2]):
        refused = await member.click(question, custom_id=choice_id(game_id, seat, "end"))
        assert refused.ephemeral and "Only the other players of Kōhaku" in reply(refused).content
    waited = await player.click(question, custom_id=choice_id(game_id, seat, "wait"))
    assert waited.ephemeral and f"{sleeper.user.name} keeps their seat" in reply(waited).content
    held = await seat_of(w, game_id, sleeper)
    assert not held.ai and held.expired == 0
    assert any("chose to wait" in t for t in texts(thread))
    assert components(message_in(thread, question.id)) == []
    # Decided once: an answer that comes after changes nothing.
    assert (await w.store.seat_choice(game_id, seat.name)).answer == "wait"
    assert not await w.store.answer_choice(game_id, seat.name, "ai")
    assert not (await seat_of(w, game_id, sleeper)).ai
    assert w.env.errors == []


@pytest.mark.slow  # several turns run out, each played for through SimCord
async def test_the_other_person_may_hand_the_seat_to_the_ai_and_its_player_rejoins(world):
    w = world
    game_id, thread, sleeper, player = await three_expired(w)
    seat = await seat_of(w, game_id, sleeper)
    # Answered while the game waits for the seat again: the AI takes that decision at once, and the game goes on.
    await answer_all(w, game_id, thread, player, random.Random(2))
    assert await waiting(w, game_id) == (seat.seat,)
    handed = await player.click(asked(thread), custom_id=choice_id(game_id, seat, "ai"))
    assert "the AI plays" in reply(handed).content
    assert (await seat_of(w, game_id, sleeper)).ai
    assert seat.seat not in await waiting(w, game_id)
    assert player.mention in (await current_prompt(w, game_id, thread)).content
    assert any("chose to let the AI play" in t for t in texts(thread))
    offered = await sleeper.autocomplete(w.channel, "games rejoin", "game", "")
    assert [c["value"] for c in offered] == [game_id] and offered[0]["name"] == f"Kōhaku #{game_id}"

    back = await sleeper.slash(w.channel, "games rejoin")
    assert back.ephemeral and f"Welcome back to Kōhaku #{game_id}" in reply(back).content
    held = await seat_of(w, game_id, sleeper)
    assert not held.ai and held.expired == 0
    assert any("is back" in t for t in texts(thread))
    # From their next turn the prompt is theirs again, with its deadline.
    await answer_all(w, game_id, thread, player, random.Random(3))
    assert seat.seat in await waiting(w, game_id)
    assert sleeper.mention in (await current_prompt(w, game_id, thread)).content
    assert await deadline(w, game_id) == clock(w) + HOUR
    again = await sleeper.slash(w.channel, "games rejoin", game=game_id)
    assert again.ephemeral and "You still hold your seat in Kōhaku" in reply(again).content
    assert w.env.errors == []


@pytest.mark.slow  # several turns run out, each played for through SimCord
async def test_the_other_person_may_end_the_game_unrated(world):
    w = world
    game_id, thread, sleeper, player = await three_expired(w)
    seat = await seat_of(w, game_id, sleeper)
    ended = await player.click(asked(thread), custom_id=choice_id(game_id, seat, "end"))
    assert f"Kōhaku #{game_id} is over, unrated" in reply(ended).content
    assert (await w.store.get_game(game_id)).status == "cancelled"
    assert await w.store.results(game_id) == [] and await w.store.timers(game_id) == []
    assert any(f"ended Kōhaku #{game_id}: it is unrated" in t for t in texts(thread))
    assert not any(c.startswith("mt:") for c in custom_ids(await current_prompt(w, game_id, thread)))
    assert w.env.errors == []


@pytest.mark.slow  # several turns run out, each played for through SimCord
async def test_without_an_answer_in_a_day_the_ai_plays_the_seat(world):
    w = world
    game_id, thread, sleeper, player = await three_expired(w)
    # The other player is away, so nobody answers (and their own turn waits for them meanwhile).
    assert (await player.slash(w.channel, "games away", duration="2d")).acknowledged
    await w.env.advance_time(CHOICE_SECONDS - 1)
    assert not (await seat_of(w, game_id, sleeper)).ai
    await w.env.advance_time(1)
    assert (await seat_of(w, game_id, sleeper)).ai
    assert (await w.store.seat_choice(game_id, sleeper.user.name)).answer == "none"
    assert any("Nobody chose in time" in t for t in texts(thread))
    assert components(message_in(thread, asked(thread).id)) == []
    assert w.env.errors == []


@pytest.mark.slow  # several turns run out, each played for through SimCord
async def test_a_player_who_plays_again_before_anyone_answers_is_back_and_there_is_nothing_to_choose(world):
    w = world
    rng = random.Random(13)
    game_id, thread, sleeper, player = await three_expired(w)
    question = asked(thread)
    seat = await seat_of(w, game_id, sleeper)
    await answer_all(w, game_id, thread, player, rng)
    await answer_all(w, game_id, thread, sleeper, rng)
    assert (await seat_of(w, game_id, sleeper)).expired == 0
    late = await player.click(question, custom_id=choice_id(game_id, seat, "ai"))
    assert late.ephemeral and "nothing to choose" in reply(late).content
    assert not (await seat_of(w, game_id, sleeper)).ai
    assert (await w.store.seat_choice(game_id, sleeper.user.name)).answer == "back"
    assert w.env.errors == []


@pytest.mark.slow  # the AI then plays the whole game out
async def test_with_nobody_else_at_the_table_the_ai_takes_the_seat_for_good_after_three_as_at_kokeshis(world):
    w = world
    aiko = w.members[0]
    game_id, thread = await open_table(w, "kohaku", players=2, joiners=0, ai=1, level="easy", deadline=HOUR)
    for expired in (1, 2, 3):
        assert (await seat_of(w, game_id, aiko)).seat in await waiting(w, game_id)
        await w.env.advance_time(await deadline(w, game_id) - clock(w))
        if expired < 3:
            assert (await seat_of(w, game_id, aiko)).expired == expired
    # Nobody to ask: the AI plays aiko's seat from then on, so the AI plays the game out, and aiko timed out.
    assert "After 3 turns in a row, the AI now plays **aiko**'s seat for good." in timeouts(thread)[-1]
    assert not any("what now?" in t for t in texts(thread))
    assert (await w.store.get_game(game_id)).status == "finished"
    [mine] = [r for r in await w.store.results(game_id) if r.user_id == aiko.user.id]
    assert mine.ai and not mine.resigned
    # Its rounds are told a post each at the channel's rate, then its end.
    for _ in range(30):
        await w.env.advance_time(5)
    assert "is over" in thread.history()[-1].content
    over = await aiko.slash(w.channel, "games rejoin", game=game_id)
    assert over.ephemeral and f"Kōhaku #{game_id} is over" in reply(over).content
    assert w.env.errors == []


@pytest.mark.slow
async def test_rejoin_refuses_privately_and_changes_nothing_when_there_is_no_seat_to_take_back(world):
    w = world
    game_id, thread, sleeper, player = await three_expired(w)
    outsider = w.members[2]

    async def refused(member, why: str, **options) -> None:
        before = (await w.store.get_game(game_id)).seats
        result = await member.slash(w.channel, "games rejoin", **options)
        assert result.ephemeral and why in reply(result).content, reply(result).content
        assert (await w.store.get_game(game_id)).seats == before

    await refused(outsider, "You did not play in Kōhaku", game=game_id)
    await refused(outsider, "There is no game #999", game=999)
    await refused(sleeper, "You still hold your seat", game=game_id)
    await refused(sleeper, "nothing to rejoin")
    assert (await player.slash(thread, "games resign")).acknowledged
    await refused(player, "You resigned", game=game_id)
    assert w.env.errors == []
