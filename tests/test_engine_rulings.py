"""Rulings of rules version 2, one test each, quoting the Portuguese rulebook (seeds/000_8ca1221b3cdc7ad6.txt)."""

from __future__ import annotations

from games.kokeshi.engine.data import (
    ADV,
    ANIMAL,
    ANIMAL_ANY,
    ANY,
    ANY2,
    BUY_ANY,
    BUY_HERE,
    KOKESHI,
    LEFT,
    N_TRACKS,
    RIGHT,
    TILESETS,
)
from games.kokeshi.vocab import label
from tests.positions import filler, kinds, option_ids, play, quality, ready, set_offer, set_track, tile, tile_ids

SAMURAI = KOKESHI.index("samurai")


def _bought_then_home(rules: int):
    """Samurai on a green K&BUY_HERE at height 5 of a 5-tile track: it buys a tile for its own track, then the
    samurai moves on to the empty height 6."""
    g = ready(rules=rules)
    set_track(g, 0, "samurai", [*filler(g, 4, "green"), tile("green", "buy_here")])
    g.kokeshi[0][SAMURAI] = 4
    play(g, "advance:samurai", "market:0")
    return g


def test_a_quality_tile_is_bought_by_the_height_of_the_empty_space_reached():
    """ "Se no espaço para onde a Kokeshi for NÃO houver nenhuma peça de jogo (o espaço estiver vazio), mova a
    Kokeshi de volta para o espaço inicial da trilha [...] OU, se estiver no nível mínimo exigido, poderá optar por
    comprar uma peça de reconhecimento de qualidade": the empty space reached (height 6) decides, not the lowest
    free space once this turn's reserved tile is counted (height 7)."""
    g = _bought_then_home(rules=2)
    assert [a for a in option_ids(g) if a.startswith("quality:")] == ["quality:1", "quality:2"]
    old = _bought_then_home(rules=1)
    assert "quality:3" in option_ids(old)


def test_a_quality_tile_bought_is_still_placed_at_or_above_its_level():
    """ "A peça deve ser posicionada na trilha a uma altura igual ou superior ao nível indicado na peça" and
    "Se houver a opção de posicionar mais de uma peça em uma mesma trilha, o jogador escolherá a ordem"."""
    g = _bought_then_home(rules=2)
    events = play(g, "quality:2")
    while g.prompt is not None and g.prompt.kind == "place":
        events += play(g, option_ids(g)[0])
    placed = {e.data["tile"]: e.data["height"] for e in events if e.kind == "tile_placed"}
    assert placed[quality("samurai", 2)] >= 5 and len(g.tracks[0][SAMURAI]) == 7


def test_a_two_space_jump_onto_an_empty_space_still_needs_room_at_the_level():
    """ "A peça deve ser posicionada na trilha a uma altura igual ou superior ao nível indicado na peça": a samurai
    jumping from 5 to the empty height 7 of a 5-tile track reached level 3's height, but the tile would go at
    height 6, so only levels 1 and 2 are offered."""
    g = ready(rules=2)
    set_track(g, 0, "samurai", filler(g, 5, "green"))
    set_track(g, 0, "princess", [tile("pink", "double")])
    g.kokeshi[0][SAMURAI] = 5
    play(g, "advance:princess", "effect:1", "kokeshi:samurai")
    assert g.prompt.kind == "buy"
    assert [a for a in option_ids(g) if a.startswith("quality:")] == ["quality:1", "quality:2"]


def test_solo_a_quality_tile_does_not_feed_the_automa():
    """ "Sempre que você comprar uma nova peça, compre também uma peça aleatória da bolsa e coloque-a no tabuleiro
    do jogador fictício": a "nova peça" is an offer tile, set against the quality tiles ("comprar uma nova peça da
    oferta de peças OU comprar uma peça de reconhecimento de qualidade")."""
    g = ready(1, solo=True)
    set_track(g, 0, "samurai", filler(g, 6, "green"))
    g.kokeshi[0][SAMURAI] = 6
    automa_before = [list(t) for t in g.tracks[1]]
    bag_before = len(g.bag)
    play(g, "advance:samurai")
    events = play(g, "quality:3")
    assert "quality_bought" in kinds(events)
    assert not [e for e in events if e.player == "automa"]
    assert g.tracks[1] == automa_before and len(g.bag) == bag_before
    old = ready(1, solo=True, rules=1)
    set_track(old, 0, "samurai", filler(old, 6, "green"))
    old.kokeshi[0][SAMURAI] = 6
    play(old, "advance:samurai")
    assert [e for e in play(old, "quality:3") if e.player == "automa"]


def _solo_tie(rules: int):
    g = ready(1, solo=True, rules=rules)
    for k in range(N_TRACKS):
        set_track(g, 1, KOKESHI[k], [])
    g.discs[0][0] = 2  # 3 points and the panda lead: 6
    set_track(g, 1, "samurai", [tile("pink", "plus1"), tile("blue", "plus1"), tile("pink", "plus4")])
    g.in_play[1] = 3  # 3 + 3 = 6
    return g


def test_solo_a_tied_total_goes_to_the_normal_tie_breaks():
    """ "As demais regras seguem como na partida normal" and "Em caso de empate, o jogador com mais pontos nos
    níveis das trilhas de animais vence": a tie with more animal points is the player's win, not the automa's."""
    g = _solo_tie(rules=2)
    scores = g.scores()
    assert scores["ana"].total == scores["automa"].total == 6 and scores["ana"].animals > scores["automa"].animals
    assert g.ranking() == ["ana", "automa"]
    assert _solo_tie(rules=1).ranking() == ["automa", "ana"]


def _tracks_against_heights(rules: int):
    """Equal totals and animal points; seat 0 has the track points, seat 1 the higher kokeshi."""
    g = ready(2, rules=rules)
    set_track(g, 0, "samurai", [tile("pink", "plus1"), tile("blue", "plus1"), tile("pink", "plus4")])  # 3
    g.in_play[1] = 3
    g.kokeshi[1] = [2, 1, 0, 0, 0]
    g.kokeshi[0] = [0, 0, 0, 2, 0]
    return g


def test_the_second_tie_break_is_the_sum_of_the_kokeshi_heights():
    """ "Permanecendo o empate, vence o jogador com a maior soma dos níveis das kokeshi no tabuleiro de oficina do
    artesão": the heights the kokeshi stand at (3 against 2), not the 3/5/7 track points."""
    g = _tracks_against_heights(rules=2)
    scores = g.scores()
    assert scores[g.names[0]].total == scores[g.names[1]].total == 3
    assert scores[g.names[0]].tracks > scores[g.names[1]].tracks
    assert g.ranking() == [g.names[1], g.names[0]]
    old = _tracks_against_heights(rules=1)
    assert old.ranking() == [old.names[0], old.names[1]]


def test_then_the_player_latest_in_turn_order_wins_the_tie():
    """ "Se o empate ainda persistir, vence o último jogador na ordem dos turnos"; in solo the automa sits last."""
    g = ready(3)
    assert g.ranking() == list(reversed(g.names))
    solo = ready(1, solo=True)
    for k in range(N_TRACKS):
        set_track(solo, 1, KOKESHI[k], [])
    assert solo.ranking() == ["automa", "ana"]


def test_a_side_that_does_nothing_may_still_be_chosen():
    """ "Se a peça tiver 2 efeitos separados por uma barra, resolva apenas 1 de seus efeitos à sua escolha": the
    right-hand side of a blue K/RIGHT on the rightmost track is offered, says it does nothing, and does nothing."""
    g = ready(seed=21)
    set_track(g, 0, "sumotori", [tile("blue", "right")])
    play(g, "advance:sumotori")
    assert g.prompt.kind == "effect"
    assert [label(o) for o in g.prompt.options] == [
        "Advance the Fisherman",
        "Advance a kokeshi to the right (does nothing)",
    ]
    events = play(g, "effect:1")
    assert "effect_skipped" in kinds(events)
    assert g.kokeshi[0] == [0, 0, 0, 0, 1]


def test_solo_choosing_a_side_that_does_nothing_declines_a_purchase():
    """ "resolva apenas 1 de seus efeitos à sua escolha": in solo, the LEFT side of a yellow LEFT/Sumotori on the
    Princess track (no track to its left) lets the player avoid the purchase the Sumotori's empty space would force,
    and with it the automa's tile ("Sempre que você comprar uma nova peça [...] coloque-a no tabuleiro do jogador
    fictício")."""
    g = ready(1, solo=True)
    set_track(g, 0, "princess", [tile("yellow", "left")])
    set_track(g, 0, "sumotori", [])
    offer, bag, automa = list(g.offer), len(g.bag), [list(t) for t in g.tracks[1]]
    play(g, "advance:princess")
    assert [o.id for o in g.prompt.options] == ["effect:0", "effect:1"]
    events = play(g, "effect:0")
    assert "effect_skipped" in kinds(events) and "tile_bought" not in kinds(events)
    assert g.offer == offer and len(g.bag) == bag and g.tracks[1] == automa
    assert g.prompt.kind == "advance" and g.turns[0] == 1


def _every_track_full(rules: int):
    g = ready(rules=rules)
    set_offer(g, [tile("blue", "plus1"), tile("green", "plus1"), tile("yellow", "plus1"), tile("purple", "plus1")])
    set_track(g, 0, "princess", [tile("pink", "buy_any"), *filler(g, 6)])
    for k in KOKESHI[1:]:
        set_track(g, 0, k, filler(g, 7))
    return g


def test_buy_any_with_every_track_full_is_not_bought():
    """ "Se a trilha da peça comprada estiver completa (7 peças), ignore esse efeito e não compre uma nova peça":
    with all five tracks full, a BUY-ANY side buys nothing (it is offered as doing nothing), rather than buying a
    tile and discarding it."""
    g = _every_track_full(rules=2)
    offer, bag = list(g.offer), len(g.bag)
    play(g, "advance:princess")
    assert g.prompt.kind == "effect" and label(g.prompt.options[0]) == "Buy a tile for any track (does nothing)"
    events = play(g, "effect:0")
    assert "tile_bought" not in kinds(events) and "tile_discarded" not in kinds(events)
    assert g.offer == offer and len(g.bag) == bag
    old = _every_track_full(rules=1)
    play(old, "advance:princess", "effect:0")
    events = play(old, "market:0")
    assert {"tile_bought", "tile_discarded"} <= set(kinds(events))


def test_the_normal_tiles_hold_every_effect_the_rulebook_describes():
    """ "Avance a Kokeshi de Princesa OU Avance a Kokeshi de Batchan." (a pink K/K+1 tile) and the seven effects after
    it: a K/K+1 tile of each colour, and every other described effect, are among the 50 normal tiles."""
    tiles = [t for t in TILESETS[2] if t.kind == "normal"]
    assert len(tiles) == 50
    for color in range(N_TRACKS):
        own = {(t.mode, t.atoms) for t in tiles if t.color == color}
        k, nxt = (ADV, color), (ADV, (color + 1) % N_TRACKS)
        assert ("/", (k, nxt)) in own  # Princesa OU Batchan, for pink
        assert ("/", ((LEFT, 0), k)) in own  # uma trilha à esquerda OU K
        assert ("/", (k, (RIGHT, 0))) in own  # K OU uma trilha à direita
        assert ("/", (k, (ANY2, 0))) in own  # K OU qualquer Kokeshi dois espaços
        assert ("/", ((ANY, 0), (ANIMAL_ANY, 0))) in own  # qualquer Kokeshi OU um dos discos
        assert ("/", ((BUY_ANY, 0), (ANY, 0))) in own  # peça para qualquer trilha OU qualquer Kokeshi
        assert ("&", (k, (BUY_HERE, 0))) in own  # K E peça para essa trilha
        assert any(t.mode == "&" and t.atoms[0] == k and t.atoms[1][0] == ANIMAL for t in tiles if t.color == color)
    assert tile_ids("pink", "plus1") == ["n01"]
    # Rules version 1 keeps its own list, so that its games replay.
    assert [t.type for t in TILESETS[1] if t.kind == "normal"][:2] == ["plus3", "plus4"]
