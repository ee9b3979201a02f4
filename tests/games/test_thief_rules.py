"""Rule tests for Thief: exact deals with explicit deck orders, exact outcomes.

Deals are written per seat; `game()` turns them into the deck orders the engine
consumes (first the draw for the first dealer, then one order per hand). The
dealer defaults to the last seat so that seat 0 plays first. Cards not named
follow in id order (2♣ 3♣ ...), so every test names the stock cards it draws.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import fields
from typing import cast

import pytest

from referee.cards import Card, Rank, make_deck, parse_cards, stack_deck
from referee.games import parse_ruleset
from referee.games.base import Event, GameState, IllegalAction
from referee.games.thief import (
    Thief,
    ThiefAction,
    ThiefActionKind,
    ThiefDispute,
    ThiefObservation,
    ThiefSet,
    ThiefState,
    card_points,
)
from referee.match import Match, TimeControl
from referee.seats import Fault, Reply
from referee.v1 import referee_pb2 as pb
from referee.v1 import thief_pb2

DECK = make_deck(2, 4)
RULESET = parse_ruleset("thief")
LOW_CARDS = ["3c", "4c", "5c", "6c", "7c", "8c"]


# --------------------------------------------------------------------------- helpers


def draw_order(dealer: int, seats: int) -> list[Card]:
    """A draw for the first dealer that `dealer` wins with a joker."""
    names = ["Jo" if s == dealer else LOW_CARDS[s] for s in range(seats)]
    return stack_deck(DECK, " ".join(names))


def deal_order(dealer: int, hands: Sequence[str], discard: str, stock: str = "") -> list[Card]:
    """The deck order that deals `hands[seat]` to each seat, one card at a time from
    the left of the dealer, then turns `discard`, then leaves `stock` on top."""
    split = [h.split() for h in hands]
    n = len(hands)
    names = [split[(dealer + k) % n][r] for r in range(3) for k in range(1, n + 1)]
    return stack_deck(DECK, " ".join([*names, discard, stock]))


def game(
    hands: Sequence[str],
    discard: str,
    stock: str = "",
    dealer: int | None = None,
    later: Sequence[list[Card]] = (),
) -> ThiefState:
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    orders = [draw_order(dealer, n), deal_order(dealer, hands, discard, stock), *later]
    return cast(ThiefState, RULESET.new_state(n, seed=0, orders=orders))


def faces(cards: Sequence[Card]) -> str:
    return " ".join(c.face for c in cards)


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


def pile(state: GameState, seat: int) -> list[str]:
    """A seat's capture pile as the faces of its sets, oldest first."""
    obs = cast(ThiefObservation, state.observe(0))
    return [faces(s.cards) for s in obs.piles[seat].sets]


def hand(state: GameState, seat: int) -> str:
    return faces(cast(ThiefObservation, state.observe(seat)).hand)


def obs(state: GameState, seat: int = 0) -> ThiefObservation:
    return cast(ThiefObservation, state.observe(seat))


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.is_public]


def shorten_stock(state: ThiefState, keep: int) -> None:
    """Leave only the top `keep` stock cards; bury the rest under the discard pile
    (face up, out of play), so a test can reach the end of a hand quickly."""
    cut = len(state.stock) - keep
    state.discard[:0] = state.stock[:cut]
    del state.stock[:cut]


def cards(text: str) -> list[Card]:
    return parse_cards(text, DECK)


# --------------------------------------------------------------------------- the game


def test_registered_game_and_rulings() -> None:
    assert RULESET.game.name == "thief"
    assert isinstance(RULESET.game, Thief)
    assert (Thief.min_seats, Thief.max_seats, Thief.options) == (2, 6, ())
    rulings = Thief.rulings()
    assert rulings.startswith("From the rulings file")
    for phrase in ("2+Jo is not", "top card of a capture pile", "rank of its bottom card"):
        assert phrase in rulings
    assert 8 <= len(Thief.summary.splitlines()) <= 16


def test_wire_types_mirror_the_proto() -> None:
    proto_obs = [f.name for f in thief_pb2.ThiefObservation.DESCRIPTOR.fields]
    assert [f.name for f in fields(ThiefObservation)] == proto_obs
    proto_action = [f.name for f in thief_pb2.ThiefAction.DESCRIPTOR.fields]
    assert [f.name for f in fields(ThiefAction)] == proto_action
    assert [f.name for f in fields(ThiefDispute)] == [
        f.name for f in thief_pb2.ThiefDispute.DESCRIPTOR.fields
    ]
    proto_kinds = {
        v.name.removeprefix("THIEF_ACTION_KIND_"): v.number
        for v in thief_pb2.ThiefActionKind.DESCRIPTOR.values
        if v.number
    }
    assert {k.name: k.value for k in ThiefActionKind} == proto_kinds


# --------------------------------------------------------------------------- first dealer


def test_highest_card_deals_first_and_left_of_dealer_starts() -> None:
    draw = stack_deck(DECK, "3c 9d Kh 5s")
    state = RULESET.new_state(4, seed=0, orders=[draw])
    assert (obs(state).dealer, obs(state).turn, decider(state)) == (2, 3, 3)
    opening = state.opening_events()
    draws = [e for e in opening if e.kind == "dealer_draw"]
    assert [(e.seat, faces(e.cards)) for e in draws] == [(0, "3♣"), (1, "9♦"), (2, "K♥"), (3, "5♠")]
    assert all(e.is_public for e in draws)
    assert "seat 2 deals first" in texts(opening)


def test_tie_for_highest_draws_again() -> None:
    draw = stack_deck(DECK, "Ac 9d Ah 5s Kc Qd")
    state = RULESET.new_state(4, seed=0, orders=[draw])
    draws = [(e.seat, faces(e.cards)) for e in state.opening_events() if e.kind == "dealer_draw"]
    assert draws[4:] == [(0, "K♣"), (2, "Q♦")]
    assert obs(state).dealer == 0


def test_tie_again_draws_again_until_unique() -> None:
    draw = stack_deck(DECK, "Jo 5c Jo Kc Kd 4h Ac")
    state = RULESET.new_state(3, seed=0, orders=[draw])
    draws = [e for e in state.opening_events() if e.kind == "dealer_draw"]
    assert len(draws) == 7
    assert obs(state).dealer == 2
    assert obs(state).turn == 0


def test_tie_below_the_highest_card_does_not_draw_again() -> None:
    draw = stack_deck(DECK, "5c 5d Ks")
    state = RULESET.new_state(3, seed=0, orders=[draw])
    assert len([e for e in state.opening_events() if e.kind == "dealer_draw"]) == 3
    assert obs(state).dealer == 2


# --------------------------------------------------------------------------- the deal


def test_deal_one_at_a_time_from_left_of_dealer_then_discard() -> None:
    # Dealer 1 of 3: cards go to seats 2, 0, 1, 2, 0, 1, ...; the 10th card is the discard.
    order = stack_deck(DECK, "9c 3c 6c 10d 4d 7d Jh 5h 8h Qs")
    state = RULESET.new_state(3, seed=0, orders=[draw_order(1, 3), order])
    assert [hand(state, s) for s in range(3)] == ["3♣ 4♦ 5♥", "6♣ 7♦ 8♥", "9♣ 10♦ J♥"]
    view = obs(state, 2)
    assert faces(view.discard_pile) == "Q♠"
    assert view.stock_size == 108 - 9 - 1
    assert (view.dealer, view.turn, view.hand_number, view.hands_total) == (1, 2, 1, 3)
    assert view.hand_sizes == (3, 3, 3)
    deals = [e for e in state.opening_events() if e.kind == "deal"]
    assert [(e.audience, faces(e.cards)) for e in deals] == [
        (frozenset({2}), "9♣ 10♦ J♥"),
        (frozenset({0}), "3♣ 4♦ 5♥"),
        (frozenset({1}), "6♣ 7♦ 8♥"),
    ]
    counts = [e for e in state.opening_events() if e.kind == "deal_count"]
    assert all(e.is_public and not e.cards for e in counts) and len(counts) == 3


def test_each_hand_uses_its_own_shuffle_of_all_108_cards() -> None:
    state = game(["7s 7h 9c", "3c 4d 5h"], "9d", "Kc")
    assert sorted(c.id for c in state.all_cards()) == list(range(108))


# --------------------------------------------------------------------------- pairs


def test_pair_in_hand_forms_a_set_and_refills_to_three() -> None:
    state = game(["7s 7h Kd", "3c 4d 5h"], "9c", "Qs Jd 8c")
    assert labels(state) == ["pair 7♥ 7♠"]
    events = play(state, "pair 7♥ 7♠")
    assert pile(state, 0) == ["7♥ 7♠"]
    assert hand(state, 0) == "J♦ Q♠ K♦"
    assert obs(state).stock_size == 108 - 6 - 1 - 2
    draw = next(e for e in events if e.kind == "draw")
    assert draw.audience == frozenset({0}) and faces(draw.cards) == "Q♠ J♦"
    assert "seat 0 draws 2 cards" in texts(events)
    assert not any(c in faces(e.cards) for e in events if e.is_public for c in ("Q♠", "J♦"))


def test_joker_pair_and_pair_of_twos() -> None:
    assert labels(game(["Jo Jo 5h", "3c 4d 6h"], "9c", "Qs Jd")) == ["pair Jo Jo"]
    assert labels(game(["2c 2d 5h", "3c 4d 6h"], "9c", "Qs Jd")) == ["pair 2♣ 2♦"]


def test_two_and_joker_are_not_a_pair() -> None:
    state = game(["2c Jo 5h", "3c 4d 6h"], "9c", "Qs")
    assert obs(state).forced_discard
    assert labels(state) == ["discard 2♣", "discard 5♥", "discard Jo"]


def test_three_of_a_rank_offer_one_pair_of_the_lowest_ids() -> None:
    state = game(["8s 8h 8d", "3c 4d 6h"], "9c", "Qs Jd")
    (action,) = state.legal_actions(0)
    assert isinstance(action, ThiefAction)
    assert action.kind is ThiefActionKind.PAIR
    assert [c.id for c in action.cards] == sorted(c.id for c in cards("8s 8h 8d"))[:2]


# --------------------------------------------------------------------------- discard


def test_discard_match_takes_the_top_and_the_next_card_becomes_the_top() -> None:
    state = game(["3c 5d 8h", "3h 9c Qd"], "9d", "Ks 4s 6s")
    assert labels(state) == ["discard 3♣", "discard 5♦", "discard 8♥"]
    play(state, "discard 3♣")  # draws K♠; nothing to take, yet seat 0 is asked
    assert labels(state) == ["end turn"]
    play(state, "end turn")
    assert decider(state) == 1
    assert faces(obs(state).discard_pile) == "9♦ 3♣"
    assert labels(state) == ["take discard 3 with 3♥"]
    events = play(state, "take discard 3 with 3♥")
    assert "seat 1 takes discard 3♣ with 3♥" in texts(events)
    assert faces(obs(state).discard_pile) == "9♦"
    assert labels(state) == ["take discard 9 with 9♣", "end turn"]
    play(state, "take discard 9 with 9♣")
    assert pile(state, 1) == ["3♣ 3♥", "9♦ 9♣"]
    assert obs(state).discard_pile == ()
    assert hand(state, 1) == "4♠ 6♠ Q♦"
    play(state, "end turn")
    assert decider(state) == 0


def test_a_wild_cannot_take_the_discard() -> None:
    state = game(["Jo 2c 5h", "3c 4d 6h"], "9c", "Qs")
    assert obs(state).forced_discard
    assert all(label.startswith("discard") for label in labels(state))


# --------------------------------------------------------------------------- steals


def test_steal_with_a_natural_card_and_a_victim_who_cannot_recapture_is_asked() -> None:
    state = game(["7s 7h 4c", "7d 8c 10h"], "Kc", "5d 6d 9s")
    play(state, "pair 7♥ 7♠")
    play(state, "end turn")
    assert labels(state) == ["steal from seat 0 with 7♦"]
    events = play(state, "steal from seat 0 with 7♦")
    assert "seat 1 steals 7♥ 7♠ from seat 0 with 7♦" in texts(events)
    assert pile(state, 1) == ["7♥ 7♠ 7♦"] and pile(state, 0) == []
    assert hand(state, 1) == "8♣ 9♠ 10♥"
    # Seat 0 holds 4♣ 5♦ 6♦, nothing to re-capture with, and is asked all the same.
    assert obs(state).dispute is not None
    assert state.deciders() == (0,) and labels(state) == ["decline"]
    events = play(state, "decline")
    assert texts(events) == ["seat 0 declines to re-capture; the set stays with seat 1"]
    assert obs(state).dispute is None
    assert labels(state) == ["end turn"]
    play(state, "end turn")
    assert decider(state) == 0


def test_steal_with_a_wild_and_a_wild_top_card_needs_a_wild() -> None:
    state = game(["7s 7h 4c", "Jo 8c 10h", "7d 2c Qh"], "Kc", "5d 6d 9s")
    play(state, "pair 7♥ 7♠")
    play(state, "end turn")
    assert labels(state) == ["steal from seat 0 with Jo"]
    play(state, "steal from seat 0 with Jo")
    assert pile(state, 1) == ["7♥ 7♠ Jo"]
    play(state, "decline")  # seat 0
    play(state, "end turn")  # seat 1
    assert decider(state) == 2
    # The top card is the joker: the natural 7♦ does not match it, the 2♣ is wild.
    assert labels(state) == ["steal from seat 1 with 2♣"]
    play(state, "steal from seat 1 with 2♣")
    assert pile(state, 2) == ["7♥ 7♠ Jo 2♣"]


def test_steal_takes_only_the_top_set() -> None:
    state = game(["7s 7h 9c", "9h 7d Qc"], "Js", "9d Kd 4h 5h 6h")
    play(state, "pair 7♥ 7♠")
    assert labels(state) == ["pair 9♣ 9♦", "end turn"]
    play(state, "pair 9♣ 9♦")
    assert pile(state, 0) == ["7♥ 7♠", "9♣ 9♦"]
    play(state, "end turn")
    assert labels(state) == ["steal from seat 0 with 9♥"]
    play(state, "steal from seat 0 with 9♥")
    play(state, "decline")  # seat 0 holds K♦ 4♥ 5♥
    assert pile(state, 0) == ["7♥ 7♠"]
    assert pile(state, 1) == ["9♣ 9♦ 9♥"]
    # The 7s are now on top of seat 0's pile, so the 7♦ may steal them too.
    assert labels(state) == ["steal from seat 0 with 7♦", "end turn"]


def test_steal_offers_each_target_and_each_usable_rank() -> None:
    state = game(["7s 7h 4c", "8s 8h 5c", "7d 8d Jo"], "Kc", "3d 6d 3h 6h")
    play(state, "pair 7♥ 7♠")
    play(state, "end turn")
    play(state, "pair 8♥ 8♠")
    play(state, "end turn")
    assert labels(state) == [
        "steal from seat 0 with 7♦",
        "steal from seat 0 with Jo",
        "steal from seat 1 with 8♦",
        "steal from seat 1 with Jo",
    ]


# --------------------------------------------------------------------------- re-capture


def test_recapture_chain_victim_thief_victim() -> None:
    state = game(["7s 7h 4c", "7d Jo 10h"], "Kc", "2c 5d 8c 7c 9h 3d")
    play(state, "pair 7♥ 7♠")  # seat 0 draws 2♣ 5♦
    assert hand(state, 0) == "2♣ 4♣ 5♦"
    play(state, "end turn")
    assert labels(state) == ["steal from seat 0 with 7♦", "steal from seat 0 with Jo"]
    play(state, "steal from seat 0 with 7♦")  # seat 1 draws 8♣
    assert state.deciders() == (0,)
    view = obs(state, 0)
    assert view.turn == 1
    assert view.dispute == ThiefDispute(ThiefSet(tuple(cards("7h 7s 7d"))), Rank.SEVEN, 1, 0)
    assert labels(state) == ["re-capture with 2♣", "decline"]
    events = play(state, "re-capture with 2♣")  # seat 0 draws 7♣
    assert "seat 0 re-captures 7♥ 7♠ 7♦ from seat 1 with 2♣" in texts(events)
    assert pile(state, 0) == ["7♥ 7♠ 7♦ 2♣"] and pile(state, 1) == []
    assert state.deciders() == (1,)
    assert labels(state) == ["re-capture with Jo", "decline"]
    play(state, "re-capture with Jo")  # seat 1 draws 9♥
    assert pile(state, 1) == ["7♥ 7♠ 7♦ 2♣ Jo"] and pile(state, 0) == []
    assert labels(state) == ["re-capture with 7♣", "decline"]
    play(state, "re-capture with 7♣")  # seat 0 draws 3♦; seat 1 holds 8 9 10
    assert pile(state, 0) == ["7♥ 7♠ 7♦ 2♣ Jo 7♣"] and pile(state, 1) == []
    assert obs(state).pile_values == (5 + 5 + 5 + 25 + 50 + 5, 0)
    assert hand(state, 0) == "3♦ 4♣ 5♦" and hand(state, 1) == "8♣ 9♥ 10♥"
    # Seat 1 cannot answer, is asked all the same and declines; its turn goes on
    # with nothing to take but END_TURN.
    assert state.deciders() == (1,) and labels(state) == ["decline"]
    events = play(state, "decline")
    assert texts(events) == ["seat 1 declines to re-capture; the set stays with seat 0"]
    assert obs(state).dispute is None
    assert labels(state) == ["end turn"]
    play(state, "end turn")
    assert decider(state) == 0


def test_decline_ends_the_exchange_and_the_thief_turn_goes_on() -> None:
    state = game(["7s 7h 4c", "7d Jo 10h"], "8d", "2c 5d 8c")
    play(state, "pair 7♥ 7♠")
    play(state, "end turn")
    play(state, "steal from seat 0 with 7♦")  # seat 1 draws 8♣
    events = play(state, "decline")
    assert "seat 0 declines to re-capture; the set stays with seat 1" in texts(events)
    assert obs(state).dispute is None
    assert pile(state, 1) == ["7♥ 7♠ 7♦"]
    assert decider(state) == 1
    assert labels(state) == ["take discard 8 with 8♣", "end turn"]


def test_thief_may_decline_and_then_steal_the_set_again() -> None:
    state = game(["7s 7h 4c", "7d Jo 10h"], "Kc", "2c 5d 8c 9s")
    play(state, "pair 7♥ 7♠")
    play(state, "end turn")
    play(state, "steal from seat 0 with 7♦")  # seat 1 draws 8♣
    play(state, "re-capture with 2♣")  # seat 0 draws 9♠
    assert state.deciders() == (1,)
    play(state, "decline")
    assert pile(state, 0) == ["7♥ 7♠ 7♦ 2♣"]
    # Back on its own turn, seat 1 may steal the set again; never from its own pile.
    assert labels(state) == ["steal from seat 0 with Jo", "end turn"]


def test_recapture_needs_the_set_rank_not_the_top_card() -> None:
    state = game(["7s 7h 4c", "Jo 8h 10h"], "Kc", "7c 5d 9d")
    play(state, "pair 7♥ 7♠")  # seat 0 draws 7♣ 5♦
    play(state, "end turn")
    play(state, "steal from seat 0 with Jo")
    # The top card is now the joker, but the set's rank is 7: the 7♣ may take it back.
    assert obs(state).dispute == ThiefDispute(ThiefSet(tuple(cards("7h 7s Jo"))), Rank.SEVEN, 1, 0)
    assert labels(state) == ["re-capture with 7♣", "decline"]


# --------------------------------------------------------------------------- turn shape


def test_must_capture_once_then_may_end_the_turn() -> None:
    state = game(["7s 7h 9c", "3c 4d 6h"], "9d", "4h 5h")
    assert labels(state) == ["pair 7♥ 7♠", "take discard 9 with 9♣"]
    assert not obs(state).captured_this_turn
    play(state, "pair 7♥ 7♠")
    assert obs(state).captured_this_turn
    assert labels(state) == ["take discard 9 with 9♣", "end turn"]
    events = play(state, "end turn")
    assert "seat 0 ends the turn" in texts(events)
    assert decider(state) == 1
    assert faces(obs(state).discard_pile) == "9♦"


def test_with_no_capture_left_the_player_is_asked_and_ends_the_turn() -> None:
    state = game(["7s 7h 4c", "3c 5d 9h"], "Kc", "8s 6s")
    events = play(state, "pair 7♥ 7♠")
    assert texts(events) == ["seat 0 pairs 7♥ 7♠", "seat 0 draws 2 cards"]
    assert decider(state) == 0 and labels(state) == ["end turn"]
    events = play(state, "end turn")
    # One public text for every end of turn; the next turn's start does not tell
    # that seat 1 has no capture open (its observation and choices do).
    assert texts(events) == ["seat 0 ends the turn", "seat 1's turn"]
    assert decider(state) == 1 and obs(state, 1).forced_discard
    assert all(label.startswith("discard") for label in labels(state))


def test_forced_discard_then_take_the_card_just_discarded() -> None:
    state = game(["3c 5d 8h", "4c 6d 10h"], "9d", "5h Kc Ks")
    assert obs(state).forced_discard
    events = play(state, "discard 5♦")
    assert "seat 0 discards 5♦" in texts(events)
    assert hand(state, 0) == "3♣ 5♥ 8♥"
    assert labels(state) == ["take discard 5 with 5♥", "end turn"]
    play(state, "take discard 5 with 5♥")
    assert pile(state, 0) == ["5♦ 5♥"]
    play(state, "end turn")
    assert decider(state) == 1


def test_forced_discard_turn_never_steals() -> None:
    state = game(["7s 7h 4c", "3c 5d 9h"], "Kc", "8s 6s 5h Jo Qs")
    play(state, "pair 7♥ 7♠")
    play(state, "end turn")
    assert obs(state).forced_discard
    play(state, "discard 3♣")  # draws 5♥: a pair, but no steal is offered
    assert labels(state) == ["pair 5♦ 5♥", "end turn"]
    play(state, "pair 5♦ 5♥")  # draws Jo and Q♠: the joker could steal, but not now
    assert hand(state, 1) == "9♥ Q♠ Jo"
    assert labels(state) == ["end turn"]
    play(state, "end turn")
    assert decider(state) == 0
    assert pile(state, 0) == ["7♥ 7♠"]


# --------------------------------------------------------------------------- end of hand


def test_hand_ends_after_the_turn_in_which_the_stock_ran_out() -> None:
    state = game(["7s 7h 9c", "3c 4d 6h"], "9d", "Kc")
    shorten_stock(state, 1)
    events = play(state, "pair 7♥ 7♠")  # draws K♣, the last card
    assert "the stock is empty: the hand ends with this turn" in texts(events)
    assert obs(state).hand_number == 1 and decider(state) == 0
    assert labels(state) == ["take discard 9 with 9♣", "end turn"]
    play(state, "take discard 9 with 9♣")  # no refill: hand is K♣ alone
    assert labels(state) == ["end turn"]
    events = play(state, "end turn")
    assert "hand 1 ends: seat 0 20 (total 20), seat 1 0 (total 0)" in texts(events)
    view = obs(state)
    assert (view.hand_number, view.dealer, view.turn, view.totals) == (2, 0, 1, (20, 0))
    assert view.stock_size == 108 - 7 and view.pile_values == (0, 0)


def test_exchange_completes_after_the_stock_ran_out() -> None:
    state = game(["7s 7h 2c", "7d Jo 10h"], "Kc", "5d 6d 8c")
    play(state, "pair 7♥ 7♠")
    play(state, "end turn")
    shorten_stock(state, 1)
    play(state, "steal from seat 0 with 7♦")  # seat 1 draws 8♣, the last card
    play(state, "re-capture with 2♣")  # no refill
    assert obs(state).hand_sizes == (2, 3)
    play(state, "re-capture with Jo")
    play(state, "decline")  # seat 0 holds 5♦ 6♦
    events = play(state, "end turn")  # seat 1 holds 8♣ 10♥
    assert "hand 1 ends: seat 0 0 (total 0), seat 1 90 (total 90)" in texts(events)


def test_card_values() -> None:
    expected = {
        **{Rank(n): 5 for n in range(3, 10)},
        Rank.TEN: 10,
        Rank.JACK: 10,
        Rank.QUEEN: 10,
        Rank.KING: 10,
        Rank.ACE: 15,
        Rank.TWO: 25,
        Rank.JOKER: 50,
    }
    assert {c.rank: card_points(c) for c in DECK} == expected
    assert sum(card_points(c) for c in DECK) == 280 + 320 + 120 + 200 + 200


def test_hand_scores_count_capture_piles_only() -> None:
    state = game(["Jo Jo 3c", "10c Jh 4s"], "Kc", "2c 2d Ac Ad Kd 3d 5h")
    play(state, "pair Jo Jo")  # draws 2♣ 2♦
    play(state, "pair 2♣ 2♦")  # draws A♣ A♦
    play(state, "pair A♣ A♦")  # draws K♦ 3♦
    shorten_stock(state, 1)
    play(state, "pair 3♣ 3♦")  # draws 5♥, the last card
    assert obs(state).pile_values == (50 + 50 + 25 + 25 + 15 + 15 + 5 + 5, 0)
    play(state, "take discard K with K♦")
    events = play(state, "end turn")
    assert "hand 1 ends: seat 0 210 (total 210), seat 1 0 (total 0)" in texts(events)


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


def test_totals_accumulate_and_equal_totals_share_a_place() -> None:
    hand2 = deal_order(0, ["3c 4d 6h", "8s 8h 9c"], "9d", "Kc")
    state = game(["7s 7h 9c", "3c 4d 6h"], "9d", "Kc", later=[hand2])
    shorten_stock(state, 1)
    play(state, "pair 7♥ 7♠")
    play(state, "take discard 9 with 9♣")
    play(state, "end turn")
    assert obs(state).hand_number == 2 and decider(state) == 1
    assert hand(state, 1) == "8♥ 8♠ 9♣"
    shorten_stock(state, 1)
    play(state, "pair 8♥ 8♠")
    play(state, "take discard 9 with 9♣")
    play(state, "end turn")
    assert state.is_over
    result = state.result()
    assert result.scores == (20, 20)
    assert result.places == (1, 1)
    assert result.hand_scores == ((20, 0), (0, 20))
    with pytest.raises(IllegalAction):
        state.apply({0: ThiefAction(ThiefActionKind.END_TURN)})


def test_illegal_actions_raise() -> None:
    state = game(["7s 7h 9c", "3c 4d 6h"], "9d", "4h 5h")
    end = ThiefAction(ThiefActionKind.END_TURN)
    with pytest.raises(IllegalAction):
        state.apply({0: end})  # a capture is open and none was made
    with pytest.raises(IllegalAction):
        state.apply({1: state.legal_actions(0)[0]})  # not seat 1's decision
    with pytest.raises(IllegalAction):
        state.apply({})
    with pytest.raises(IllegalAction):
        state.apply({0: state.legal_actions(0)[0], 1: end})
    wrong_copies = tuple(cards("7s 7s 7h")[1:])  # the other deck's 7♠
    with pytest.raises(IllegalAction):
        state.apply({0: ThiefAction(ThiefActionKind.PAIR, wrong_copies)})
    assert labels(state) == ["pair 7♥ 7♠", "take discard 9 with 9♣"]


# --------------------------------------------------------------------------- information


def test_observation_hides_other_hands_and_the_stock() -> None:
    state = game(["7s 7h 4c", "7d Jo 10h"], "Kc", "2c 5d 8c")
    play(state, "pair 7♥ 7♠")
    before = obs(state, 1)
    assert obs(state, 1) == before  # observe is pure
    seen: set[int] = {c.id for c in before.hand} | {c.id for c in before.discard_pile}
    seen |= {c.id for p in before.piles for s in p.sets for c in s.cards}
    hidden = {c.id for c in state.hands[0]} | {c.id for c in state.stock}
    assert not seen & hidden
    assert before.hand_sizes == (3, 3) and before.stock_size == len(state.stock)
    assert faces(before.hand) == "7♦ 10♥ Jo"


def test_resample_hidden_keeps_the_observation_and_permutes_the_rest() -> None:
    state = game(["7s 7h 4c", "7d Jo 10h", "3c 4d 6h"], "Kc", "2c 5d 8c")
    play(state, "pair 7♥ 7♠")
    play(state, "end turn")
    rng = random.Random(3)
    copies = [state.resample_hidden(1, rng) for _ in range(5)]
    for other in copies:
        assert other.observe(1) == state.observe(1)
        assert sorted(c.id for c in other.all_cards()) == list(range(108))
    assert any(c.hands[0] != state.hands[0] for c in copies)
    # Seat 1 must capture; in a world resampled for seat 0 it may hold nothing useful,
    # yet it always has a decision to make.
    for _ in range(20):
        world = state.resample_hidden(0, rng)
        assert world.observe(0) == state.observe(0)
        assert world.legal_actions(1)
    other = copies[0]
    while not other.is_over:
        seat = decider(other)
        other.apply({seat: rng.choice(other.legal_actions(seat))})


def public_stream(
    state: GameState, script: Sequence[str]
) -> list[tuple[tuple[int, ...], list[str]]]:
    """Per decision: who is asked, then the public texts it produces, playing `script`
    (each entry a label, "*" for the decider's first legal action, or "?label" for a
    label to play only if it is the decider's only choice)."""
    stream: list[tuple[tuple[int, ...], list[str]]] = []
    for label in script:
        asked = state.deciders()
        if label.startswith("?"):
            if labels(state) != [label[1:]]:
                continue
            label = label[1:]
        events = play(state, labels(state)[0] if label == "*" else label)
        stream.append((asked, texts(events)))
    return stream


def test_who_is_asked_to_recapture_does_not_tell_what_the_victim_holds() -> None:
    # Seat 0 is robbed holding a wild (2♣), or holding nothing of use (3♣).
    script = ["pair 7♥ 7♠", "?end turn", "steal from seat 0 with 7♦", "decline", "?end turn"]
    can = public_stream(game(["7s 7h 4c", "7d 9c 10h"], "Kc", "2c 5d 8c 9s Qs"), script)
    cannot = public_stream(game(["7s 7h 4c", "7d 9c 10h"], "Kc", "3c 5d 8c 9s Qs"), script)
    assert can == cannot
    assert can[3] == ((0,), ["seat 0 declines to re-capture; the set stays with seat 1"])


def test_how_a_turn_ends_does_not_tell_whether_a_capture_was_left() -> None:
    # After its pair, seat 0 holds a pair of 8s (and ends the turn anyway), or nothing.
    could = public_stream(
        game(["7s 7h 9c", "3c 5d 9h"], "Kc", "8s 8h 6s"), ["pair 7♥ 7♠", "end turn"]
    )
    could_not = public_stream(
        game(["7s 7h 9c", "3c 5d 9h"], "Kc", "8s 4h 6s"), ["pair 7♥ 7♠", "?end turn"]
    )
    assert could == could_not
    assert could[1] == ((0,), ["seat 0 ends the turn", "seat 1's turn"])


def test_turn_start_does_not_tell_whether_a_capture_is_open() -> None:
    # Seat 1 has a capture open (9♣ takes the discard 9♦), or none and must discard.
    open_ = game(["7s 7h 4c", "3c 9c Qh"], "9d", "8s 6s")
    shut = game(["7s 7h 4c", "3c 10c Qh"], "9d", "8s 6s")
    ends = [public_stream(s, ["pair 7♥ 7♠", "?end turn"]) for s in (open_, shut)]
    assert ends[0] == ends[1]
    assert ends[0][-1] == ((0,), ["seat 0 ends the turn", "seat 1's turn"])
    assert not obs(open_, 1).forced_discard and obs(shut, 1).forced_discard


class ScriptSeat:
    """An in-process seat (a SeatClient) that records its requests and answers by
    label from a script, else with the first legal action; a re-capture takes
    `slow` seconds on the match's clock."""

    def __init__(self, script: Sequence[str], slow: float = 0.0) -> None:
        self.script = list(script)
        self.slow = slow
        self.requests: list[pb.DecisionRequest] = []

    name = "script"
    alive = True

    def send(self, message: pb.PlayResponse) -> None:
        pass

    async def decide(self, request: pb.DecisionRequest, timeout: float) -> Reply:
        self.requests.append(request)
        names = [a.label for a in request.legal_actions]
        wanted = self.script[0] if self.script else None
        index = names.index(wanted) if wanted in names else 0
        if wanted in names:
            self.script.pop(0)
        return Reply(index, None, self.slow if names[index].startswith("re-capture") else 0.0)

    def take_faults(self) -> list[Fault]:
        return []


def test_a_recapture_decision_is_out_of_turn_for_the_match() -> None:
    state = game(["7s 7h 4c", "7d Jo 10h"], "Kc", "2c 5d 8c 9s")
    assert state.in_turn() == 0
    seat0 = ScriptSeat(["pair 7♥ 7♠", "end turn", "re-capture with 2♣"], slow=3.0)
    seat1 = ScriptSeat(["steal from seat 0 with 7♦", "decline"])
    control = TimeControl(move_seconds=1.0, bank_seconds=0.5, out_of_turn_seconds=5.0)
    match = Match(RULESET, [seat0, seat1], seed=0, time_control=control)
    match.state = state
    asyncio.run(match.run())
    first, second, recapture = seat0.requests[:3]
    assert [first.out_of_turn, second.out_of_turn] == [False, False]
    assert first.deadline_ms == 1500  # 1 s + the bank
    assert recapture.out_of_turn and recapture.deadline_ms == 5500  # 5 s + the bank
    # The thief's answer in the exchange is made in its own turn.
    steal, decline = seat1.requests[:2]
    assert not steal.out_of_turn and not decline.out_of_turn
    # 3 s for the re-capture is within its 5 s: the bank is untouched.
    assert match.records[0].bank_left == 0.5
    assert match.records[0].faults == []


def test_clone_is_independent() -> None:
    state = game(["7s 7h 4c", "7d Jo 10h"], "Kc", "2c 5d 8c")
    twin = state.clone()
    play(state, "pair 7♥ 7♠")
    assert pile(twin, 0) == [] and labels(twin) == ["pair 7♥ 7♠"]


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
            assert len({c.id for c in state.all_cards()}) == 108
        result = state.result()
        assert len(result.hand_scores) == seats
        assert sum(sum(h) for h in result.hand_scores) == sum(result.scores)
