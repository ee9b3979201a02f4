"""Rule tests for Four Card Thief: exact deals with explicit deck orders, exact outcomes.

Deals are written per seat; `game()` turns them into the deck orders the engine
consumes (first the draw for the first dealer, then one order per hand). The
dealer defaults to the last seat so that seat 0 plays first. After the hands come
the four layout cards, then the stock from its top: the first stock card is seat
0's opening draw. Cards not named follow in id order (2♣ 3♣ ...), so every test
names the stock cards it draws.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import fields
from typing import cast

import pytest

from referee.cards import Card, Rank, make_deck, parse_cards, stack_deck
from referee.games import parse_ruleset
from referee.games.base import Event, GameError, GameState, IllegalAction
from referee.games.four_card_thief import (
    DECK as ENGINE_DECK,
)
from referee.games.four_card_thief import (
    FourCardThief,
    FourCardThiefAction,
    FourCardThiefActionKind,
    FourCardThiefObservation,
    FourCardThiefState,
    card_points,
    is_protected,
)
from referee.v1 import four_card_thief_pb2 as fct_pb2

DECK = make_deck(1, 3)
RULESET = parse_ruleset("four-card-thief")
LOW_CARDS = ["3c", "4c", "5c", "6c", "7c", "8c"]
Kind = FourCardThiefActionKind


# --------------------------------------------------------------------------- helpers


def draw_order(dealer: int, seats: int) -> list[Card]:
    """A draw for the first dealer that `dealer` wins with a joker."""
    names = ["Jo" if s == dealer else LOW_CARDS[s] for s in range(seats)]
    return stack_deck(DECK, " ".join(names))


def deal_order(dealer: int, hands: Sequence[str], layout: str, stock: str = "") -> list[Card]:
    """The deck order that deals `hands[seat]` to each seat, one card at a time from
    the left of the dealer, then turns the four `layout` cards, then leaves `stock`
    on top of the stock."""
    split = [h.split() for h in hands]
    n = len(hands)
    names = [split[(dealer + k) % n][r] for r in range(4) for k in range(1, n + 1)]
    return stack_deck(DECK, " ".join([*names, layout, stock]))


def game(
    hands: Sequence[str],
    layout: str,
    stock: str = "",
    dealer: int | None = None,
    later: Sequence[list[Card]] = (),
) -> FourCardThiefState:
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    orders = [draw_order(dealer, n), deal_order(dealer, hands, layout, stock), *later]
    return cast(FourCardThiefState, RULESET.new_state(n, seed=0, orders=orders))


def faces(cards: Sequence[Card]) -> str:
    return " ".join(c.face for c in cards)


def decider(state: GameState) -> int:
    (seat,) = state.deciders()
    return seat


def labels(state: GameState) -> list[str]:
    return [a.label for a in state.legal_actions(decider(state))]


def captures(state: GameState) -> list[str]:
    return [label for label in labels(state) if not label.startswith("discard")]


def play(state: GameState, label: str) -> list[Event]:
    """Apply the deciding seat's legal action with this label."""
    seat = decider(state)
    for action in state.legal_actions(seat):
        if action.label == label:
            return state.apply({seat: action})
    raise AssertionError(f"{label!r} is not legal for seat {seat}: {labels(state)}")


def obs(state: GameState, seat: int = 0) -> FourCardThiefObservation:
    return cast(FourCardThiefObservation, state.observe(seat))


def pile(state: GameState, seat: int) -> list[str]:
    """A seat's capture pile as the faces of its sets, oldest first."""
    return [faces(s.cards) for s in obs(state).piles[seat].sets]


def hand(state: GameState, seat: int) -> str:
    return faces(obs(state, seat).hand)


def layout(state: GameState) -> str:
    return faces(obs(state).layout)


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.is_public]


def shorten_stock(state: FourCardThiefState, keep: int) -> None:
    """Leave only the top `keep` stock cards (the rest leave play), so that a test
    can reach the end of a hand quickly. Later hands shuffle all 55 cards anew."""
    del state.stock[: len(state.stock) - keep]


def cards(text: str) -> list[Card]:
    return parse_cards(text, DECK)


# --------------------------------------------------------------------------- the game


def test_registered_game_and_rulings() -> None:
    game_ = RULESET.game
    assert isinstance(game_, FourCardThief)
    assert (game_.name, game_.title, game_.wire_name) == (
        "four-card-thief",
        "Four Card Thief",
        "four_card_thief",
    )
    assert (FourCardThief.min_seats, FourCardThief.max_seats, FourCardThief.options) == (2, 6, ())
    rulings = FourCardThief.rulings()
    assert rulings.startswith("From the rulings file")
    for phrase in ("exactly four natural cards", "No re-capture", "refills to 5", "Jo+Jo"):
        assert phrase in rulings
    assert 8 <= len(FourCardThief.summary.splitlines()) <= 16


def test_wire_types_mirror_the_proto() -> None:
    proto_obs = [f.name for f in fct_pb2.FourCardThiefObservation.DESCRIPTOR.fields]
    assert [f.name for f in fields(FourCardThiefObservation)] == proto_obs
    proto_action = [f.name for f in fct_pb2.FourCardThiefAction.DESCRIPTOR.fields]
    assert [f.name for f in fields(FourCardThiefAction)] == proto_action
    proto_kinds = {
        v.name.removeprefix("FOUR_CARD_THIEF_ACTION_KIND_"): v.number
        for v in fct_pb2.FourCardThiefActionKind.DESCRIPTOR.values
        if v.number
    }
    assert {k.name: k.value for k in Kind} == proto_kinds


def test_one_deck_and_three_jokers() -> None:
    assert len(ENGINE_DECK) == 55
    assert sum(c.is_joker for c in ENGINE_DECK) == 3
    assert sorted(c.id for c in ENGINE_DECK) == list(range(55))
    state = RULESET.new_state(4, seed=3)
    assert sorted(c.id for c in state.all_cards()) == list(range(55))


def test_seat_range() -> None:
    with pytest.raises(GameError):
        RULESET.new_state(1, seed=0)
    with pytest.raises(GameError):
        RULESET.new_state(7, seed=0)


# --------------------------------------------------------------------------- first dealer


def test_highest_card_deals_first_and_left_of_dealer_starts() -> None:
    draw = stack_deck(DECK, "3c 9d Kh 5s")
    state = RULESET.new_state(4, seed=0, orders=[draw])
    assert (obs(state).dealer, obs(state).turn, decider(state)) == (2, 3, 3)
    draws = [e for e in state.opening_events() if e.kind == "dealer_draw"]
    assert [(e.seat, faces(e.cards)) for e in draws] == [(0, "3♣"), (1, "9♦"), (2, "K♥"), (3, "5♠")]
    assert all(e.is_public for e in draws)
    assert "seat 2 deals first" in texts(state.opening_events())


def test_tie_for_highest_draws_again_and_the_joker_is_highest() -> None:
    draw = stack_deck(DECK, "Ac 9d Ah 5s Jo Qd")
    state = RULESET.new_state(4, seed=0, orders=[draw])
    draws = [(e.seat, faces(e.cards)) for e in state.opening_events() if e.kind == "dealer_draw"]
    assert draws[4:] == [(0, "Jo"), (2, "Q♦")]
    assert obs(state).dealer == 0 and obs(state).turn == 1


# --------------------------------------------------------------------------- the deal


def test_deal_four_each_one_at_a_time_then_a_four_card_layout() -> None:
    # Dealer 1 of 3: cards go to seats 2, 0, 1, 2, 0, 1, ...; cards 13-16 are the layout.
    order = stack_deck(DECK, "9c 3c 6c 10d 4d 7d Jh 5h 8h Ks 2s As Qc Qd Qh Qs 8d")
    state = RULESET.new_state(3, seed=0, orders=[draw_order(1, 3), order])
    # Seat 2 starts: its opening draw (8♦) is already in its hand.
    assert [hand(state, s) for s in range(2)] == ["2♠ 3♣ 4♦ 5♥", "6♣ 7♦ 8♥ A♠"]
    assert hand(state, 2) == "8♦ 9♣ 10♦ J♥ K♠"
    view = obs(state, 2)
    assert faces(view.layout) == "Q♣ Q♦ Q♥ Q♠"
    assert view.stock_size == 55 - 12 - 4 - 1
    assert (view.dealer, view.turn, view.hand_number, view.hands_total) == (1, 2, 1, 3)
    assert view.hand_sizes == (4, 4, 5)
    opening = state.opening_events()
    deals = [e for e in opening if e.kind == "deal"]
    assert [(e.audience, faces(e.cards)) for e in deals] == [
        (frozenset({2}), "9♣ 10♦ J♥ K♠"),
        (frozenset({0}), "2♠ 3♣ 4♦ 5♥"),
        (frozenset({1}), "6♣ 7♦ 8♥ A♠"),
    ]
    counts = [e for e in opening if e.kind == "deal_count"]
    assert all(e.is_public and not e.cards for e in counts) and len(counts) == 3
    assert "the layout is Q♣ Q♦ Q♥ Q♠" in texts(opening)


def test_each_turn_opens_with_a_draw_seen_only_by_the_drawer() -> None:
    state = game(["7s 7h Kd 4c", "3c 5d 6h 9h"], "2d 8c 10s Qh", "Jd 4s 4h Ah")
    opening = state.opening_events()
    assert hand(state, 0) == "4♣ 7♥ 7♠ J♦ K♦"
    draw = next(e for e in opening if e.kind == "draw")
    assert draw.audience == frozenset({0}) and faces(draw.cards) == "J♦"
    assert "seat 0 draws a card" in texts(opening)
    assert not any("J♦" in e.text or e.cards for e in opening if e.kind == "draw_count")
    play(state, "pair 7♥ 7♠")
    play(state, "discard 4♣")
    assert hand(state, 1) == "3♣ 5♦ 6♥ 9♥ A♥"  # seat 1's turn opened with A♥


# --------------------------------------------------------------------------- pairs


def test_pair_in_hand_forms_a_set_and_refills_to_five() -> None:
    state = game(["7s 7h Kd 4c", "3c 5d 6h 9h"], "2d 8c 10s Qh", "Jd As 3s")
    assert labels(state) == ["pair 7♥ 7♠"]
    events = play(state, "pair 7♥ 7♠")
    assert "seat 0 pairs 7♥ 7♠" in texts(events)
    assert pile(state, 0) == ["7♥ 7♠"]
    assert hand(state, 0) == "3♠ 4♣ J♦ K♦ A♠"
    draw = next(e for e in events if e.kind == "draw")
    assert draw.audience == frozenset({0}) and faces(draw.cards) == "A♠ 3♠"
    assert "seat 0 draws 2 cards" in texts(events)
    assert obs(state).stock_size == 55 - 8 - 4 - 3


def test_joker_pair_and_pair_of_twos() -> None:
    assert captures(game(["Jo Jo 5h 6c", "3c 4d 6h 9h"], "8d 10c Qs Kd", "Js")) == ["pair Jo Jo"]
    assert captures(game(["2c 2d 5h 6c", "3c 4d 6h 9h"], "8d 10c Qs Kd", "Js")) == ["pair 2♣ 2♦"]


def test_three_of_a_rank_offer_one_pair_of_the_lowest_ids() -> None:
    state = game(["8s 8h 8d 3c", "4c 4d 6h 9h"], "2d 10c Qs Kd", "Js")
    (action,) = state.legal_actions(0)
    assert action.kind is Kind.PAIR
    assert faces(action.cards) == "8♦ 8♥"


# --------------------------------------------------------------------------- the layout


def test_a_hand_card_takes_any_layout_card_of_its_rank() -> None:
    state = game(["8s 3c Qd 5h", "4c 4d 6h 9h"], "2d 8c 10s Qh", "Js 7c 7d")
    assert labels(state) == [
        "take 8♣ from the layout with 8♠",
        "take Q♥ from the layout with Q♦",
    ]
    events = play(state, "take Q♥ from the layout with Q♦")
    assert "seat 0 takes Q♥ from the layout with Q♦" in texts(events)
    assert pile(state, 0) == ["Q♥ Q♦"]  # the capturing card on top
    assert layout(state) == "2♦ 8♣ 10♠"
    assert hand(state, 0) == "3♣ 5♥ 7♣ 8♠ J♠"
    play(state, "take 8♣ from the layout with 8♠")
    assert pile(state, 0) == ["Q♥ Q♦", "8♣ 8♠"]
    assert layout(state) == "2♦ 10♠"


def test_a_layout_match_takes_one_card_only() -> None:
    state = game(["9c 9h 3c 5h", "4c 4d 6h Kh"], "9d 9s 10c Qs", "Jd 7c 7d 2h")
    assert labels(state) == ["pair 9♣ 9♥", "take 9♦ from the layout with 9♣"]
    play(state, "take 9♦ from the layout with 9♣")
    assert layout(state) == "9♠ 10♣ Q♠"
    assert labels(state)[0] == "take 9♠ from the layout with 9♥"
    play(state, "take 9♠ from the layout with 9♥")
    assert pile(state, 0) == ["9♦ 9♣", "9♠ 9♥"]
    assert layout(state) == "10♣ Q♠"


def test_a_joker_takes_only_a_joker_from_the_layout() -> None:
    state = game(["Jo 3c 5h 6c", "4c 4d 6h Kh"], "8d 10c Qs Kd", "Jd")
    assert obs(state).forced_discard
    assert captures(state) == []
    state = game(["Jo 3c 5h 6c", "4c 4d 6h Kh"], "8d Jo Qs Kd", "Jd")
    assert captures(state) == ["take Jo from the layout with Jo"]


# --------------------------------------------------------------------------- steals


def _seat0_pairs_sevens(
    hand1: str, hand0: str = "7s 7h 4c 5h", stock: str = "Jd Kc Ks As"
) -> FourCardThiefState:
    """Seat 0 pairs 7s and discards 4♣; seat 1 is on turn (its draw is the 4th stock card)."""
    state = game([hand0, hand1], "2d 8c 10s Qh", stock)
    play(state, "pair 7♥ 7♠")
    play(state, "discard 4♣")
    return state


def test_steal_with_a_card_of_the_top_cards_rank() -> None:
    state = _seat0_pairs_sevens("7d 3c 6h 9h")
    assert captures(state) == ["steal from seat 0 with 7♦"]
    events = play(state, "steal from seat 0 with 7♦")
    assert "seat 1 steals 7♥ 7♠ from seat 0 with 7♦" in texts(events)
    assert pile(state, 1) == ["7♥ 7♠ 7♦"] and pile(state, 0) == []


def test_steal_with_a_joker_and_a_joker_on_top_needs_a_joker() -> None:
    state = game(["7s 7h 4c 5h", "Jo 3c 6h 9h", "7d 2c Qd Jo"], "2d 8c 10s Kh", "Jd Kc Ks As 5s 6s")
    play(state, "pair 7♥ 7♠")
    play(state, "discard 4♣")
    assert captures(state) == ["steal from seat 0 with Jo"]
    play(state, "steal from seat 0 with Jo")
    assert pile(state, 1) == ["7♥ 7♠ Jo"]
    play(state, "discard 3♣")
    # The top card is the joker: the natural 7♦ does not match it; the joker does.
    assert decider(state) == 2
    assert captures(state) == ["take 2♦ from the layout with 2♣", "steal from seat 1 with Jo"]


def test_twos_are_natural_and_cannot_steal() -> None:
    state = _seat0_pairs_sevens("2c 3c 6h 9h", stock="Jd Kc Ks 2s")
    assert captures(state) == ["pair 2♣ 2♠", "take 2♦ from the layout with 2♣"]


def test_steal_takes_only_the_top_set_and_never_from_ones_own_pile() -> None:
    state = game(["7s 7h 9c 4c", "9h 7d Qc 3c"], "9d 5h 6h 10s", "Ks Kh Kd 2s 2h Js 5d")
    play(state, "pair 7♥ 7♠")
    play(state, "take 9♦ from the layout with 9♣")
    assert captures(state) == ["pair K♦ K♥"]  # no steal from its own pile
    play(state, "discard 4♣")
    assert pile(state, 0) == ["7♥ 7♠", "9♦ 9♣"]
    assert captures(state) == ["steal from seat 0 with 9♥"]
    play(state, "steal from seat 0 with 9♥")
    assert pile(state, 0) == ["7♥ 7♠"]
    assert pile(state, 1) == ["9♦ 9♣ 9♥"]
    # The 7s are now on top of seat 0's pile, so the 7♦ may steal them too.
    assert captures(state) == ["steal from seat 0 with 7♦"]
    play(state, "steal from seat 0 with 7♦")
    assert pile(state, 1) == ["9♦ 9♣ 9♥", "7♥ 7♠ 7♦"] and pile(state, 0) == []


def test_no_recapture_the_victim_is_never_asked() -> None:
    state = game(["7s 7h 4c 7c", "7d Jo 6h 9h"], "2d 8c 10s Qh", "Jd Kc Ks As")
    play(state, "pair 7♣ 7♥")
    play(state, "discard 4♣")
    assert hand(state, 0) == "7♠ J♦ K♣ K♠"
    events = play(state, "steal from seat 0 with 7♦")
    # Seat 0 holds the 7♠ that could take the set back in Thief; here the turn stays
    # with seat 1 and no decision of seat 0 comes before seat 1's discard.
    assert state.deciders() == (1,)
    assert not any("re-capture" in t for t in texts(events))
    play(state, labels(state)[-1])  # the last discard ends the turn
    assert decider(state) == 0
    assert pile(state, 1) == ["7♣ 7♥ 7♦"]


def test_a_set_of_four_natural_cards_of_one_rank_can_never_be_stolen() -> None:
    state = game(["7s 7h 4c 7c", "7d Jo 6h 9h"], "2d 8c 10s Qh", "Jd Kc Ks As 3h 5s")
    play(state, "pair 7♣ 7♥")
    play(state, "discard 4♣")
    play(state, "steal from seat 0 with 7♦")  # seat 1 refills with 3♥
    play(state, "discard 3♥")
    assert obs(state).piles[1].top_locked is False
    assert captures(state) == ["pair K♣ K♠", "steal from seat 1 with 7♠"]
    play(state, "steal from seat 1 with 7♠")
    assert pile(state, 0) == ["7♣ 7♥ 7♦ 7♠"]
    assert obs(state).piles[0].top_locked is True
    play(state, labels(state)[-1])
    # Seat 1 holds the joker, which steals any top set, but not this one.
    assert decider(state) == 1 and "Jo" in hand(state, 1)
    assert not any(label.startswith("steal") for label in labels(state))
    assert is_protected(tuple(cards("7h 7s 7d 7c")))


def test_a_set_of_four_with_a_joker_can_be_stolen() -> None:
    state = game(
        ["7s 7h 4c Jo", "Jo 3c 6h 9h", "Jo 5c 6c 8h"], "2d 8c 10s Qh", "Jd Kc Ks 3d 3h 5s 5d"
    )
    play(state, "pair 7♥ 7♠")
    play(state, "discard 4♣")
    play(state, "steal from seat 0 with Jo")
    play(state, "discard 3♣")
    assert decider(state) == 2
    play(state, "steal from seat 1 with Jo")
    play(state, "discard 5♣")
    assert pile(state, 2) == ["7♥ 7♠ Jo Jo"]
    assert obs(state).piles[2].top_locked is False
    assert "steal from seat 2 with Jo" in labels(state)


def test_a_set_of_three_natural_cards_can_be_stolen() -> None:
    assert not is_protected(tuple(cards("7h 7s 7d")))
    assert not is_protected(tuple(cards("7h 7s 7d 7c Jo")))
    assert not is_protected(tuple(cards("Jo Jo Jo")))


# --------------------------------------------------------------------------- turn shape


def test_must_capture_once_then_the_discard_ends_the_turn() -> None:
    state = game(["7s 7h 9c 4c", "3c 4d 6h 9h"], "9d 2d 10s Qh", "Kd 5s 6d")
    assert not obs(state).captured_this_turn and not obs(state).forced_discard
    assert labels(state) == ["pair 7♥ 7♠", "take 9♦ from the layout with 9♣"]
    play(state, "pair 7♥ 7♠")
    assert obs(state).captured_this_turn
    assert labels(state) == [
        "take 9♦ from the layout with 9♣",
        "discard 4♣",
        "discard 5♠",
        "discard 6♦",
        "discard 9♣",
        "discard K♦",
    ]
    events = play(state, "discard 5♠")
    assert "seat 0 discards 5♠ to the layout; the turn ends" in texts(events)
    assert layout(state) == "9♦ 2♦ 10♠ Q♥ 5♠"
    assert obs(state).hand_sizes == (4, 5)
    assert decider(state) == 1


def test_no_capture_after_the_draw_discard_and_no_second_draw() -> None:
    state = game(["3c 5d 8h Jc", "4c 6d 10h Kh"], "2d 9c 10s Qh", "Ad 5h 7s")
    view = obs(state)
    assert view.forced_discard and view.hand_sizes == (5, 4)
    # Only seat 0 knows it has no capture open; the table learns it from the discard.
    assert texts(state.opening_events())[-2:] == ["seat 0's turn", "seat 0 draws a card"]
    assert labels(state) == ["discard 3♣", "discard 5♦", "discard 8♥", "discard J♣", "discard A♦"]
    events = play(state, "discard 8♥")
    assert [e.kind for e in events if e.seat == 0 and e.kind.startswith("draw")] == []
    assert hand(state, 0) == "3♣ 5♦ J♣ A♦"
    assert obs(state).stock_size == 55 - 8 - 4 - 2
    assert layout(state) == "2♦ 9♣ 10♠ Q♥ 8♥"
    # Seat 1's turn opened with 5♥; its 10♥ takes the 10♠.
    assert decider(state) == 1 and not obs(state).forced_discard


def test_refills_stop_when_the_stock_is_empty() -> None:
    state = game(["7s 7h 9c 4c", "3c 4d 6h 9h"], "9d 2d 10s Qh", "Kd Ks")
    shorten_stock(state, 1)
    events = play(state, "pair 7♥ 7♠")  # refills one card only, K♠, the last
    assert "the stock is empty: the hand ends with this turn" in texts(events)
    assert hand(state, 0) == "4♣ 9♣ K♦ K♠"
    play(state, "pair K♦ K♠")  # no refill
    assert hand(state, 0) == "4♣ 9♣"
    assert obs(state).hand_number == 1


# --------------------------------------------------------------------------- end of hand


def test_hand_ends_after_the_turn_in_which_the_stock_ran_out() -> None:
    state = game(["7s 7h 9c 4c", "3c 4d 6h 9h"], "9d 2d 10s Qh", "Kd")
    shorten_stock(state, 0)
    play(state, "pair 7♥ 7♠")
    assert decider(state) == 0
    events = play(state, "discard 4♣")
    assert "hand 1 ends: seat 0 2 (total 2), seat 1 0 (total 0)" in texts(events)
    view = obs(state)
    assert (view.hand_number, view.dealer, view.turn, view.totals) == (2, 0, 1, (2, 0))
    assert view.pile_values == (0, 0) and view.stock_size == 55 - 8 - 4 - 1


def test_the_opening_draw_may_take_the_last_card() -> None:
    state = game(["3c 5d 8h Jc", "4c 6d 10h Kh"], "2d 9c 10s Qh", "Ad 5h")
    shorten_stock(state, 1)
    events = play(state, "discard 3♣")  # seat 1 draws 5♥, the last card
    assert "the stock is empty: the hand ends with this turn" in texts(events)
    assert decider(state) == 1 and obs(state).hand_number == 1
    events = play(state, "take 10♠ from the layout with 10♥")
    play(state, "discard 4♣")
    assert obs(state).hand_number == 2
    assert obs(state).totals == (0, 2)


def test_a_hand_that_runs_out_of_cards_ends_the_turn_without_a_discard() -> None:
    state = game(["7s 7h 9c 9h", "3c 4d 6h 10h"], "Kh 2d 10s Qd", "Kd")
    shorten_stock(state, 0)
    play(state, "pair 7♥ 7♠")
    play(state, "pair 9♣ 9♥")
    assert hand(state, 0) == "K♦"
    events = play(state, "take K♥ from the layout with K♦")
    assert "seat 0 has no card left to discard; the turn ends" in texts(events)
    assert "hand 1 ends: seat 0 24 (total 24), seat 1 0 (total 0)" in texts(events)


def test_card_values() -> None:
    expected = {
        **{Rank(n): 1 for n in range(2, 11)},
        Rank.JACK: 10,
        Rank.QUEEN: 10,
        Rank.KING: 10,
        Rank.ACE: 10,
        Rank.JOKER: 25,
    }
    assert {c.rank: card_points(c) for c in ENGINE_DECK} == expected
    assert sum(card_points(c) for c in ENGINE_DECK) == 36 + 160 + 75


def test_hand_scores_count_capture_piles_only() -> None:
    state = game(["Jo Jo Ac 3c", "10c Jh 4s 5s"], "Ad 2c 3d Kh", "As Kd 6h 6c")
    play(state, "pair Jo Jo")  # refills K♦ 6♥
    play(state, "take A♦ from the layout with A♣")  # refills 6♣
    shorten_stock(state, 0)
    play(state, "take K♥ from the layout with K♦")
    assert obs(state).pile_values == (25 + 25 + 10 + 10 + 10 + 10, 0)
    events = play(state, "pair 6♣ 6♥")
    assert hand(state, 0) == "3♣ A♠"
    events = play(state, "discard A♠")  # cards in hand and in the layout score nothing
    assert "hand 1 ends: seat 0 92 (total 92), seat 1 0 (total 0)" in texts(events)


# --------------------------------------------------------------------------- the game


def test_dealer_rotates_left_and_each_player_deals_once() -> None:
    state = RULESET.new_state(3, seed=7, orders=[draw_order(1, 3)])
    events = state.opening_events()
    rng = random.Random(7)
    while not state.is_over:
        seat = decider(state)
        events += state.apply({seat: rng.choice(state.legal_actions(seat))})
    starts = [i for i, e in enumerate(events) if e.kind == "hand_start"]
    assert [events[i].seat for i in starts] == [1, 2, 0]
    first_turns = [next(e.seat for e in events[i:] if e.kind == "turn") for i in starts]
    assert first_turns == [2, 0, 1]
    result = state.result()
    assert len(result.hand_scores) == 3
    assert result.scores == tuple(sum(h[s] for h in result.hand_scores) for s in range(3))
    assert state.deciders() == () and state.legal_actions(0) == ()
    assert state.decision_kinds() == {}


def test_totals_accumulate_and_equal_totals_share_a_place() -> None:
    hand2 = deal_order(0, ["3c 4d 6h 10c", "8s 8h 9c Jc"], "9d 2d 10s Qh", "Kd")
    state = game(["7s 7h 9c 4c", "3c 4d 6h 10c"], "9d 2d 10s Qh", "Kd", later=[hand2])
    shorten_stock(state, 0)
    play(state, "pair 7♥ 7♠")
    play(state, "discard 4♣")
    assert obs(state).hand_number == 2 and decider(state) == 1
    assert hand(state, 1) == "8♥ 8♠ 9♣ J♣ K♦"
    shorten_stock(state, 0)
    play(state, "pair 8♥ 8♠")
    play(state, "discard J♣")
    assert state.is_over
    result = state.result()
    assert result.scores == (2, 2)
    assert result.places == (1, 1)
    assert result.hand_scores == ((2, 0), (0, 2))
    with pytest.raises(IllegalAction):
        state.apply({0: FourCardThiefAction(Kind.DISCARD, tuple(cards("3c")))})


def test_illegal_actions_raise() -> None:
    state = game(["7s 7h 9c 4c", "3c 4d 6h 9h"], "9d 2d 10s Qh", "Kd 5s 5d")
    discard = FourCardThiefAction(Kind.DISCARD, tuple(cards("4c")))
    with pytest.raises(IllegalAction):
        state.apply({0: discard})  # a capture is open and none was made
    with pytest.raises(IllegalAction):
        state.apply({1: state.legal_actions(0)[0]})  # not seat 1's decision
    with pytest.raises(IllegalAction):
        state.apply({})
    with pytest.raises(IllegalAction):
        state.apply({0: state.legal_actions(0)[0], 1: discard})
    wrong = FourCardThiefAction(Kind.LAYOUT_MATCH, tuple(cards("9c")), taken=cards("2d")[0])
    with pytest.raises(IllegalAction):
        state.apply({0: wrong})
    assert labels(state) == ["pair 7♥ 7♠", "take 9♦ from the layout with 9♣"]
    assert state.legal_actions(1) == ()
    assert state.in_turn() == 0


# --------------------------------------------------------------------------- information


def test_observation_hides_other_hands_and_the_stock() -> None:
    state = game(["7s 7h 4c 5h", "7d Jo 10h 3c"], "2d 8c 10s Qh", "Kc 2s")
    play(state, "pair 7♥ 7♠")
    before = obs(state, 1)
    assert obs(state, 1) == before  # observe is pure
    seen: set[int] = {c.id for c in before.hand} | {c.id for c in before.layout}
    seen |= {c.id for p in before.piles for s in p.sets for c in s.cards}
    hidden = {c.id for c in state.hands[0]} | {c.id for c in state.stock}
    assert not seen & hidden
    assert before.hand_sizes == (5, 4) and before.stock_size == len(state.stock)
    assert faces(before.hand) == "3♣ 7♦ 10♥ Jo"


def test_resample_hidden_keeps_the_observation_and_permutes_the_rest() -> None:
    state = game(["7s 7h 4c 5h", "7d Jo 10h 3c", "3d 4d 6h 8s"], "2d 8c 10s Qh", "Kc 2s 5d")
    play(state, "pair 7♥ 7♠")
    play(state, "discard 4♣")
    rng = random.Random(3)
    copies = [state.resample_hidden(1, rng) for _ in range(5)]
    for other in copies:
        assert other.observe(1) == state.observe(1)
        assert other.legal_actions(1) == state.legal_actions(1)
        assert sorted(c.id for c in other.all_cards()) == list(range(55))
    assert any(c.hands[0] != state.hands[0] for c in copies)
    # Seat 1 must capture; in a world resampled for seat 0 it may hold no capture,
    # yet it always has a decision to make.
    for _ in range(20):
        world = state.resample_hidden(0, rng)
        assert world.observe(0) == state.observe(0)
        assert world.legal_actions(1)
    other = copies[0]
    while not other.is_over:
        seat = decider(other)
        other.apply({seat: rng.choice(other.legal_actions(seat))})


def test_clone_is_independent() -> None:
    state = game(["7s 7h 4c 5h", "7d Jo 10h 3c"], "2d 8c 10s Qh", "Kc 2s")
    twin = state.clone()
    play(state, "pair 7♥ 7♠")
    assert pile(twin, 0) == [] and labels(twin) == ["pair 7♥ 7♠"]
    assert hand(twin, 0) == "4♣ 5♥ 7♥ 7♠ K♣"


# --------------------------------------------------------------------------- smoke


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_random_playouts_finish_and_conserve_cards(seats: int) -> None:
    for seed in range(30):
        state = RULESET.new_state(seats, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = decider(state)
            actions = state.legal_actions(seat)
            assert actions
            state.apply({seat: rng.choice(actions)})
            assert len({c.id for c in state.all_cards()}) == 55
            if not state.is_over:
                view = obs(state, decider(state))
                # Between turns every hand holds 4 cards (the stock cannot run out
                # before the last turn of a hand).
                others = [size for s, size in enumerate(view.hand_sizes) if s != view.turn]
                assert all(size == 4 for size in others)
        result = state.result()
        assert len(result.hand_scores) == seats
        assert sum(sum(h) for h in result.hand_scores) == sum(result.scores)
