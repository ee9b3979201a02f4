"""Rule tests for Ghârat: exact deals with explicit deck orders, exact outcomes.

A deck order is written as the play pile (four cards, bottom first, the last one
on top), the hands (dealt one card at a time from the right of the dealer, seat 0
in the first hand) and the stock from its top. Cards not named follow in id order
(2♣ 3♣ ...). Some tests move named stock cards onto a capture pile or the play
pile first, to set a scene without playing up to it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import fields
from typing import cast

import pytest

from referee.cards import Card, Chance, Rank, make_deck, parse_cards, stack_deck
from referee.games import parse_ruleset
from referee.games.base import Event, GameError, GameState, IllegalAction, UnknownRuleset
from referee.games.gharat import (
    DECK as ENGINE_DECK,
)
from referee.games.gharat import (
    MAX_HANDS,
    Gharat,
    GharatAction,
    GharatActionKind,
    GharatObservation,
    GharatState,
    card_points,
)
from referee.v1 import gharat_pb2

DECK = make_deck()
Kind = GharatActionKind


# --------------------------------------------------------------------------- helpers


def deal_order(hands: Sequence[str], pile: str, stock: str = "", dealer: int = 0) -> list[Card]:
    """The deck order that lays `pile` (bottom first) and deals `hands[seat]` to each
    seat one card at a time from the right of `dealer`, leaving `stock` on top."""
    split = [h.split() for h in hands]
    n = len(hands)
    names = [split[(dealer - k) % n][r] for r in range(4) for k in range(1, n + 1)]
    return stack_deck(DECK, " ".join([pile, *names, stock]))


def game(
    hands: Sequence[str],
    pile: str,
    stock: str = "",
    ruleset: str = "gharat",
    later: Sequence[list[Card]] = (),
) -> GharatState:
    orders = [deal_order(hands, pile, stock), *later]
    return cast(GharatState, parse_ruleset(ruleset).new_state(len(hands), seed=0, orders=orders))


def cards(text: str) -> list[Card]:
    return parse_cards(text, DECK)


def faces(cards_: Sequence[Card]) -> str:
    return " ".join(c.face for c in cards_)


def decider(state: GameState) -> int:
    (seat,) = state.deciders()
    return seat


def labels(state: GameState) -> list[str]:
    return [a.label for a in state.legal_actions(decider(state))]


def play(state: GameState, label: str) -> list[Event]:
    """Apply the deciding seat's legal action with this label."""
    seat = decider(state)
    for action in state.legal_actions(seat):
        if action.label == label:
            return state.apply({seat: action})
    raise AssertionError(f"{label!r} is not legal for seat {seat}: {labels(state)}")


def obs(state: GameState, seat: int = 0) -> GharatObservation:
    return cast(GharatObservation, state.observe(seat))


def hand(state: GameState, seat: int) -> str:
    return faces(obs(state, seat).hand)


def pile(state: GameState, seat: int) -> str:
    return faces(obs(state).piles[seat].cards)


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.is_public]


def to_pile(state: GharatState, seat: int, text: str) -> None:
    """Move stock cards onto `seat`'s capture pile (the last named on top)."""
    for card in cards(text):
        state.stock.remove(card)
        state.piles[seat].append(card)
    state._legal = None


def to_play_pile(state: GharatState, text: str) -> None:
    """Move stock cards onto the play pile, face up (the last named on top)."""
    for card in cards(text):
        state.stock.remove(card)
        state.play_pile.append(card)
    state._legal = None


def empty_stock(state: GharatState) -> None:
    """Take the stock out of play, so that the hand ends once the hands are played."""
    state.stock.clear()


# --------------------------------------------------------------------------- the game


def test_registered_game_options_and_rulings() -> None:
    game_ = parse_ruleset("gharat").game
    assert isinstance(game_, Gharat)
    assert (game_.name, game_.title, game_.wire_name) == ("gharat", "Ghârat", "gharat")
    assert (Gharat.min_seats, Gharat.max_seats) == (2, 4)
    target, partnerships = Gharat.options
    assert (target.name, target.default, target.is_int) == ("target", "1000", True)
    assert (partnerships.name, partnerships.default, partnerships.is_flag) == (
        "partnerships",
        "false",
        True,
    )
    assert parse_ruleset("gharat?partnerships&target=500").id == "gharat?partnerships&target=500"
    rulings = Gharat.rulings()
    assert rulings.startswith("From the rulings file")
    for phrase in ("seat 0", "compulsory", "hard cap of 200 hands", "buried"):
        assert phrase in rulings
    assert 8 <= len(Gharat.summary.splitlines()) <= 16


def test_wire_types_mirror_the_proto() -> None:
    proto_obs = [f.name for f in gharat_pb2.GharatObservation.DESCRIPTOR.fields]
    assert [f.name for f in fields(GharatObservation)] == proto_obs
    proto_action = [f.name for f in gharat_pb2.GharatAction.DESCRIPTOR.fields]
    assert [f.name for f in fields(GharatAction)] == proto_action
    proto_kinds = {
        v.name.removeprefix("GHARAT_ACTION_KIND_"): v.number
        for v in gharat_pb2.GharatActionKind.DESCRIPTOR.values
        if v.number
    }
    assert {k.name: k.value for k in Kind} == proto_kinds


def test_one_deck_without_jokers() -> None:
    assert len(ENGINE_DECK) == 52 and not any(c.is_joker for c in ENGINE_DECK)
    state = parse_ruleset("gharat").new_state(4, seed=3)
    assert sorted(c.id for c in state.all_cards()) == list(range(52))


def test_bad_seat_counts_and_options_are_errors() -> None:
    with pytest.raises(GameError):
        parse_ruleset("gharat").new_state(5, seed=0)
    with pytest.raises(GameError):
        parse_ruleset("gharat").new_state(1, seed=0)
    partnerships = parse_ruleset("gharat?partnerships")
    assert partnerships.seats == (4, 4) and parse_ruleset("gharat").seats == (2, 4)
    for seats in (2, 3):
        with pytest.raises(GameError, match="played by exactly 4 player"):
            partnerships.new_state(seats, seed=0)
        with pytest.raises(GameError, match="partnerships are for exactly 4 players"):
            Gharat().new_state(seats, Chance(0), {"target": "1000", "partnerships": "true"})
    with pytest.raises(GameError, match="target of at least 1"):
        parse_ruleset("gharat?target=0").new_state(2, seed=0)
    with pytest.raises(UnknownRuleset):
        parse_ruleset("gharat?target=lots")
    with pytest.raises(UnknownRuleset):
        parse_ruleset("gharat?partnerships=maybe")


# --------------------------------------------------------------------------- the deal


def test_play_pile_of_four_then_four_each_from_the_right_of_the_dealer() -> None:
    # Seat 0 deals to seats 2, 1, 0, 2, 1, 0, ... after laying 5♥ Q♦ 3♥ K♦.
    order = stack_deck(DECK, "5h Qd 3h Kd 3s 2d 3c 9h 6d 4c Jd 8d 5d Js Jc 6c")
    state = parse_ruleset("gharat").new_state(3, seed=0, orders=[order])
    assert [hand(state, s) for s in range(3)] == ["3♣ 4♣ 5♦ 6♣", "2♦ 6♦ 8♦ J♣", "3♠ 9♥ J♦ J♠"]
    view = obs(state, 1)
    assert (view.dealer, view.turn, view.hand_number, decider(state)) == (0, 2, 1, 2)
    assert faces(view.play_pile) == "K♦" and view.buried == 3
    assert view.stock_size == 52 - 4 - 12 and view.hand_sizes == (4, 4, 4)
    assert (view.target, view.partnerships) == (1000, False)
    opening = state.opening_events()
    assert "hand 1: seat 0 deals, seat 2 plays first" in texts(opening)
    assert "the play pile is laid: 3 cards buried under K♦" in texts(opening)
    deals = [(e.audience, faces(e.cards)) for e in opening if e.kind == "deal"]
    assert deals == [
        (frozenset({2}), "3♠ 9♥ J♦ J♠"),
        (frozenset({1}), "2♦ 6♦ 8♦ J♣"),
        (frozenset({0}), "3♣ 4♣ 5♦ 6♣"),
    ]


def test_buried_cards_go_only_to_the_referee_record() -> None:
    state = game(["9c 9d 10c Jc", "Ks 2c 3c 4c"], "5h 7c 7d Kd")
    buried = {c.id for c in cards("5h 7c 7d")}
    opening = state.opening_events()
    (record,) = [e for e in opening if e.kind == "play_pile_buried"]
    assert record.audience == frozenset() and faces(record.cards) == "5♥ 7♣ 7♦"
    for event in opening:
        if event is not record:
            assert not buried & {c.id for c in event.cards}
            assert "7♣" not in event.text and "5♥" not in event.text
    for seat in (0, 1):
        view = obs(state, seat)
        seen = {c.id for c in (*view.hand, *view.play_pile)}
        assert not buried & seen


# --------------------------------------------------------------------------- a turn


def test_turns_go_to_the_right() -> None:
    state = game(["2c 3c 4c 5c", "2d 3d 4d 5d", "2h 3h 4h 5h"], "6s 7s 8s 9s")
    order = []
    for _ in range(6):
        order.append(decider(state))
        play(state, labels(state)[0])
    assert order == [2, 1, 0, 2, 1, 0]


def test_a_card_matching_no_pile_goes_on_the_play_pile() -> None:
    state = game(["9c 9d 10c Jc", "Ks 2c 3c 4c"], "5h 7c 7d Kd")
    assert labels(state) == [
        "play 2♣: onto the play pile",
        "play 3♣: onto the play pile",
        "play 4♣: onto the play pile",
        "play K♠: take from the play pile",
    ]
    events = play(state, "play 3♣: onto the play pile")
    assert "seat 1 plays 3♣ onto the play pile" in texts(events)
    assert faces(obs(state).play_pile) == "K♦ 3♣" and obs(state).buried == 3
    assert hand(state, 1) == "2♣ 4♣ K♠"


def test_a_matching_card_must_capture() -> None:
    state = game(["9c 9d 10c Jc", "Ks 2c 3c 4c"], "5h 7c 7d Kd")
    drop = GharatAction(Kind.DROP, cards("Ks")[0])
    with pytest.raises(IllegalAction):
        state.apply({1: drop})


def test_take_from_the_play_pile_uncovers_the_next_card() -> None:
    state = game(["7s 9d 10c Jc", "Ks 2c 3c 4c"], "5h 7c 7d Kd")
    events = play(state, "play K♠: take from the play pile")
    assert texts(events) == [
        "seat 1 plays K♠ and takes K♦ from the play pile",
        "7♦ is uncovered on the play pile",
    ]
    assert pile(state, 1) == "K♠ K♦"
    view = obs(state, 0)
    assert faces(view.play_pile) == "7♦" and view.buried == 2
    assert view.pile_values == (0, 20)


def test_take_goes_on_through_further_cards_of_the_rank_buried_ones_too() -> None:
    state = game(["7s 9d 10c Jc", "Ks 2c 3c 4c"], "5h 7c 7d Kd")
    play(state, "play K♠: take from the play pile")
    assert labels(state)[0] == "play 7♠: take from the play pile"
    events = play(state, "play 7♠: take from the play pile")
    assert texts(events) == [
        "seat 0 plays 7♠ and takes 7♦ 7♣ from the play pile",
        "7♣ is uncovered on the play pile",
        "5♥ is uncovered on the play pile",
    ]
    # The played card first, then the cards in the order taken: the last on top.
    assert pile(state, 0) == "7♠ 7♦ 7♣"
    view = obs(state, 1)
    assert faces(view.play_pile) == "5♥" and view.buried == 0


def test_take_stops_at_a_card_of_another_rank() -> None:
    state = game(["9c 9d 10c Jc", "8s 2c 3c 4c"], "5h 7c 7d Kd")
    to_play_pile(state, "8c 6d 8d 8h")
    events = play(state, "play 8♠: take from the play pile")
    assert "seat 1 plays 8♠ and takes 8♥ 8♦ from the play pile" in texts(events)
    assert faces(obs(state).play_pile) == "K♦ 8♣ 6♦"
    assert obs(state).buried == 3  # the pile's known cards stay known
    assert not any(e.kind == "uncover" for e in events)


def test_loot_an_opponents_pile_top_and_further_cards_of_its_rank() -> None:
    state = game(["7s 9d 10c Jc", "2c 3c 4c 5c"], "5h 6h 6d Kd")
    to_pile(state, 1, "3d 7c 7d")
    play(state, "play 2♣: onto the play pile")
    assert labels(state)[0] == "play 7♠: loot seat 1"
    events = play(state, "play 7♠: loot seat 1")
    assert "seat 0 plays 7♠ and loots 7♦ 7♣ from seat 1" in texts(events)
    assert pile(state, 0) == "7♠ 7♦ 7♣" and pile(state, 1) == "3♦"
    assert obs(state).pile_values == (15, 5)


def test_a_card_matching_ones_own_pile_is_simply_added() -> None:
    state = game(["2c 3c 4c 5c", "9c 6s 10s Js"], "5h 6h 6d Kd")
    to_pile(state, 1, "9d")
    events = play(state, "play 9♣: add to own pile")
    assert "seat 1 plays 9♣ onto its own pile" in texts(events)
    assert pile(state, 1) == "9♦ 9♣"
    assert faces(obs(state).play_pile) == "K♦"


def test_the_player_chooses_among_several_matching_piles() -> None:
    state = game(["2c 3c 4c 5c", "2d 3d 4d 5d", "8s 9s 10s Js"], "5h 6h 6d Kd")
    to_play_pile(state, "8d")
    to_pile(state, 0, "8c")
    to_pile(state, 1, "8h")
    assert labels(state)[:3] == [
        "play 8♠: take from the play pile",
        "play 8♠: loot seat 0",
        "play 8♠: loot seat 1",
    ]
    play(state, "play 8♠: loot seat 1")
    assert pile(state, 2) == "8♠ 8♥" and pile(state, 1) == "" and pile(state, 0) == "8♣"
    assert faces(obs(state).play_pile) == "K♦ 8♦"
    state = game(["2c 3c 4c 5c", "9c 10s Js Qs"], "5h 6h 6d 9h")
    to_pile(state, 1, "9d")
    to_pile(state, 0, "9s")
    assert labels(state)[:3] == [
        "play 9♣: take from the play pile",
        "play 9♣: loot seat 0",
        "play 9♣: add to own pile",
    ]


def test_cards_of_one_rank_are_offered_once() -> None:
    state = game(["2c 3c 4c 5c", "9c 9s 10s 10d"], "5h 6h 6d Kd")
    assert labels(state) == ["play 9♣: onto the play pile", "play 10♦: onto the play pile"]


def test_an_emptied_play_pile_matches_nothing_and_restarts() -> None:
    state = game(["Kc 3c 4c 5c", "Ks 9s 10s Js"], "Kh 6h 6d Kd")
    state.play_pile[:] = [state.play_pile[-1]]  # leave only K♦ (the rest leave play)
    state.buried = 0
    play(state, "play K♠: take from the play pile")
    assert obs(state).play_pile == () and obs(state).buried == 0
    assert labels(state)[0] == "play 3♣: onto the play pile"
    play(state, "play 3♣: onto the play pile")
    assert faces(obs(state).play_pile) == "3♣"


# --------------------------------------------------------------------------- rounds and hands


def test_redeal_four_each_when_all_hands_are_empty_and_lone_cards_play_themselves() -> None:
    state = game(["2c 3c 4c 5c", "2d 3d 4d 5d"], "6s 7s 8s 9s", "10c Jc Qc Kc 10d Jd Qd Kd")
    for label in ("2♦", "3♣", "4♦", "2♣", "5♦"):
        play(state, f"play {label}: onto the play pile")
    events = play(state, "play 4♣: onto the play pile")
    assert texts(events)[:4] == [
        "seat 0 plays 4♣ onto the play pile",
        "seat 1 plays 3♦ onto the play pile (the only play of its last card)",
        "seat 0 plays 5♣ onto the play pile (the only play of its last card)",
        "all hands are empty: seat 0 deals four more each",
    ]
    assert hand(state, 1) == "10♣ 10♦ Q♣ Q♦"
    assert hand(state, 0) == "J♣ J♦ K♣ K♦"
    assert decider(state) == 1
    assert obs(state).stock_size == 52 - 4 - 16


def test_the_last_round_is_announced_and_the_hand_ends_when_it_is_played() -> None:
    state = game(["2d 3d 4d 5d", "6h 7h 8h 9h"], "2h 3h 4h 10s")
    to_pile(state, 1, "2c 10c Jc Qc Kc Ac")
    empty_stock(state)
    for label in ("6♥", "2♦", "7♥", "3♦", "8♥"):
        play(state, f"play {label}: onto the play pile")
    events = play(state, "play 4♦: onto the play pile")
    assert (
        "hand 1 ends: seat 0 0 (total 0), seat 1 60 (total 60); 12 cards stay in the play pile"
        in texts(events)
    )
    view = obs(state)
    # The deal passes to the right: seat 1 deals, seat 0 plays first.
    assert (view.hand_number, view.dealer, view.turn, view.totals) == (2, 1, 0, (0, 60))
    assert view.pile_values == (0, 0) and view.stock_size == 52 - 4 - 8
    assert "hand 2: seat 1 deals, seat 0 plays first" in texts(events)


def test_card_values_and_the_play_pile_scores_nobody() -> None:
    expected = {**{Rank(n): 5 for n in range(2, 11)}, Rank.JACK: 10, Rank.QUEEN: 10}
    expected |= {Rank.KING: 10, Rank.ACE: 20}
    assert {c.rank: card_points(c) for c in ENGINE_DECK} == expected
    assert sum(card_points(c) for c in ENGINE_DECK) == 380


def test_a_deal_of_four_players_passes_right_through_every_seat() -> None:
    state = parse_ruleset("gharat?target=200").new_state(4, seed=11)
    events = state.opening_events()
    rng = random.Random(11)
    while not state.is_over:
        seat = decider(state)
        events += state.apply({seat: rng.choice(state.legal_actions(seat))})
    dealers = [e.seat for e in events if e.kind == "hand_start"]
    assert len(dealers) >= 5 and dealers[:5] == [0, 3, 2, 1, 0]


# --------------------------------------------------------------------------- the end


def _one_hand(ruleset: str, seat0: str, seat1: str) -> tuple[GharatState, list[Event]]:
    """A 2-seat hand where nothing is captured, with these capture piles set up."""
    state = game(["2d 3d 4d 5d", "6h 7h 8h 9h"], "2h 3h 4h 10s", ruleset=ruleset)
    to_pile(state, 0, seat0)
    to_pile(state, 1, seat1)
    empty_stock(state)
    for label in ("6♥", "2♦", "7♥", "3♦", "8♥"):
        play(state, f"play {label}: onto the play pile")
    return state, play(state, "play 4♦: onto the play pile")


def test_the_game_ends_when_a_player_reaches_the_target_and_highest_wins() -> None:
    state, events = _one_hand("gharat?target=50", "2s Js Qs Ks As", "2c 10c Jc Qc Kc Ac")
    assert state.is_over and state.deciders() == () and state.in_turn() is None
    result = state.result()
    assert (result.scores, result.places, result.hand_scores) == ((55, 60), (2, 1), ((55, 60),))
    assert result.teams == ()
    assert texts(events)[-1] == "game over: seat 0 place 2, seat 1 place 1"
    with pytest.raises(IllegalAction):
        state.apply({0: GharatAction(Kind.DROP, cards("5d")[0])})


def test_below_the_target_the_game_goes_on() -> None:
    state, _ = _one_hand("gharat?target=61", "2s Js Qs Ks As", "2c 10c Jc Qc Kc Ac")
    assert not state.is_over and obs(state).hand_number == 2
    with pytest.raises(GameError):
        state.result()


def test_a_tie_at_the_top_plays_another_hand() -> None:
    state, events = _one_hand("gharat?target=50", "2s 10d Js Qs Ks As", "2c 10c Jc Qc Kc Ac")
    assert "a tie at the top with 60: another hand" in texts(events)
    assert not state.is_over and obs(state).hand_number == 2
    assert obs(state).totals == (60, 60)


def test_a_hard_cap_of_hands_ends_any_game() -> None:
    state = parse_ruleset("gharat?target=1000000").new_state(2, seed=5)
    rng = random.Random(5)
    events: list[Event] = []
    while not state.is_over:
        seat = decider(state)
        events = state.apply({seat: rng.choice(state.legal_actions(seat))})
    assert obs(state).hand_number == MAX_HANDS == 200
    assert texts(events)[-1].startswith("game over (the cap of 200 hands is reached)")
    result = state.result()
    assert len(result.hand_scores) == 200
    assert result.scores == tuple(sum(h[s] for h in result.hand_scores) for s in range(2))


# --------------------------------------------------------------------------- partnerships


def _partnership_hand(ruleset: str, piles: Sequence[str]) -> tuple[GharatState, list[Event]]:
    hands = ["6h 7h 8h 9h", "2c 3c 4c 5c", "6d 7d 8d 9d", "2h 3h 4h 5h"]
    state = game(hands, "10h Jh Qh 10s", ruleset=ruleset)
    for seat, text in enumerate(piles):
        to_pile(state, seat, text)
    empty_stock(state)
    events: list[Event] = []
    while not state.is_over and obs(state).hand_number == 1:
        events = play(state, labels(state)[0])
    return state, events


def test_partners_sit_across_and_add_their_scores() -> None:
    state, events = _partnership_hand("gharat?partnerships&target=25", ["Js Qs", "As", "Ks", ""])
    assert "team totals: seats 0+2 30, seats 1+3 20" in texts(events)
    assert state.is_over
    result = state.result()
    assert result.scores == (30, 20, 30, 20)
    assert result.places == (1, 2, 1, 2)
    assert result.teams == ((0, 2), (1, 3))
    assert result.hand_scores == ((30, 20, 30, 20),)
    view = obs(state, 3)
    assert view.partnerships and view.totals == (20, 20, 10, 0)


def test_partnerships_tie_between_teams_plays_on_but_partners_never_tie() -> None:
    state, events = _partnership_hand("gharat?partnerships&target=10", ["Js", "As", "Ks", ""])
    assert "a tie at the top with 20: another hand" in texts(events)
    assert not state.is_over
    state, _ = _partnership_hand("gharat?partnerships&target=10", ["Js", "", "Ks", ""])
    assert state.is_over and state.result().places == (1, 2, 1, 2)


def test_without_partnerships_four_players_score_alone() -> None:
    state, _ = _partnership_hand("gharat?target=25", ["Js Qs", "As Ks", "10c", ""])
    result = state.result()
    assert result.scores == (20, 30, 5, 0) and result.places == (2, 1, 3, 4)
    assert result.teams == ()


# --------------------------------------------------------------------------- information


def test_observation_hides_other_hands_the_stock_and_the_buried_cards() -> None:
    state = game(["7s 9d 10c Jc", "Ks 2c 3c 4c"], "5h 7c 7d Kd")
    play(state, "play K♠: take from the play pile")
    view = obs(state, 1)
    assert obs(state, 1) == view  # observe is pure
    seen = {c.id for c in (*view.hand, *view.play_pile)}
    seen |= {c.id for p in view.piles for c in p.cards}
    hidden = {c.id for c in state.hands[0]} | {c.id for c in state.stock}
    hidden |= {c.id for c in state.play_pile[: state.buried]}
    assert not seen & hidden
    assert faces(view.play_pile) == "7♦" and view.buried == 2
    assert view.hand_sizes == (4, 3) and view.stock_size == len(state.stock)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_buried_card_reaches_no_seat_before_it_is_uncovered(seats: int) -> None:
    for seed in range(15):
        state = cast(GharatState, parse_ruleset("gharat").new_state(seats, seed=seed))
        rng = random.Random(seed)
        events = state.opening_events()
        hidden: set[int] = set()
        while True:
            for event in events:
                if event.kind == "hand_start":  # a new shuffle: the state's buried cards
                    hidden = {c.id for c in state.play_pile[: state.buried]}
                if event.kind in ("take", "uncover"):  # these cards reached the top
                    hidden -= {c.id for c in event.cards}
                if event.audience != frozenset():
                    assert not hidden & {c.id for c in event.cards}, event
                    assert not any(
                        f" {c.face} " in f" {event.text} " for c in ENGINE_DECK if c.id in hidden
                    ), event
            buried = {c.id for c in state.play_pile[: state.buried]}
            assert hidden == buried
            for seat in range(seats):
                view = obs(state, seat)
                shown = {c.id for c in (*view.hand, *view.play_pile)}
                shown |= {c.id for p in view.piles for c in p.cards}
                assert not buried & shown
            if state.is_over:
                break
            seat = decider(state)
            events = state.apply({seat: rng.choice(state.legal_actions(seat))})


def test_resample_hidden_permutes_hands_stock_and_buried_cards() -> None:
    state = game(["7s 9d 10c Jc", "Ks 2c 3c 4c", "2d 3d 4d 5d"], "5h 7c 6d Kd")
    play(state, "play 2♦: onto the play pile")
    rng = random.Random(3)
    copies = [state.resample_hidden(2, rng) for _ in range(10)]
    for other in copies:
        assert other.observe(2) == state.observe(2)
        assert other.deciders() == state.deciders() == (1,)
        assert sorted(c.id for c in other.all_cards()) == list(range(52))
        assert other.buried == 3 and other.play_pile[3:] == state.play_pile[3:]
    assert any(c.play_pile[:3] != state.play_pile[:3] for c in copies)
    assert any(c.hands[0] != state.hands[0] for c in copies)
    # The decider's own legal actions do not change in a world resampled for it.
    for other in (state.resample_hidden(1, rng) for _ in range(5)):
        assert other.legal_actions(1) == state.legal_actions(1)
    other = copies[0]
    while not other.is_over:
        seat = decider(other)
        other.apply({seat: rng.choice(other.legal_actions(seat))})


def test_clone_is_independent() -> None:
    state = game(["7s 9d 10c Jc", "Ks 2c 3c 4c"], "5h 7c 7d Kd")
    twin = state.clone()
    play(state, "play K♠: take from the play pile")
    assert pile(twin, 1) == "" and obs(twin).buried == 3 and hand(twin, 1) == "2♣ 3♣ 4♣ K♠"


def test_illegal_actions_raise() -> None:
    state = game(["9c 9d 10c Jc", "Ks 2c 3c 4c"], "5h 7c 7d Kd")
    take = state.legal_actions(1)[-1]
    with pytest.raises(IllegalAction):
        state.apply({0: take})  # not seat 0's turn
    with pytest.raises(IllegalAction):
        state.apply({})
    with pytest.raises(IllegalAction):
        state.apply({1: take, 0: take})
    with pytest.raises(IllegalAction):
        state.apply({1: GharatAction(Kind.DROP, cards("9c")[0])})  # not in seat 1's hand
    with pytest.raises(IllegalAction):
        state.apply({1: GharatAction(Kind.LOOT, cards("Ks")[0], 0)})  # seat 0's pile is empty
    assert state.legal_actions(0) == () and state.in_turn() == 1


# --------------------------------------------------------------------------- smoke


@pytest.mark.parametrize("ruleset", ["gharat", "gharat?partnerships", "gharat?target=300"])
def test_random_playouts_finish_and_conserve_cards(ruleset: str) -> None:
    seat_counts = [4] if "partnerships" in ruleset else [2, 3, 4]
    for seed in range(6):
        seats = seat_counts[seed % len(seat_counts)]
        state = parse_ruleset(ruleset).new_state(seats, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = decider(state)
            actions = state.legal_actions(seat)
            assert actions
            state.apply({seat: rng.choice(actions)})
            assert sorted(c.id for c in state.all_cards()) == list(range(52))
        result = state.result()
        assert result.scores == tuple(sum(h[s] for h in result.hand_scores) for s in range(seats))
        top = max(result.scores)
        assert top >= int(obs(state).target) or obs(state).hand_number == MAX_HANDS
        assert sum(1 for p in result.places if p == 1) == (2 if result.teams else 1)
