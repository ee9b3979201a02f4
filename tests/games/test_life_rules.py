"""Rule tests for Life: exact deals with explicit deck orders, exact outcomes.

Deals are written per seat; `game()` turns them into the deck order the engine
consumes once the suits are chosen: 7 cards to each seat one at a time from the
dealer's left (the last seat deals the first hand, so seat 0 plays first), then
the deck, top first. Cards not named follow in id order (2♣ 3♣ ... A♠, then the
jokers), so every test names the deck cards it turns or draws.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import fields
from typing import cast

import pytest

from referee.cards import Card, make_deck, parse_cards, stack_deck
from referee.games import parse_ruleset
from referee.games.base import Event, GameError, IllegalAction
from referee.games.life import (
    MAX_HANDS,
    Life,
    LifeAction,
    LifeActionKind,
    LifeObservation,
    LifePhase,
    LifePlayer,
    LifeState,
    LifeSuitChoice,
    card_value,
    front_score,
)
from referee.v1 import life_pb2

DECK = make_deck(1, 2)
DECK2 = make_deck(2, 4)
RULESET = parse_ruleset("life")
S = LifeSuitChoice


# --------------------------------------------------------------------------- helpers


def cards(text: str, deck: Sequence[Card] = DECK) -> list[Card]:
    return parse_cards(text, deck)


def deal_order(
    hands: Sequence[str], deck_top: str = "", dealer: int | None = None, pool: Sequence[Card] = DECK
) -> list[Card]:
    """The order that deals `hands[seat]` one card at a time from the dealer's left,
    then leaves `deck_top` on top of the deck."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    split = [h.split() for h in hands]
    assert all(len(h) == 7 for h in split)
    names = [split[(dealer + k) % n][r] for r in range(7) for k in range(1, n + 1)]
    return stack_deck(pool, " ".join([*names, deck_top]))


def game(
    hands: Sequence[str],
    deck_top: str = "",
    ruleset: str = "life",
    later: Sequence[list[Card]] = (),
) -> LifeState:
    """A game whose first hand deals `hands`, suits not yet chosen."""
    pool = DECK2 if len(hands) >= 5 else DECK
    orders = [deal_order(hands, deck_top, pool=pool), *later]
    return cast(LifeState, parse_ruleset(ruleset).new_state(len(hands), seed=0, orders=orders))


def choose(state: LifeState, *suits: str) -> list[Event]:
    """All seats choose their suits ('hearts', ...) at once."""
    assert state.deciders() == tuple(range(len(suits)))
    return play_all(state, {s: f"play for {suit}" for s, suit in enumerate(suits)})


def start(
    hands: Sequence[str],
    deck_top: str = "",
    suits: Sequence[str] = (),
    ruleset: str = "life",
    later: Sequence[list[Card]] = (),
) -> tuple[LifeState, list[Event]]:
    state = game(hands, deck_top, ruleset, later)
    suits = suits or ["hearts", "diamonds", "clubs", "hearts", "diamonds", "clubs"][: len(hands)]
    return state, choose(state, *suits)


def labels(state: LifeState, seat: int | None = None) -> list[str]:
    seat = decider(state) if seat is None else seat
    return [a.label for a in state.legal_actions(seat)]


def decider(state: LifeState) -> int:
    (seat,) = state.deciders()
    return seat


def find(state: LifeState, seat: int, label: str) -> LifeAction:
    for a in state.legal_actions(seat):
        if a.label == label:
            return a
    raise AssertionError(f"{label!r} is not legal for seat {seat}: {labels(state, seat)}")


def play(state: LifeState, label: str) -> list[Event]:
    seat = decider(state)
    return state.apply({seat: find(state, seat, label)})


def play_all(state: LifeState, choices: dict[int, str]) -> list[Event]:
    return state.apply({s: find(state, s, label) for s, label in choices.items()})


def obs(state: LifeState, seat: int = 0) -> LifeObservation:
    return state.observe(seat)


def faces(cs: Sequence[Card]) -> str:
    return " ".join(c.face for c in cs)


def hand(state: LifeState, seat: int) -> str:
    return faces(obs(state, seat).hand)


def row(state: LifeState, seat: int) -> str:
    return faces(obs(state).players[seat].face_up)


def banked(state: LifeState, seat: int) -> str:
    return faces(obs(state).players[seat].banked)


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.is_public]


def in_order(events: Sequence[Event], expected: Sequence[str]) -> bool:
    """Whether the public texts of `events` contain `expected` consecutively."""
    got = texts(events)
    k = len(expected)
    return any(got[i : i + k] == list(expected) for i in range(len(got) - k + 1))


def bury_deck(state: LifeState, keep: int, seat: int = 0) -> None:
    """Move all but the top `keep` deck cards into `seat`'s banked pile (out of
    play for the hand), so a test can reach an empty deck quickly."""
    cut = len(state.deck) - keep
    state.banked[seat].extend(state.deck[:cut])
    del state.deck[:cut]


# --------------------------------------------------------------------------- the game


def test_registered_game_options_and_rulings() -> None:
    assert isinstance(RULESET.game, Life)
    assert (Life.name, Life.wire_name, Life.min_seats, Life.max_seats) == ("life", "life", 2, 6)
    specs = {o.name: o for o in Life.options}
    assert specs["choose_spades"].is_flag and specs["choose_spades"].default == "false"
    assert (specs["target"].default, specs["target"].is_int) == ("100", True)
    assert (specs["turn_cap"].default, specs["turn_cap"].is_int) == ("400", True)
    assert parse_ruleset("life?choose_spades").id == "life?choose_spades"
    rulings = Life.rulings()
    assert rulings.startswith("From the rulings file")
    for phrase in ("minus half its value", "MAX_HANDS", "lowest and the highest", "10, J, Q"):
        assert phrase in rulings
    assert 8 <= len(Life.summary.splitlines()) <= 16


def test_option_values_are_checked() -> None:
    with pytest.raises(GameError):
        parse_ruleset("life?target=0").new_state(2, seed=0)
    state = cast(LifeState, parse_ruleset("life?target=50&turn_cap=9").new_state(2, seed=0))
    assert (obs(state).target, obs(state).turn_cap) == (50, 9)


def test_wire_types_mirror_the_proto() -> None:
    pb = life_pb2
    for ours, theirs in (
        (LifeObservation, pb.LifeObservation),
        (LifeAction, pb.LifeAction),
        (LifePlayer, pb.LifePlayer),
    ):
        assert [f.name for f in fields(ours)] == [f.name for f in theirs.DESCRIPTOR.fields]
    for enum, proto, prefix in (
        (LifeSuitChoice, pb.LifeSuitChoice, "LIFE_SUIT_CHOICE_"),
        (LifeActionKind, pb.LifeActionKind, "LIFE_ACTION_KIND_"),
        (LifePhase, pb.LifePhase, "LIFE_PHASE_"),
    ):
        values = {
            v.name.removeprefix(prefix): v.number for v in proto.DESCRIPTOR.values if v.number
        }
        assert {k.name: k.value for k in enum} == values


@pytest.mark.parametrize(("seats", "size"), [(2, 54), (4, 54), (5, 108), (6, 108)])
def test_one_deck_and_two_jokers_or_two_decks_and_four_with_five_or_more(
    seats: int, size: int
) -> None:
    state = cast(LifeState, RULESET.new_state(seats, seed=1))
    assert sorted(c.id for c in state.all_cards()) == list(range(size))
    assert sum(c.is_joker for c in state.all_cards()) == (2 if size == 54 else 4)
    assert obs(state).decks == (1 if size == 54 else 2)


# --------------------------------------------------------------------------- suits and deal


def test_suits_are_chosen_at_once_before_the_deal_and_revealed_together() -> None:
    hands = ["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d", "2h 3h 4h 5h 6h 7h 8h"]
    state = game(hands, "9s 10s Js")
    assert state.deciders() == (0, 1, 2)
    assert state.in_turn() is None
    view = obs(state, 1)
    assert view.phase is LifePhase.CHOOSE_SUIT and view.hand == ()
    assert labels(state, 0) == ["play for hearts", "play for diamonds", "play for clubs"]
    before = [obs(state, s) for s in range(3)]
    find(state, 0, "play for clubs")  # deciding changes nothing before apply()
    assert [obs(state, s) for s in range(3)] == before
    assert all(p.suit is None for p in before[2].players)
    events = choose(state, "clubs", "hearts", "clubs")
    assert texts(events)[0] == "the suits are revealed: seat 0 clubs, seat 1 hearts, seat 2 clubs"
    # Play goes on until seat 0 turns Q♣ and must decide what to lay.
    assert (obs(state).phase, obs(state).hand_number) == (LifePhase.LAY, 1)
    assert [p.suit for p in obs(state, 2).players] == [S.CLUBS, S.HEARTS, S.CLUBS]


def test_choose_spades_allows_spades() -> None:
    state = game(["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d"], ruleset="life?choose_spades")
    assert labels(state, 1)[-1] == "play for spades"
    assert obs(state).choose_spades


def test_deal_seven_each_from_the_dealers_left_and_left_of_the_dealer_starts() -> None:
    order = stack_deck(DECK, "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 6c 6d 6h 7c 7d 7h 8c 8d 8h 9s")
    state = cast(LifeState, RULESET.new_state(3, seed=0, orders=[order]))
    events = choose(state, "hearts", "hearts", "hearts")
    # Seat 2 deals: the cards go to seats 0, 1, 2, 0, ...; seat 0 turns first.
    deals = [e for e in events if e.kind == "deal"]
    assert [(e.audience, faces(e.cards)) for e in deals] == [
        (frozenset({0}), "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣"),
        (frozenset({1}), "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦"),
        (frozenset({2}), "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥"),
    ]
    counts = [e for e in events if e.kind == "deal_count"]
    assert len(counts) == 3 and all(e.is_public and not e.cards for e in counts)
    assert texts(state.opening_events())[-1].startswith("hand 1: seat 2 deals")
    assert in_order(events, ["seat 0's turn", "seat 0 turns 9♠"])


# --------------------------------------------------------------------------- laying


def test_a_turned_heart_lets_the_player_lay_any_of_their_hearts() -> None:
    state, events = start(["4h 6h Kh 2c 3c 4c 5c", "2d 3d 4d 5d 6d 7d 8d"], "9h")
    assert "seat 0 turns 9♥" in texts(events)
    view = obs(state)
    assert (view.phase, view.turned, view.turn) == (LifePhase.LAY, cards("9h")[0], 0)
    assert labels(state) == [
        "lay nothing and draw",
        "lay 4♥",
        "lay 6♥",
        "lay K♥",
        "lay 4♥ 6♥",
        "lay 4♥ K♥",
        "lay 6♥ K♥",
        "lay 4♥ 6♥ K♥",
    ]
    events = play(state, "lay 4♥")
    assert "seat 0 lays 4♥" in texts(events)
    assert row(state, 0) == "4♥" and banked(state, 0) == ""
    assert hand(state, 0) == "6♥ K♥ 2♣ 3♣ 4♣ 5♣"
    assert faces(obs(state).discard_pile).startswith("9♥ ")


def test_laying_nothing_means_drawing_a_card() -> None:
    state, _ = start(["4h 6h Kh 2c 3c 4c 5c", "2d 3d 4d 5d 6d 7d 8d"], "9h 8s")
    events = play(state, "lay nothing and draw")
    assert hand(state, 0) == "4♥ 6♥ K♥ 2♣ 3♣ 4♣ 5♣ 8♠"
    draw = next(e for e in events if e.kind == "draw")
    assert draw.audience == frozenset({0}) and faces(draw.cards) == "8♠"
    assert "seat 0 draws a card" in texts(events)
    assert not any("8♠" in t for t in texts(events))


def test_no_card_of_the_turned_suit_draws_without_a_decision() -> None:
    state, events = start(["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d"], "9h 8s 9d")
    assert texts(events)[-6:] == [
        "seat 0's turn",
        "seat 0 turns 9♥",
        "seat 0 has no hearts to lay",
        "seat 0 draws a card",
        "seat 1's turn",
        "seat 1 turns 9♦",
    ]
    assert hand(state, 0).endswith("8♠")
    assert decider(state) == 1 and obs(state).turned == cards("9d")[0]


def test_a_turned_spade_forces_all_spades_down() -> None:
    state, events = start(["2s 3s 4h 5h 6h 7h 8h", "2d 3d 4d 5d 6d 7d 8d"], "9s 10d")
    assert "seat 0 lays 2♠ 3♠" in texts(events)
    assert row(state, 0) == "2♠ 3♠"
    # 5 points: no bank. Seat 1 is on turn now with the 10♦.
    assert banked(state, 0) == "" and decider(state) == 1


def test_a_turned_spade_without_spades_means_drawing() -> None:
    state, events = start(["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d"], "9s 8h 9d")
    assert "seat 0 has no spades to lay" in texts(events)
    assert "8♥" in hand(state, 0)


def test_alike_cards_are_offered_once_and_an_ace_is_one_choice() -> None:
    state, _ = start(["10h Jh Qh Kh 2h 3h Ah", "2d 3d 4d 5d 6d 7d 8d"], "9h")
    options = labels(state)
    # 2, 3 and four tens-and-royals: 2 x 2 x 5 - 1 = 19 plain choices, the ace, nothing.
    assert len(options) == 21
    assert options[-1] == "lay A♥ and take every ♥"
    assert "lay 10♥ J♥" in options and "lay J♥" not in options and "lay J♥ Q♥" not in options
    assert options[1:4] == ["lay 2♥", "lay 3♥", "lay 10♥"]
    assert "lay 2♥ 3♥ 10♥ J♥ Q♥ K♥" in options


def test_a_long_suit_offers_the_lowest_and_highest_cards_of_each_count() -> None:
    hands = [
        "2h 3h 4h 5h 6h 7h 8h",
        "2d 3d 4d 5d 6d 7d 8d",
        "2c 3c 4c 5c 6c 7c 8c",
        "2s 3s 4s 5s 6s 7s 8s",
        "9d 10d Jd Qd Kd 9c 10c",
    ]
    state, _ = start(hands, "9h")
    assert obs(state).phase is LifePhase.LAY
    # Give seat 0 five more hearts from the deck: 2..9 and four tens in hand.
    for face in ("9♥", "10♥", "J♥", "Q♥", "K♥"):
        card = next(c for c in state.deck if c.face == face)
        state.deck.remove(card)
        state.hands[0].append(card)
    state._legal = {}
    plain = labels(state)[1:]
    # 12 hearts: 2^8 x 5 = 1280 distinct subsets, too many. For each count 1..12 the
    # lowest and the highest cards of that count, once when both are the same.
    assert len(plain) == 2 * 12 - 1
    assert plain[:4] == ["lay 2♥", "lay K♥", "lay 2♥ 3♥", "lay Q♥ K♥"]
    assert plain[-1] == "lay 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"


# --------------------------------------------------------------------------- banking and steals


def test_ten_points_of_the_suit_face_up_are_banked_and_earn_a_steal() -> None:
    # Seat 0 lays 4♥; seat 1 lays 2♦ 3♦ face up; seat 0 lays 6♥: 4 + 6 = 10, banked.
    hands = ["4h 6h 2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d 7d 8d"]
    state, _ = start(hands, "9h 9d 7h")
    play(state, "lay 4♥")
    play(state, "lay 2♦ 3♦")
    events = play(state, "lay 6♥")
    assert "seat 0 banks 4♥ 6♥ (10 points of hearts) face down" in texts(events)
    assert banked(state, 0) == "4♥ 6♥" and row(state, 0) == ""
    assert obs(state).phase is LifePhase.STEAL
    # Seat 1 has face-up cards: the thief must take one of those, its choice.
    assert labels(state) == ["steal 2♦ from seat 1", "steal 3♦ from seat 1", "decline"]
    events = play(state, "steal 3♦ from seat 1")
    assert "seat 0 steals 3♦ from seat 1's face-up cards" in texts(events)
    assert "3♦" in hand(state, 0) and row(state, 1) == "2♦"
    # Everyone saw it: the card is known in seat 0's hand.
    assert faces(obs(state, 1).players[0].known_hand) == "3♦"


def test_royalties_and_aces_count_ten_toward_the_bank() -> None:
    assert [card_value(c) for c in cards("Ah Kh Qh Jh 10h 9h 2h")] == [10, 10, 10, 10, 10, 9, 2]
    state, _ = start(["Kh 2c 3c 4c 5c 6c 7c", "2d 3d 4d 5d 6d 7d 8d"], "9h")
    events = play(state, "lay K♥")
    assert "seat 0 banks K♥ (10 points of hearts) face down" in texts(events)


def test_only_the_suit_just_played_is_banked() -> None:
    # Seat 0 has 8♣ face up, then lays 10♥: the clubs stay face up.
    hands = ["8c 10h 2s 3d 4d 5d 6d", "2h 3h 4h 5h 6h 7h 8h"]
    state, _ = start(hands, "9c 9s 10s 9h", suits=["hearts", "hearts"])
    play(state, "lay 8♣")  # 8 points: not banked
    # Seat 1 turns 9♠, holds none: draws 10♠. Seat 0 turns 9♥.
    events = play(state, "lay 10♥")
    assert "seat 0 banks 10♥ (10 points of hearts) face down" in texts(events)
    assert row(state, 0) == "8♣"


def test_without_face_up_cards_a_steal_takes_a_random_hand_card() -> None:
    state, _ = start(["Kh 2c 3c 4c 5c 6c 7c", "2d 3d 4d 5d 6d 7d 8d"], "9h")
    play(state, "lay K♥")
    assert labels(state) == ["steal a random card from seat 1's hand", "decline"]
    before = set(hand(state, 1).split())
    events = play(state, "steal a random card from seat 1's hand")
    (secret,) = [e for e in events if e.kind == "steal_hand"]
    assert secret.audience == frozenset({0, 1})
    (taken,) = secret.cards
    assert taken.face in before and taken.face not in hand(state, 1).split()
    assert taken.face in hand(state, 0).split()
    assert "seat 0 steals a random card from seat 1's hand" in texts(events)
    assert not any(taken.face in t for t in texts(events))
    # Only the thief and the victim know where it went.
    assert obs(state, 1).players[0].known_hand == ()


def test_a_steal_may_be_declined() -> None:
    state, _ = start(["Kh 2c 3c 4c 5c 6c 7c", "2d 3d 4d 5d 6d 7d 8d"], "9h 9s 8s")
    play(state, "lay K♥")
    events = play(state, "decline")
    assert "seat 0 steals nothing" in texts(events)
    assert obs(state).players[1].hand_size == 8  # seat 1 turned 9♠, drew 8♠


def test_after_a_spade_bank_every_other_player_may_steal_in_turn_from_the_left() -> None:
    hands = ["Ks 5s 2h 3c 4c 5c 6c", "2d 3d 4d 5d 6d 7d 8d", "9d 10d Jd Qd 9c 10c Jc"]
    state, _ = start(hands, "7h Qh 8c 3h 8h 9s", suits=["hearts", "diamonds", "clubs"])
    events = play(state, "lay 2♥")  # 7♥ turned; 2♥ stays face up
    # Seat 1 turns Q♥ (no hearts), draws 8♣; seat 2 turns 3♥, draws 8♥; seat 0 turns 9♠.
    assert in_order(events, ["seat 0 turns 9♠", "seat 0 lays 5♠ K♠"])
    assert "seat 0 banks 5♠ K♠ (15 points of spades) face down" in texts(events)
    assert state.deciders() == (1,)
    assert state.in_turn() == 0  # seat 1 decides out of turn
    view = obs(state, 2)
    assert (view.phase, view.victim, view.stealers_waiting) == (LifePhase.SPADE_STEAL, 0, (2,))
    assert banked(state, 0) == "5♠ K♠"
    assert labels(state) == ["steal 2♥ from seat 0", "decline"]
    events = play(state, "steal 2♥ from seat 0")
    assert "seat 1 steals 2♥ from seat 0's face-up cards" in texts(events)
    # Seat 2 sees the row is now empty: a random card from seat 0's hand.
    assert state.deciders() == (2,)
    assert labels(state) == ["steal a random card from seat 0's hand", "decline"]
    play(state, "decline")
    assert state.deciders() == (1,) and obs(state).phase is LifePhase.LAY
    assert obs(state).turn == 1


# --------------------------------------------------------------------------- aces


def test_an_ace_turned_from_the_deck_discards_its_suit_from_hands_and_rows() -> None:
    hands = ["2h 3h 4c 5c 6c 7c 8c", "4h Kh 2d 3d 4d 5d 6d"]
    state, _ = start(hands, "9h Jh Ah 2s", suits=["hearts", "diamonds"])
    play(state, "lay 2♥")
    play(state, "lay 4♥ K♥")  # seat 1 banks 14 points of hearts
    events = play(state, "decline")
    assert in_order(
        events,
        ["seat 0's turn", "seat 0 turns A♥", "seat 0 discards 3♥ 2♥ onto the ace"],
    )
    # Banked cards stay; the turner laid nothing and draws 2♠. (Then seat 1 turns 2♣
    # and draws 3♣, and seat 0 turns 9♣.)
    assert in_order(events, ["seat 0 discards 3♥ 2♥ onto the ace", "seat 0 draws a card"])
    assert banked(state, 1) == "4♥ K♥"
    assert row(state, 0) == "" and hand(state, 0) == "4♣ 5♣ 6♣ 7♣ 8♣ 2♠"
    assert faces(obs(state).discard_pile).startswith("9♥ J♥ A♥ 3♥ 2♥")


def test_an_ace_laid_from_hand_takes_its_suit_from_every_hand_and_row() -> None:
    hands = ["Ah 2c 3c 4c 5c 6c 7c", "4h 5h 2d 3d 4d 5d 6d"]
    state, events = start(hands, "2s 8c 9h 10h", suits=["hearts", "diamonds"])
    # Seat 0 turns 2♠ (no spades) and draws 8♣; seat 1 turns 9♥ and lays 5♥.
    play(state, "lay 5♥")
    assert labels(state) == ["lay nothing and draw", "lay A♥ and take every ♥"]
    events = play(state, "lay A♥ and take every ♥")
    assert texts(events)[:3] == [
        "seat 0 lays A♥",
        "seat 0's A♥ takes 4♥ 5♥ from seat 1",
        "seat 0 banks 4♥ 5♥ A♥ (19 points of hearts) face down",
    ]
    assert row(state, 1) == "" and "♥" not in hand(state, 1)
    assert obs(state).phase is LifePhase.STEAL


def test_an_ace_of_spades_laid_by_force_sweeps_every_spade_onto_its_row() -> None:
    hands = ["As 2c 3c 4c 5c 6c 7c", "3s 4s 2d 3d 4d 5d 6d"]
    state, events = start(hands, "5s", suits=["hearts", "diamonds"])
    assert "seat 0's A♠ takes 3♠ 4♠ from seat 1" in texts(events)
    assert "seat 0 banks 3♠ 4♠ A♠ (17 points of spades) face down" in texts(events)
    assert state.deciders() == (1,) and obs(state).victim == 0


# --------------------------------------------------------------------------- jokers


def test_a_joker_played_from_hand_reshuffles_everything_not_banked() -> None:
    joker, king = cards("Jo Kh")
    pool = [c for c in DECK if c not in (joker, king)]
    redeal = stack_deck(pool, "2h 3h 4h 5h 6h 7h 8h 9c 10c Jc Qc Kc Ac 2s 10s")
    hands = ["Jo Kh 2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d 7d 8d"]
    state, _ = start(hands, "9h 9s 8s", suits=["hearts", "diamonds"], later=[redeal])
    # Holding a joker, seat 0 decides how to start its turn.
    assert labels(state) == ["turn the top card", "play a joker"]
    play(state, "turn the top card")
    play(state, "lay K♥")  # banked: it stays through the redeal
    play(state, "decline")
    # Seat 1 turned 9♠ and drew 8♠; seat 0 still holds its joker.
    assert labels(state) == ["turn the top card", "play a joker"]
    events = play(state, "play a joker")
    assert texts(events)[:2] == ["seat 0 plays a joker", "seat 0 shuffles 52 cards and redeals"]
    # Dealt from seat 0's left, seat 1 first; seat 0's turn is over and seat 1 turns
    # 10♠, holds no spades, and draws 2♣.
    assert hand(state, 0) == "3♥ 5♥ 7♥ 9♣ J♣ K♣ 2♠"
    assert hand(state, 1) == "2♥ 4♥ 6♥ 8♥ 2♣ 10♣ Q♣ A♣"
    assert banked(state, 0) == "K♥"
    view = obs(state)
    # Then seat 0 turned 3♣ and decides what to lay.
    assert (view.jokers_removed, view.deck_size, view.phase) == (1, 52 - 14 - 3, LifePhase.LAY)
    assert faces(view.discard_pile) == "10♠ 3♣"
    assert in_order(events, ["seat 1's turn", "seat 1 turns 10♠", "seat 1 has no spades to lay"])


def test_a_turned_joker_redeals_and_ends_the_turn() -> None:
    hands = ["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d"]
    state, events = start(hands, "Jo 9h", suits=["hearts", "diamonds"])
    assert in_order(
        events,
        ["seat 0 turns Jo", "the joker leaves play", "seat 0 shuffles 53 cards and redeals"],
    )
    after = texts(events)[texts(events).index("seat 0 shuffles 53 cards and redeals") :]
    assert next(t for t in after if t.endswith("'s turn")) == "seat 1's turn"
    assert obs(state).jokers_removed >= 1


def test_a_redeal_with_fewer_than_seven_each_ends_the_hand() -> None:
    hands = ["Jo 2c 3c 4c 5c 6c 7c", "2d 3d 4d 5d 6d 7d 8d"]
    state, _ = start(hands, "9h", suits=["hearts", "diamonds"])
    # No deck and no discards: the redeal gathers only the 6 + 7 cards in hand.
    bury_deck(state, keep=0, seat=1)
    events = play(state, "play a joker")
    assert "the hand ends: only 13 cards are left to redeal, fewer than 7 each" in texts(events)
    assert sorted(c.id for c in state.all_cards()) == list(range(54))


def test_an_empty_deck_is_refilled_from_the_discards_or_ends_the_hand() -> None:
    state, _ = start(["4h 6h 2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d 7d 8d"], "9h")
    bury_deck(state, keep=0, seat=1)
    events = play(state, "lay nothing and draw")
    assert in_order(
        events,
        [
            "seat 0 lays nothing",
            "the discard pile (1 card) is shuffled into a new deck",
            "seat 0 draws a card",
            "seat 1's turn",
            "the hand ends: the deck is empty and there are no discards",
        ],
    )
    assert "9♥" in [e.cards[0].face for e in events if e.kind == "draw"]


def test_the_hand_ends_when_a_player_lays_their_last_card() -> None:
    state, events = start(["2h 3h 4h 5h 6h 7h 8h", "2d 3d 4d 5d 6d 7d 8d"], "9h")
    events = play(state, "lay 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥")
    assert "the hand ends: seat 0 holds no cards" in texts(events)
    # No bank, no steal: the hand is over at once. Hearts chosen: 35 x 2 = 70.
    assert "seat 0 scores 70 for 7 cards in front (total 70)" in texts(events)
    assert "seat 1 scores 0 for 0 cards in front (total 0)" in texts(events)
    assert not any(e.kind == "bank" for e in events)


def test_the_hand_ends_when_a_players_last_card_is_stolen() -> None:
    hands = ["4h 6h 2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d 7d Kh"]
    state, _ = start(hands, "9d 9c 8d 9h", suits=["hearts", "diamonds"])
    # Seat 0 turned 9♦ (none) and drew 9♣; seat 1 turned 8♦.
    play(state, "lay 2♦ 3♦ 4♦ 5♦ 6♦ 7♦")
    play(state, "decline")
    play(state, "lay 4♥ 6♥")
    events = play(state, "steal a random card from seat 1's hand")
    assert "the hand ends: seat 1 holds no cards" in texts(events)
    # Seat 0: 4♥ 6♥ banked, hearts double: 20. Seat 1: diamonds 27, double: 54.
    assert state.hand_scores[0] == (20.0, 54.0)


def test_a_spade_steal_that_takes_the_bankers_last_card_ends_the_hand() -> None:
    hands = ["Ks 5s 2s 3s 4s 6s 2h", "2d 3d 4d 5d 6d 7d 8d", "2c 3c 4c 5c 6c 7c 8c"]
    state, events = start(hands, "9s", suits=["hearts", "diamonds", "clubs"])
    assert "seat 0 banks 2♠ 3♠ 4♠ 5♠ 6♠ K♠ (30 points of spades) face down" in texts(events)
    assert labels(state) == ["steal a random card from seat 0's hand", "decline"]
    events = play(state, "steal a random card from seat 0's hand")
    assert "the hand ends: seat 0 holds no cards" in texts(events)
    # Seat 2 is never asked; seat 0's banked spades count against it.
    assert state.hand_scores[0] == (-30.0, 0.0, 0.0)


# --------------------------------------------------------------------------- scoring


def test_scoring_chosen_suit_double_spades_negative_others_plain() -> None:
    front = cards("Kh 5h Qd 3c 7s As")
    assert front_score(front, S.HEARTS) == 2 * 15 + 10 + 3 - 7 - 10
    assert front_score(front, S.DIAMONDS) == 15 + 2 * 10 + 3 - 17
    assert front_score(front, None) == 15 + 10 + 3 - 17


def test_a_player_who_chose_spades_scores_their_spades_at_half() -> None:
    front = cards("Kh 7s Qs")
    assert front_score(front, S.SPADES) == 10 - 3.5 - 5
    # The hearts are plain for a spades player; another player's spades are full.
    assert front_score(front, S.HEARTS) == 20 - 17


def test_cards_in_hand_do_not_score() -> None:
    hands = ["Kh 2c 3c 4c 5c 6c 7c", "2d 3d 4d 5d 6d 7d 8d"]
    state, _ = start(hands, "9h", ruleset="life?turn_cap=1", suits=["hearts", "diamonds"])
    events = play(state, "lay K♥")
    events += play(state, "decline")
    assert "the hand ends: the cap of 1 turns is reached" in texts(events)
    assert state.hand_scores[0] == (20.0, 0.0)


# --------------------------------------------------------------------------- the game


def test_the_first_to_the_target_at_the_end_of_a_hand_wins() -> None:
    state, _ = start(
        ["2h 3h 4h 5h 6h 7h 8h", "2d 3d 4d 5d 6d 7d 8d"], "9h", ruleset="life?target=60"
    )
    events = play(state, "lay 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥")
    assert state.is_over and state.deciders() == ()
    assert (
        texts(events)[-1] == "game over, seat 0 reaches 60: seat 0 70 (place 1), seat 1 0 (place 2)"
    )
    assert state.result().scores == (70.0, 0.0)


def test_below_the_target_a_new_hand_is_dealt_by_the_next_player() -> None:
    state, _ = start(["2h 3h 4h 5h 6h 7h 8h", "2d 3d 4d 5d 6d 7d 8d"], "9h")
    events = play(state, "lay 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥")
    assert not state.is_over
    # Seat 1 dealt hand 1 and nobody redealt: seat 0 deals hand 2, seat 1 starts.
    assert "hand 2: seat 0 deals" in texts(events)[-1]
    view = obs(state)
    assert (view.phase, view.hand_number, view.dealer, view.turn) == (
        LifePhase.CHOOSE_SUIT,
        2,
        0,
        1,
    )
    assert [p.total for p in view.players] == [70.0, 0.0]
    assert all(p.face_up == () and p.banked == () for p in view.players)
    assert sorted(c.id for c in state.all_cards()) == list(range(54))


def test_a_tie_at_the_top_plays_on_until_the_hand_limit() -> None:
    state, _ = start(
        ["2h 3h 4h 5h 6h 7h 8h", "2d 3d 4d 5d 6d 7d 8d"], "9h", ruleset="life?target=60"
    )
    state.totals2[1] = 140  # seat 1 already has 70
    events = play(state, "lay 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥")
    assert "seat 0 and seat 1 tie at the top: play goes on" in texts(events)
    assert not state.is_over and obs(state).hand_number == 2
    hands = ["2h 3h 4h 5h 6h 7h 8h", "2d 3d 4d 5d 6d 7d 8d"]
    state2, _ = start(hands, "9h", ruleset="life?target=60")
    state2.totals2[1] = 140
    state2.hand_number = MAX_HANDS
    events = play(state2, "lay 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥")
    assert state2.is_over
    assert state2.result().places == (1, 1)
    assert f"the {MAX_HANDS}-hand limit is reached" in texts(events)[-1]


def test_the_turn_cap_ends_the_hand() -> None:
    hands = ["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d"]
    state, events = start(hands, "9s 9h 10s 10h Js Jh Qs", ruleset="life?turn_cap=3")
    assert "the hand ends: the cap of 3 turns is reached" in texts(events)
    assert obs(state).hand_number == 2 and state.hand_scores[0] == (0.0, 0.0)


def test_the_next_hand_is_dealt_left_of_the_last_player_to_redeal() -> None:
    hands = ["2c 3c 4c 5c 6c 7c 8c", "Jo 3d 4d 5d 6d 7d 8d", "2s 3s 4s 5s 6s 7s 8s"]
    state, events = start(hands, "9h 9d", ruleset="life?turn_cap=2")
    # Seat 0 turned 9♥ and drew 9♦; seat 1 plays its joker and redeals: the cap
    # of 2 turns ends the hand, and seat 2, left of the last redealer, deals next.
    events = play(state, "play a joker")
    assert "the hand ends: the cap of 2 turns is reached" in texts(events)
    assert "hand 2: seat 2 deals" in texts(events)[-1]
    assert obs(state).turn == 0


# --------------------------------------------------------------------------- information


def test_observation_shows_rows_banked_and_discards_but_not_other_hands() -> None:
    hands = ["4h 6h 2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d 7d 8d"]
    state, _ = start(hands, "9h 9d 7h")
    play(state, "lay 4♥")
    view = obs(state, 1)
    assert hand(state, 1) == "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦"
    assert [p.hand_size for p in view.players] == [6, 7]
    assert faces(view.players[0].face_up) == "4♥"
    assert view.players[0].hand_score == 8.0  # hearts, seat 0's suit: double
    assert view.deck_size == 54 - 14 - 2
    for seed in range(5):
        other = state.resample_hidden(1, random.Random(seed))
        assert other.observe(1) == view


def test_resample_keeps_cards_everyone_saw_stolen() -> None:
    hands = ["4h 6h 2c 3c 4c 5c 6c", "2d 3d 4d 5d 6d 7d 8d"]
    state, _ = start(hands, "9h 9d 7h")
    play(state, "lay 4♥")
    play(state, "lay 2♦ 3♦")
    play(state, "lay 6♥")
    play(state, "steal 3♦ from seat 1")
    for seed in range(5):
        other = state.resample_hidden(1, random.Random(seed))
        assert "3♦" in faces(other.hands[0])
        assert other.observe(1) == state.observe(1)


def test_illegal_choices_are_refused() -> None:
    state = game(["2c 3c 4c 5c 6c 7c 8c", "2d 3d 4d 5d 6d 7d 8d"], "9h")
    hearts = find(state, 0, "play for hearts")
    with pytest.raises(IllegalAction):
        state.apply({0: hearts})
    spades = LifeAction(LifeActionKind.CHOOSE_SUIT, S.SPADES)
    with pytest.raises(IllegalAction):
        state.apply({0: hearts, 1: spades})
