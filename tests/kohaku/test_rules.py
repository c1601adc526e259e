"""Kōhaku's rules, one test per rule, each quoting the sentence of the Polish rulebook it implements."""

from __future__ import annotations

import hashlib
import random

import pytest

from games.kohaku import DANNY, IllegalAction, Match, deal
from games.kohaku.data import (
    BOARD_PAIRS,
    CENTRE_FEATURE,
    CENTRE_KOI,
    FEATURES,
    FLOWER,
    IS_KOI,
    KIND_OF,
    KOI,
    KOI_SPACE,
    TILE_BY_ID,
    TILES,
)
from games.kohaku.persist import load_match
from games.kohaku.rules import EMPTY, danny_scores, place_id
from games.kohaku.scoring import cell, xy

from .kit import feature, koi, new, play_randomly, pond


def in_play(m: Match) -> list[int]:
    """Every koi tile the match uses: stack, box, board, ponds, hand and Danny's."""
    tiles = m.koi_stack + m.box + [t for t in m.board if t != EMPTY] + m.hand + m.danny
    for p in m.ponds:
        tiles += list(p.values())
    return [t for t in tiles if IS_KOI[t]]


# ---------------------------------------------------------------------- set-up


@pytest.mark.parametrize(
    ("seats", "marks", "unseen"),
    [(2, {0}, 7), (3, {0, 3}, 5), (4, {0, 3, 4}, 5), (1, {0}, 0)],
)
def test_setup_leaves_out_the_marked_koi_and_some_unseen_ones(seats, marks, unseen):
    # 2: "odłóżcie do pudełka wszystkie płytki ryb z 3 i 4 kamieniami w rogu, … a następnie 7 z nich bez
    # podglądania odłóżcie do pudełka"; 3: "wszystkie płytki ryb z 4 kamieniami w rogu, … 5 z nich"; 4: "wszystkie
    # płytki ryb zakryjcie, dokładnie wymieszajcie, a następnie 5 z nich bez podglądania odłóżcie do pudełka";
    # solo: "odłóż do pudełka wszystkie płytki ryb z 3 i 4 kamieniami w rogu, … (żadnych z nich nie odkładaj do
    # pudełka)"
    m = new(seats, seed=7)
    tiles = in_play(m)
    assert {TILES[t].stones for t in tiles} == marks
    assert len(tiles) == sum(1 for t in KOI if TILES[t].stones in marks)
    assert len(m.box) == unseen
    assert m.view(0)["box"] == unseen


@pytest.mark.parametrize(
    ("seats", "seed", "digest"),
    [
        (1, 21, "cb110e33e274e4354b68c24efa43e8bd12bed7e1ad23adc2b8f4bd1c1d1c79fa"),
        (2, 22, "f87fabcff236200defb5a6b58f1f14eb61ea6567e220d5fe9677995d8909530e"),
        (3, 23, "e7f3dcd90bb8d3abeb10339ae6c119b6123fba4ab20563f9404ff49e21697bb0"),
        (4, 24, "30944dda2503f3bacaec6cc537d2f964244b0156be4c94e1e909368b805c4b8b"),
    ],
)
def test_a_game_under_rules_1_deals_and_plays_as_it_always_did(seats, seed, digest):
    # Digests of whole seeded games recorded before rules version 2 changed the reconstructed stone marks.
    m = deal(seats, seed=seed, goals=seats == 3, rules=1)
    rng = random.Random(seed)
    while not m.is_over:
        seat = m.waiting()[0]
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    assert m.turns == [{1: 16, 2: 16, 3: 14, 4: 12}[seats]] * seats
    assert hashlib.sha256(m.to_json().encode()).hexdigest() == digest
    assert load_match(m.to_json()) == m


def test_setup_uses_every_feature_whatever_the_number_of_players():
    # "Niezależnie od liczby graczy wszystkie płytki ozdób biorą udział w grze."
    for seats in (1, 2, 3, 4):
        m = new(seats, seed=3)
        features = m.feature_stack + [t for t in m.board if not IS_KOI[t]]
        assert sorted(features) == sorted(FEATURES)


def test_setup_lays_six_koi_on_fish_spaces_and_six_features_on_lilies():
    # "weźcie 6 płytek ryb ze stosu ryb i 6 płytek ozdób ze stosu ozdób i rozłóżcie je losowo na 12 polach
    # planszy: płytki ryb na 6 polach z rysunkiem ryb, płytki ozdób na 6 polach z rysunkiem lilii wodnych"
    m = new(2, seed=11)
    assert sum(KOI_SPACE) == 6
    for space, tile in enumerate(m.board):
        assert IS_KOI[tile] == KOI_SPACE[space]
    # "Dzięki temu płytki ryb i płytki ozdób leżą na planszy naprzemiennie."
    for a, b in BOARD_PAIRS:
        assert KOI_SPACE[a] != KOI_SPACE[b]


def test_goal_cards_stay_in_the_box_in_the_base_game():
    # "Karty celów odłóżcie do pudełka. Nie są używane w podstawowej wersji rozgrywki."
    m = new(3)
    assert m.phase == "take" and "goal_cards" not in m.view(0)


def test_the_first_seat_is_drawn_and_play_goes_round_the_table():
    # "Rozgrywkę rozpoczyna gracz, który ostatnio był w Japonii …, a następnie gra toczy się zgodnie z kierunkiem
    # ruchu wskazówek zegara." A bot cannot know who travelled: the first seat is drawn.
    firsts = {deal(4, seed=s).current for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    m = deal(3, seed=5)
    order = []
    for _ in range(6):
        order.append(m.current)
        seat = m.current
        m.apply(seat, "t:1-2")
        while m.current == seat and not m.is_over:
            m.apply(seat, m.legal_actions(seat)[0])
    assert order == [(order[0] + i) % 3 for i in range(6)]


def test_solo_starts_with_the_player():
    # "Grę rozpoczynasz od swojej tury."
    assert all(deal(1, seed=s).waiting() == (0,) for s in range(5))


# ---------------------------------------------------------------------- the turn


def test_a_turn_takes_two_touching_tiles_one_koi_one_feature():
    # "wybierasz z planszy 2 płytki – muszą one ze sobą sąsiadować w pionie lub poziomie. Zawsze będzie to
    # 1 płytka ryb i 1 płytka ozdób"
    m = new(2)
    options = m.legal_actions()
    assert len(options) == 17
    for action in options:
        a, b = (int(v) - 1 for v in action[2:].split("-"))
        ra, ca = divmod(a, 4)
        rb, cb = divmod(b, 4)
        assert abs(ra - rb) + abs(ca - cb) == 1
        assert KOI_SPACE[a] != KOI_SPACE[b]
    with pytest.raises(IllegalAction) as err:
        m.apply(m.current, "t:1-3")
    assert err.value.code == "illegal"


def test_the_first_two_tiles_lie_side_by_side():
    # "2 pierwsze płytki w twoim stawie muszą więc leżeć obok siebie" — every such start is the same pond turned
    # or mirrored, so the engine places them: the koi at (0, 0), the feature to its right.
    m = new(2)
    seat = m.current
    events = m.apply(seat, "t:6-7")
    placed = [e for e in events if e.kind == "placed"]
    assert [(e.data["x"], e.data["y"], e.data["forced"]) for e in placed] == [(0, 0, True), (1, 0, True)]
    assert IS_KOI[m.ponds[seat][cell(0, 0)]] and not IS_KOI[m.ponds[seat][cell(1, 0)]]


def _second_turn(seats: int = 2, seed: int = 1) -> tuple[Match, int]:
    """A match at the start of a seat's second turn (its pond: koi at (0, 0), feature at (1, 0))."""
    m = new(seats, seed=seed)
    first = m.current
    for _ in range(seats):
        m.apply(m.current, "t:1-2")
    assert m.current == first and m.phase == "take"
    m.apply(first, "t:1-2")
    assert m.phase == "place"
    return m, first


def test_tiles_alternate_in_the_pond():
    # "Płytki ryb i płytki ozdób muszą leżeć w stawie naprzemiennie (podobnie jak na planszy)."
    m, seat = _second_turn()
    for action in m.legal_actions(seat):
        x, y = (int(v) for v in action.split(":")[1:])
        tile = m.hand[0] if (x + y) % 2 == 0 else m.hand[1]
        assert IS_KOI[tile] == ((x + y) % 2 == 0)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            neighbour = m.ponds[seat].get(cell(x + dx, y + dy))
            assert neighbour is None or IS_KOI[neighbour] != IS_KOI[tile]


def test_each_tile_must_touch_the_pond():
    # "Każda płytka dokładana do stawu musi sąsiadować (czyli stykać się przynajmniej 1 bokiem) z inną płytką
    # leżącą już w stawie"
    m, seat = _second_turn()
    assert sorted(m.legal_actions(seat)) == sorted(
        place_id(cell(x, y)) for x, y in [(-1, 0), (0, -1), (0, 1), (2, 0), (1, -1), (1, 1)]
    )
    with pytest.raises(IllegalAction) as err:
        m.apply(seat, "p:4:0")
    assert err.value.code == "illegal"
    with pytest.raises(IllegalAction):
        m.apply(seat, "p:0:0")  # taken


def test_the_two_tiles_need_not_touch_each_other():
    # "w dalszej części gry 2 dokładane płytki nie muszą leżeć obok siebie (muszą jednak stykać się przynajmniej
    # 1 bokiem z inną płytką w stawie)"
    m, seat = _second_turn()
    m.apply(seat, "p:2:0")  # the koi, to the right
    m.apply(seat, "p:-1:0")  # the feature, to the left: not touching the new koi
    assert len(m.ponds[seat]) == 4


def test_the_second_tile_may_touch_only_the_first():
    # "Każda płytka dokładana do stawu musi sąsiadować … z inną płytką leżącą już w stawie" with "2 pierwsze
    # płytki w twoim stawie muszą więc leżeć obok siebie": a tile placed this turn is already in the pond.
    m, seat = _second_turn()
    m.apply(seat, "p:2:0")
    assert "p:3:0" in m.legal_actions(seat)  # touches only the koi just placed
    m.apply(seat, "p:3:0")
    assert xy(max(m.ponds[seat])) == (3, 0)


def test_the_pond_takes_any_shape_and_large_choices_are_split_into_zones():
    # "Staw gracza może mieć dowolny kształt." A tile with more than 25 places is first given a part of the pond.
    m = new(2, seed=4)
    seen_zone = False
    while not m.is_over:
        seat = m.current
        m.apply(seat, "t:6-7" if m.turns[seat] % 2 else "t:1-2")
        while m.current == seat and m.phase == "place":
            right = max(x for x, _ in (xy(c) for c in m.ponds[seat])) + 1
            target = cell(right, 0)
            kind = m._kind()
            legal = m.legal_actions(seat)
            assert 2 <= len(legal) <= 25
            if kind == "zone":
                seen_zone = True
                from games.kohaku.rules import zones

                groups = zones(m._candidates())
                assert len(groups) >= 2 and all(len(g) <= 25 for g in groups)
                assert sum(len(g) for g in groups) == len(m._candidates())
                m.apply(seat, f"z:{next(i for i, g in enumerate(groups) if target in g)}")
                assert m._kind() == "place" and place_id(target) in m.legal_actions(seat)
            m.apply(seat, place_id(target))
    assert seen_zone
    lengths = [max(xy(c)[0] for c in p) + 1 for p in m.ponds]
    assert lengths == [24, 24]  # one straight line of 12 koi and 12 features each


def test_pond_tiles_never_move():
    # "Płytki dołożone do stawu zostają tam do końca gry, nie można ich przemieszczać podczas rozgrywki!"
    m = new(3, seed=2)
    before: dict[int, dict[int, int]] = {}
    while not m.is_over:
        for s, p in enumerate(m.ponds):
            assert all(p.get(c) == t for c, t in before.get(s, {}).items())
            before[s] = dict(p)
        seat = m.waiting()[0]
        m.apply(seat, m.legal_actions(seat)[-1])


def test_the_refill_moves_middle_tiles_out_and_draws_onto_the_middle():
    # "nowe płytki zawsze kładzie się na 2 środkowych polach planszy"; "Jeśli któreś z 2 środkowych pól jest
    # zajęte, płytki leżące na nich przesuń na puste pola planszy."; "Następnie na 2 puste środkowe pola planszy
    # połóż 2 nowe płytki: 1 płytkę wziętą z góry stosu ryb i 1 płytkę wziętą z góry stosu ozdób."
    m = new(2, seed=9)
    centre = (m.board[CENTRE_KOI], m.board[CENTRE_FEATURE])
    seat = m.current
    events = m.apply(seat, "t:1-2")  # spaces 1 and 2: the middle tiles must move there
    moved = [(e.data["from"], e.data["to"]) for e in events if e.kind == "moved"]
    assert sorted(moved) == sorted([(CENTRE_KOI, 0), (CENTRE_FEATURE, 1)])
    assert (m.board[0], m.board[1]) == centre
    drawn = [e for e in events if e.kind == "drawn"]
    assert [e.data["space"] for e in drawn] == [CENTRE_KOI, CENTRE_FEATURE] and all(e.reveals for e in drawn)
    assert IS_KOI[m.board[CENTRE_KOI]] and not IS_KOI[m.board[CENTRE_FEATURE]]
    # Taking the middle pair leaves nothing to move.
    events = m.apply(m.current, "t:6-7")
    assert not [e for e in events if e.kind == "moved"]


def test_nothing_is_drawn_until_both_tiles_are_placed():
    # "W swojej turze gracz wykonuje 3 poniższe działania: I. … II. … III. UZUPEŁNIENIE PŁYTEK NA PLANSZY"
    m, seat = _second_turn()
    events = m.apply(seat, "p:2:0")
    assert not any(e.reveals for e in events)
    events = m.apply(seat, "p:-1:0")
    assert any(e.reveals for e in events)


@pytest.mark.parametrize(("seats", "turns"), [(2, 12), (3, 12), (4, 12)])
def test_the_game_ends_when_the_board_cannot_be_refilled(seats, turns):
    # "Gra kończy się, gdy nie ma możliwości uzupełnienia 2 płytek na planszy."
    for seed in range(3):
        m = new(seats, seed=seed)
        play_randomly(m, seed)
        assert m.is_over and m.end_reason == "koi_stack_empty"
        assert m.koi_stack == []
        assert m.turns == [turns] * seats
        assert m.waiting() == () and m.legal_actions() == []
        with pytest.raises(IllegalAction) as err:
            m.apply(0, "t:1-2")
        assert err.value.code == "game_over"


def test_the_turn_whose_refill_uses_the_last_koi_is_not_the_last():
    # "Gra kończy się, gdy nie ma możliwości uzupełnienia 2 płytek na planszy.": the game ends at the refill that
    # cannot be made, not at the one that empties the stack; the board's tiles then score for nobody ("płytki
    # leżące na planszy odłóżcie do pudełka").
    m = new(2, seed=5)
    m.box = sorted(m.box + m.koi_stack[1:])
    m.koi_stack = m.koi_stack[:1]
    first = m.current
    events = m.apply(first, "t:1-2")
    assert not m.is_over and m.koi_stack == [] and any(e.kind == "drawn" for e in events)
    second = m.current
    assert second != first
    before = sorted(m.ponds[first].values()), sorted(m.ponds[second].values())
    events = m.apply(second, "t:1-2")
    assert m.is_over and m.end_reason == "koi_stack_empty"
    assert [e.kind for e in events][-1] == "game_over" and not any(e.kind == "drawn" for e in events)
    assert not any(e.kind == "moved" for e in events)
    assert m.turns[first] == m.turns[second] == 1  # the last turn is played in full, then nothing is drawn
    assert sorted(m.ponds[first].values()) == before[0] and len(m.ponds[second]) == len(before[1]) + 2
    assert all(t != EMPTY for t in m.board[2:])


def test_refusals_name_their_reason_and_change_nothing():
    m = new(2)
    before = m.to_json()
    other = 1 - m.current
    for seat, action, code in [
        (5, "t:1-2", "unknown_seat"),
        (other, "t:1-2", "not_your_turn"),
        (m.current, "p:0:0", "illegal"),
        (m.current, "t:99-100", "illegal"),
        (m.current, "", "illegal"),
    ]:
        with pytest.raises(IllegalAction) as err:
            m.apply(seat, action)
        assert err.value.code == code
    assert m.to_json() == before


# ---------------------------------------------------------------------- winner


def test_a_tie_goes_to_more_coins_then_is_shared():
    # "Wygrywa gracz z największą liczbą punktów. W przypadku remisu wygrywa osoba mająca w swoim stawie najwięcej
    # symboli monet. Jeśli nadal jest remis, gracze dzielą się zwycięstwem."
    m = new(3, seed=1)
    play_randomly(m, 1)
    red_coins = [t for t in KOI if TILES[t].colour_names == ("red",)]
    turtles = [t for t in FEATURES if KIND_OF[t] == KIND_OF[feature("turtle")]]
    m.ponds[0] = pond((0, 0, red_coins[0]), (1, 0, turtles[0]))  # 5 + a coin: 6, 1 coin
    m.ponds[1] = pond((0, 0, red_coins[1]), (1, 0, turtles[1]))  # 6, 1 coin
    m.ponds[2] = pond((0, 0, koi("white red", 1, 1)), (1, 0, feature("statue")))  # a statue beside 1 koi: 1
    out = m.outcome()
    assert [s["total"] for s in out.scores] == [6, 6, 1] and out.coins == (1, 1, 0)
    assert out.places == (1, 1, 3) and out.winners == (0, 1)
    # Seat 1 again at 6 points, but without a coin: seat 0 wins the tie.
    m.ponds[1] = pond((0, 0, koi("white red", 1, 1)), (1, 0, turtles[1]), (-1, 0, feature("statue")))
    out = m.outcome()
    assert [s["total"] for s in out.scores] == [6, 6, 1] and out.coins == (1, 0, 0)
    assert out.places == (1, 2, 3) and out.winners == (0,)


# ---------------------------------------------------------------------- Danny


def _solo_at_danny(board: list[int], koi_stack: list[int], feature_stack: list[int]) -> Match:
    m = deal(1, seed=0)
    m.board = list(board)
    m.koi_stack = sorted(koi_stack)
    m.feature_stack = sorted(feature_stack)
    return m


def _board(kois: list[int], features: list[int]) -> list[int]:
    board, ki, fi = [], iter(kois), iter(features)
    for space in range(12):
        board.append(next(ki) if KOI_SPACE[space] else next(fi))
    return board


def test_danny_takes_every_koi_of_the_revealed_colouring():
    # "Następnie bierzesz z planszy wszystkie płytki przedstawiające ryby w takiej samej kolorystyce co na
    # odkrytej płytce." Example: "płytka z rybą białą-czerwoną. Danny zdobywa odkrytą płytkę oraz 2 płytki z
    # białą-czerwonymi rybami z planszy."
    white_red = [t for t in KOI if TILES[t].colour_names == ("white", "red")]
    others = [koi("red"), koi("white"), koi("yellow red", 1, 1), koi("black")]
    board = _board([white_red[0], others[0], white_red[1], others[1], others[2], others[3]], FEATURES[:6])
    m = _solo_at_danny(board, white_red[2:5], FEATURES[10:20])
    m.koi_stack = sorted(white_red[2:5])  # any draw reveals a white-red koi
    events: list = []
    assert m._danny_turn(events)
    took = next(e for e in events if e.kind == "danny_took")
    assert took.data["matched"] and sorted(TILE_BY_ID[t] for t in took.data["tiles"]) == sorted(white_red[:2])
    assert not [e for e in events if e.kind == "danny_revealed" and not IS_KOI[TILE_BY_ID[e.data["tile"]["id"]]]]
    assert len(m.danny) == 3
    # "pomiń następne działanie": no feature was revealed; the two koi spaces were refilled from the top left.
    drawn = [e.data["space"] for e in events if e.kind == "drawn"]
    assert drawn == sorted(drawn) and len(drawn) == 2


def test_danny_reveals_a_feature_when_no_koi_matches_and_takes_its_kind_in_any_colour():
    # "Jeśli na planszy nie ma płytek ryb w odpowiednich kolorach (Danny zdobywa tylko odkrytą płytkę),
    # przechodzisz do następnego działania"; "bierzesz z planszy wszystkie płytki przedstawiające ozdoby tego
    # samego rodzaju co na odkrytej płytce"; example: "płytka z 1 kwiatem. Danny zdobywa odkrytą płytkę oraz
    # 3 płytki z 1 kwiatem z planszy."
    kois = [koi("red"), koi("white"), koi("yellow"), koi("black"), koi("white yellow", 1, 1), koi("red black", 1, 1)]
    flowers = [feature("flower", "white"), feature("flower", "red"), feature("flower", "black")]
    features = flowers + [feature("frog"), feature("turtle"), feature("rocks")]
    board = _board(kois, features)
    lone = koi("yellow black", 1, 1)  # no yellow-black koi on the board
    more_flowers = [t for t in FEATURES if KIND_OF[t] == FLOWER and t not in flowers][:8]
    m = _solo_at_danny(board, [lone, koi("yellow black", 0, 1), koi("white red", 1, 1)], more_flowers)
    m.koi_stack = sorted([lone, koi("yellow black", 0, 1)])
    m.feature_stack = sorted(more_flowers)
    events: list = []
    assert m._danny_turn(events)
    tooks = [e for e in events if e.kind == "danny_took"]
    assert [t.data["matched"] for t in tooks] == [False, True]
    assert sorted(TILE_BY_ID[t] for t in tooks[1].data["tiles"]) == sorted(flowers)
    assert len(m.danny) == 2 + 3
    # "Płytki uzupełniasz od górnego rzędu i od lewej strony."; "W turze Danny'ego nie przesuwaj płytek ze
    # środkowych pól"
    assert not [e for e in events if e.kind == "moved"]
    drawn = [e.data["space"] for e in events if e.kind == "drawn"]
    assert drawn == sorted(drawn) and len(drawn) == 3
    assert EMPTY not in m.board


def test_danny_keeps_a_revealed_feature_that_matches_nothing_on_the_board():
    # "Odłóż je (razem z odkrytą płytką ozdób) na bok – są to płytki zdobyte przez Danny'ego."
    kois = [koi("red"), koi("white"), koi("yellow"), koi("black"), koi("white yellow", 1, 1), koi("red black", 1, 1)]
    features = [feature("flower", "white"), feature("frog"), feature("turtle"), feature("rocks")]
    features += [t for t in FEATURES if KIND_OF[t] == KIND_OF[feature("statue")]][:2]
    m = _solo_at_danny(_board(kois, features), [koi("yellow black", 1, 1)], [feature("butterflies", "red")])
    events: list = []
    assert m._danny_turn(events)
    tooks = [e.data for e in events if e.kind == "danny_took"]
    assert tooks == [
        {"tiles": [], "spaces": [], "matched": False},
        {"tiles": [], "spaces": [], "matched": False},
    ]
    assert sorted(m.danny) == sorted([koi("yellow black", 1, 1), feature("butterflies", "red")])
    assert not [e for e in events if e.kind == "drawn"]  # nothing left the board, nothing to refill


def test_danny_reveals_no_koi_from_an_empty_stack_and_goes_on_to_a_feature():
    # Ruling: "ODKRYWASZ PŁYTKĘ Z GÓRY STOSU RYB" cannot be done from an empty stack; the text ends the game only
    # at a refill ("Gra kończy się, gdy nie ma możliwości uzupełnienia płytek na planszy."), so Danny reveals no
    # koi, and, having matched none, reveals a feature.
    kois = [koi("red"), koi("white"), koi("yellow"), koi("black"), koi("white yellow", 1, 1), koi("red black", 1, 1)]
    frogs = [t for t in FEATURES if KIND_OF[t] == KIND_OF[feature("frog")]]
    features = [frogs[0], frogs[1], feature("turtle"), feature("rocks"), feature("statue"), feature("flower", "red")]
    m = _solo_at_danny(_board(kois, features), [], frogs[2:6])
    events: list = []
    assert m._danny_turn(events)
    assert [e.data for e in events if e.kind == "danny_nothing"] == [{"stack": "koi"}]
    took = next(e for e in events if e.kind == "danny_took")
    assert sorted(TILE_BY_ID[t] for t in took.data["tiles"]) == sorted(frogs[:2])
    assert len(m.danny) == 3 and EMPTY not in m.board


def test_a_refill_that_cannot_fill_every_space_ends_the_solo_game():
    # "Gra kończy się, gdy nie ma możliwości uzupełnienia płytek na planszy." — here Danny's refill: he reveals
    # the last white-red koi and takes the white-red one just drawn to the middle, and no koi is left to refill.
    white_red = [t for t in KOI if TILES[t].colour_names == ("white", "red")]
    kois = [koi("red"), koi("white"), koi("yellow"), koi("black"), koi("white yellow", 1, 1), koi("red black", 1, 1)]
    features = [feature("flower", "white"), feature("frog"), feature("turtle"), feature("rocks"), feature("statue")]
    features.append(feature("flower", "red"))
    m = _solo_at_danny(_board(kois, features), white_red[:2], FEATURES[30:40])
    events = m.apply(0, f"t:{CENTRE_KOI + 1}-{CENTRE_FEATURE + 1}")  # the middle pair: nothing moves
    kinds = [e.kind for e in events]
    assert kinds.count("drawn") == 2 and kinds.index("drawn") < kinds.index("danny_revealed")
    took = next(e for e in events if e.kind == "danny_took")
    assert took.data["matched"] and took.data["spaces"] == [CENTRE_KOI]
    assert m.is_over and m.end_reason == "koi_stack_empty" and kinds[-1] == "game_over"
    assert m.turns == [1] and len(m.danny) == 2


def test_the_player_refills_a_solo_board_as_in_the_base_game():
    # "W swojej turze wykonujesz te same działania, co podczas podstawowej wersji gry: … uzupełniasz płytki na
    # planszy." — the middle tiles move out and two new tiles go onto the middle; Danny's refill moves nothing.
    m = new(1, seed=6)
    centre = (m.board[CENTRE_KOI], m.board[CENTRE_FEATURE])
    events = m.apply(0, "t:1-2")
    danny_at = next(i for i, e in enumerate(events) if e.kind == "danny_revealed")
    mine = events[:danny_at]
    assert sorted((e.data["from"], e.data["to"]) for e in mine if e.kind == "moved") == sorted(
        [(CENTRE_KOI, 0), (CENTRE_FEATURE, 1)]
    )
    assert [e.data["space"] for e in mine if e.kind == "drawn"] == [CENTRE_KOI, CENTRE_FEATURE]
    assert not [e for e in events[danny_at:] if e.kind == "moved"]
    assert (m.board[0], m.board[1]) == centre or any(e.kind == "danny_took" and e.data["spaces"] for e in events)


def test_danny_plays_after_every_player_turn_until_a_refill_fails():
    # "W trakcie gry na zmianę rozgrywasz swoją turę oraz turę Danny'ego."; "Gra kończy się, gdy nie ma
    # możliwości uzupełnienia płytek na planszy."
    for seed in range(4):
        m = new(1, seed=seed)
        events_total = []
        while not m.is_over:
            events = m.apply(0, m.legal_actions(0)[0])
            events_total += events
            ended = [e for e in events if e.kind == "turn_ended"]
            if not m.is_over:
                assert [e.seat for e in ended] in ([], [0, DANNY])
        assert m.end_reason in ("koi_stack_empty", "feature_stack_empty")
        assert m.turns[0] >= 10
        assert len(m.danny) >= m.turns[0] - 1


def test_danny_scores_at_three_levels():
    # "Poziom łatwy: Danny zdobywa 3 punkty za każdą płytkę ryb oraz 2 punkty za każdą płytkę ozdoby. Poziom
    # średni: do wyniku na poziomie łatwym dodaj Danny'emu 1 punkt za każdą płytkę ozdoby. Poziom trudny: do
    # wyniku na poziomie średnim dodaj Danny'emu 1 punkt za każdy symbol monety i 1 punkt za każdą płytkę ozdoby
    # z 1 kwiatem."
    tiles = [koi("white"), koi("white yellow", 1, 1), feature("flower", "red"), feature("statue")]
    assert danny_scores(tiles) == {"easy": 3 * 2 + 2 * 2, "medium": 10 + 2, "hard": 12 + 1 + 1}


def test_beating_danny_takes_strictly_more_points_at_each_level():
    # "Twoim celem jest zdobycie większej liczby punktów niż Danny."; "Porównujesz swój wynik z wynikiem
    # Danny'ego na każdym z 3 poziomów trudności."
    m = new(1, seed=2)
    play_randomly(m, 2)
    m.danny = [feature("frog")]  # easy 2, medium 3, hard 3
    m.ponds[0] = pond((0, 0, koi("red", 1, 0)), (1, 0, feature("statue")))  # 1 + a coin: 2
    out = m.outcome()
    assert out.danny == {"easy": 2, "medium": 3, "hard": 3} and out.scores[0]["total"] == 2
    assert out.beaten == {"easy": False, "medium": False, "hard": False}  # a tie at easy is not a win
    assert out.winners == ()
    m.ponds[0] = pond((0, 0, koi("red", 1, 0)), (1, 0, feature("turtle")))  # 5 + a coin: 6
    out = m.outcome()
    assert out.beaten == {"easy": True, "medium": True, "hard": True} and out.winners == (0,)
    m.danny = [feature("flower", "red"), feature("flower", "white"), koi("white", 1, 0)]  # 7, 9, 12
    assert m.outcome().beaten == {"easy": False, "medium": False, "hard": False}
    m.danny = [feature("flower", "red"), koi("white", 1, 0)]  # 5, 6, 8
    assert m.outcome().beaten == {"easy": True, "medium": False, "hard": False}


# ---------------------------------------------------------------------- goal cards


def test_goal_cards_are_dealt_two_each_and_one_is_kept_secretly():
    # "potasujcie karty celów i rozdajcie graczom po 2 karty, każdy wybiera 1 kartę, a drugą odkłada do
    # pudełka."; "Wybraną kartę należy trzymać w taki sposób, aby rywale nie widzieli, co się na niej znajduje."
    m = new(3, seed=4, goals=True)
    assert m.phase == "goals" and m.waiting() == (0, 1, 2)
    assert len(m.prompts()) == 3 and all(len(p.options) == 2 for p in m.prompts())
    hands = [m.view(s)["goal_cards"]["mine"] for s in range(3)]
    assert all(len(h) == 2 for h in hands) and len({g for h in hands for g in h}) == 6
    events = m.apply(2, f"g:{hands[2][1]}")
    assert events[0].kind == "goal_kept" and events[0].data == {}
    assert m.view(2)["goal_cards"]["kept"] == [None, None, hands[2][1]]
    assert m.view(0)["goal_cards"]["kept"] == [None, None, None]
    assert m.view(0)["goal_cards"]["chosen"] == [False, False, True]
    with pytest.raises(IllegalAction) as err:
        m.apply(2, f"g:{hands[2][0]}")
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction):
        m.apply(0, f"g:{hands[1][0]}")  # another seat's card
    m.apply(0, f"g:{hands[0][0]}")
    assert m.phase == "goals"
    events = m.apply(1, f"g:{hands[1][0]}")
    assert m.phase == "take" and events[-1].kind == "turn_started"
    # "Po zakończeniu gry każdy gracz ujawnia swoją kartę i zdobywa odpowiednią liczbę punktów"
    play_randomly(m, 4)
    assert m.view(0)["goal_cards"]["kept"] == [hands[0][0], hands[1][0], hands[2][1]]
    for s in range(3):
        assert m.score(s)["total"] == m.score(s, with_goal=False)["total"] + m.score(s)["goal"]


def test_goal_cards_are_not_dealt_in_solo_games():
    # "rozdajcie graczom po 2 karty": players only; Danny's levels are stated for the base scoring.
    with pytest.raises(ValueError):
        deal(1, seed=1, goals=True)


def test_bad_deals_are_refused():
    for kwargs in ({"seats": 0}, {"seats": 5}, {"seats": True}, {"seats": 2, "rules": 9}, {"seats": 2, "goals": 1}):
        seats = kwargs.pop("seats")
        with pytest.raises(ValueError):
            deal(seats, seed=1, **kwargs)
    with pytest.raises(ValueError):
        deal(2, seed="1")  # type: ignore[arg-type]


def test_the_goal_cards_are_offered_as_a_secret_through_the_contract_and_nothing_else_is():
    # A seat's goal cards are its own: the platform must offer them privately, whoever else is asked.
    import games

    module = games.get("kohaku")
    match = module.deal({"goals": True}, 5, 3)
    assert [(p.kind, p.secret) for p in match.prompts()] == [("goal", True)] * 3
    for seat in range(3):
        match.apply(seat, match.legal_actions(seat)[0])
    assert match.prompts() and not any(p.secret for p in match.prompts())
