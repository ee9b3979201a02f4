"""Rule tests for Indian Chief: exact deals with explicit deck orders, exact outcomes.

Deals are written per seat; `game()` turns them into the deck order the engine
consumes (8 cards to each seat one at a time from seat 0, then the stock, top
first). Cards not named follow in id order (2♣ 3♣ ... A♣ 2♦ ...), so every test
names the stock cards it draws. Later shuffles (the melded cards going back
into the stock) use the seeded RNG unless a test gives their order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from typing import cast

import pytest

from referee.cards import Card, make_deck, parse_cards, stack_deck
from referee.games import parse_ruleset
from referee.games.base import DecisionKind, Event, GameError, IllegalAction
from referee.games.indian_chief import (
    IndianChief,
    IndianChiefAction,
    IndianChiefActionKind,
    IndianChiefMeld,
    IndianChiefObservation,
    IndianChiefPhase,
    IndianChiefPlayer,
    IndianChiefState,
    best_chief_split,
    card_value,
    five_card_hand,
    score_meld,
)
from referee.v1 import indian_chief_pb2

DECK = make_deck(1)
DECK2 = make_deck(2)
RULESET = parse_ruleset("indian-chief")
DOUBLE = parse_ruleset("indian-chief?double_deck")
M = IndianChiefMeld

# Four hands of 8 distinct cards with no scoring surprises, for tests that only
# need some cards in hand.
PLAIN = [
    "2c 3d 4h 5s 6c 7d 8h 9s",
    "10c Jd Qh Ks Ac 2d 3h 4s",
    "5c 6d 7h 8s 9c 10d 9h Kh",
    "Kc Ad 2h 3s 4c 5d 6h 7s",
]


# A third hand for thief tests (no 5♦, 5♥, K♣, K♥, J or Q).
THIRD = "5c 6c 7c 8c 9c 10c 2h 3h"


# --------------------------------------------------------------------------- helpers


def cards(text: str, deck: Sequence[Card] = DECK) -> list[Card]:
    return parse_cards(text, deck)


def deal_order(hands: Sequence[str], stock: str = "", deck: Sequence[Card] = DECK) -> list[Card]:
    """The deck order that deals `hands[seat]` one card at a time from seat 0,
    then leaves `stock` on top of the stock."""
    split = [h.split() for h in hands]
    assert all(len(h) == 8 for h in split)
    names = [split[s][r] for r in range(8) for s in range(len(hands))]
    return stack_deck(deck, " ".join([*names, stock]))


def game(
    hands: Sequence[str],
    stock: str = "",
    double: bool = False,
) -> IndianChiefState:
    double = double or len(hands) > 3  # four or more seats play indian-chief?double_deck
    deck = DECK2 if double else DECK
    ruleset = DOUBLE if double else RULESET
    orders = [deal_order(hands, stock, deck)]
    return cast(IndianChiefState, ruleset.new_state(len(hands), seed=0, orders=orders))


def faces(cs: Sequence[Card]) -> str:
    return " ".join(c.face for c in cs)


def labels(state: IndianChiefState, seat: int) -> list[str]:
    return [a.label for a in state.legal_actions(seat)]


def action(state: IndianChiefState, seat: int, label: str) -> IndianChiefAction:
    for a in state.legal_actions(seat):
        if a.label == label:
            return a
    raise AssertionError(f"{label!r} is not legal for seat {seat}: {labels(state, seat)[:12]}")


def play(state: IndianChiefState, choices: Mapping[int, str]) -> list[Event]:
    """Apply one choice per deciding seat, given by label."""
    assert sorted(choices) == sorted(state.deciders())
    return state.apply({s: action(state, s, label) for s, label in choices.items()})


def obs(state: IndianChiefState, seat: int = 0) -> IndianChiefObservation:
    return state.observe(seat)


def hand(state: IndianChiefState, seat: int) -> str:
    return faces(obs(state, seat).hand)


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.is_public]


def score(meld: IndianChiefMeld, text: str, others: str = "", deck: Sequence[Card] = DECK) -> int:
    picked = cards(f"{text} {others}", deck)
    mine, rest = picked[: meld.size], picked[meld.size :]
    return score_meld(meld, mine, rest).points


def totals(state: IndianChiefState) -> list[int]:
    return [p.total for p in obs(state).players]


# --------------------------------------------------------------------------- the game


def test_registered_game_options_and_rulings() -> None:
    assert isinstance(RULESET.game, IndianChief)
    assert (IndianChief.name, IndianChief.wire_name) == ("indian-chief", "indian_chief")
    assert (IndianChief.min_seats, IndianChief.max_seats) == (2, 8)
    assert parse_ruleset("indian-chief").seats == (2, 3)
    assert DOUBLE.seats == (4, 8)
    (option,) = IndianChief.options
    assert (option.name, option.default, option.is_flag) == ("double_deck", "false", True)
    assert DOUBLE.id == "indian-chief?double_deck"
    rulings = IndianChief.rulings()
    assert rulings.startswith("From the rulings file")
    for phrase in (
        "by 4-8, as the rulings say",
        "truly identical",
        "known_hand",
        "After the seventh",
    ):
        assert phrase in rulings
    assert 8 <= len(IndianChief.summary.splitlines()) <= 16


def test_wire_types_mirror_the_proto() -> None:
    pb = indian_chief_pb2
    for ours, theirs in (
        (IndianChiefObservation, pb.IndianChiefObservation),
        (IndianChiefAction, pb.IndianChiefAction),
        (IndianChiefPlayer, pb.IndianChiefPlayer),
    ):
        assert [f.name for f in fields(ours)] == [f.name for f in theirs.DESCRIPTOR.fields]
    for enum, proto, prefix in (
        (IndianChiefMeld, pb.IndianChiefMeld, "INDIAN_CHIEF_MELD_"),
        (IndianChiefActionKind, pb.IndianChiefActionKind, "INDIAN_CHIEF_ACTION_KIND_"),
        (IndianChiefPhase, pb.IndianChiefPhase, "INDIAN_CHIEF_PHASE_"),
    ):
        values = {
            v.name.removeprefix(prefix): v.number for v in proto.DESCRIPTOR.values if v.number
        }
        assert {k.name: k.value for k in enum} == values


def test_meld_types_are_named_by_their_card_count() -> None:
    assert [(m.size, m.title) for m in IndianChiefMeld] == [
        (1, "Thief"),
        (2, "Beggar Man"),
        (3, "Poor Man"),
        (4, "Lawyer"),
        (5, "Rich Man"),
        (6, "Doctor"),
        (7, "Indian Chief"),
    ]


def test_card_values_ace_one_faces_ten() -> None:
    values = [card_value(c) for c in cards("Ac 2c 5d 9h 10s Jc Qd Kh")]
    assert values == [1, 2, 5, 9, 10, 10, 10, 10]


# --------------------------------------------------------------------------- deal and decks


def test_deal_eight_each_one_at_a_time_from_seat_zero() -> None:
    order = stack_deck(
        DECK, "2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h 6c 6d 6h 7c 7d 7h 8c 8d 8h 9c 9d 9h"
    )
    state = cast(IndianChiefState, RULESET.new_state(3, seed=0, orders=[order]))
    assert hand(state, 0) == "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣"
    assert hand(state, 2) == "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥"
    view = obs(state, 1)
    assert (view.round, view.rounds_total, view.decks, view.stock_size) == (1, 7, 1, 52 - 24)
    assert view.phase is IndianChiefPhase.MELD
    assert [p.hand_size for p in view.players] == [8, 8, 8]
    deals = [e for e in state.opening_events() if e.kind == "deal"]
    assert next((e.audience, faces(e.cards)) for e in deals) == (
        frozenset({0}),
        "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣",
    )
    counts = [e for e in state.opening_events() if e.kind == "deal_count"]
    assert len(counts) == 3 and all(e.is_public and not e.cards for e in counts)


@pytest.mark.parametrize(
    ("ruleset_id", "seats", "decks"),
    [
        ("indian-chief", 2, 1),
        ("indian-chief", 3, 1),
        ("indian-chief?double_deck", 4, 2),
        ("indian-chief?double_deck", 8, 2),
    ],
)
def test_one_deck_for_two_or_three_two_decks_for_four_to_eight(
    ruleset_id: str, seats: int, decks: int
) -> None:
    state = cast(IndianChiefState, parse_ruleset(ruleset_id).new_state(seats, seed=3))
    assert obs(state).decks == decks
    assert sorted(c.id for c in state.all_cards()) == list(range(52 * decks))
    assert obs(state).stock_size == 52 * decks - 8 * seats


@pytest.mark.parametrize(
    ("ruleset_id", "seats"), [("indian-chief", 4), ("indian-chief?double_deck", 3)]
)
def test_other_seat_counts_are_refused(ruleset_id: str, seats: int) -> None:
    with pytest.raises(GameError, match="is played by"):
        parse_ruleset(ruleset_id).new_state(seats, seed=3)


# --------------------------------------------------------------------------- choosing melds


def test_every_player_chooses_at_once_and_nothing_shows_before_the_reveal() -> None:
    state = game(PLAIN[:3])
    assert state.deciders() == (0, 1, 2)
    assert set(state.decision_kinds().values()) == {DecisionKind.SIMULTANEOUS}
    before = [obs(state, s) for s in range(3)]
    # Seat 0 has made up its mind, but nothing of it is stored before apply().
    action(state, 0, "Thief: 2♣")
    assert [obs(state, s) for s in range(3)] == before
    assert all(p.table == () and p.meld is None for p in before[1].players)


def test_a_full_hand_offers_every_subset_of_every_meld_type() -> None:
    state = game(PLAIN[:2])
    actions = state.legal_actions(0)
    assert len(actions) == 8 + 28 + 56 + 70 + 56 + 28 + 8
    assert actions[0].label == "Thief: 2♣"
    assert actions[8].label == "Beggar Man: 2♣ 3♦"
    assert actions[-1].label == "Indian Chief: 3♦ 4♥ 5♠ 6♣ 7♦ 8♥ 9♠"
    assert all(a.kind is IndianChiefActionKind.MELD for a in actions)
    assert all(len(a.cards) == a.meld.size for a in actions if a.meld)


def test_a_meld_type_once_made_is_gone() -> None:
    state = game(PLAIN[:2], "Jc Jh Js")
    play(state, {0: "Thief: 2♣", 1: "Thief: A♣"})
    # Seat 1's ace steals first, then seat 0's 2; both decline.
    while obs(state).phase is IndianChiefPhase.STEAL:
        play(state, {s: "no steal" for s in state.deciders()})
    assert obs(state).players[0].melds_made == (M.THIEF,)
    assert not any(a.meld is M.THIEF for a in state.legal_actions(0))
    assert len(state.legal_actions(0)) == 28 + 56 + 70 + 56 + 28 + 8


def test_there_is_no_passing_and_illegal_choices_are_refused() -> None:
    state = game(PLAIN[:2])
    assert not any(a.kind is not IndianChiefActionKind.MELD for a in state.legal_actions(0))
    thief = action(state, 0, "Thief: 2♣")
    with pytest.raises(IllegalAction):
        state.apply({0: thief})  # seat 1 must choose too
    with pytest.raises(IllegalAction):
        state.apply({0: thief, 1: thief})  # not seat 1's card
    foreign = IndianChiefAction(IndianChiefActionKind.MELD, M.THIEF, tuple(cards("Kh")))
    with pytest.raises(IllegalAction):
        state.apply({0: thief, 1: foreign})


def test_two_decks_offer_identical_choices_once_with_the_lowest_ids() -> None:
    hands = ["7s 7s 7h 2c 3c 4c 5c 6c", *PLAIN[:3]]
    state = game(hands, double=True)
    assert obs(state).decks == 2
    thieves = [a.label for a in state.legal_actions(0) if a.meld is M.THIEF]
    assert thieves == [f"Thief: {face}" for face in ["2♣", "3♣", "4♣", "5♣", "6♣", "7♥", "7♠"]]
    low, _ = sorted(c.id for c in state.hands[0] if c.face == "7♠")
    assert action(state, 0, "Thief: 7♠").cards[0].id == low
    beggars = [a.label for a in state.legal_actions(0) if a.meld is M.BEGGAR_MAN]
    assert "Beggar Man: 7♠ 7♠" in beggars
    assert beggars.count("Beggar Man: 7♥ 7♠") == 1
    # C(8,2) = 28 subsets; the 12 holding one 7♠ come in 6 identical couples: 22 offered.
    assert len(beggars) == 28 - 6
    assert len({a.label for a in state.legal_actions(0)}) == len(state.legal_actions(0))


# --------------------------------------------------------------------------- scoring


def test_thief_scores_the_card_value() -> None:
    assert score(M.THIEF, "Kh") == 10
    assert score(M.THIEF, "7c") == 7
    assert score(M.THIEF, "As") == 1


def test_beggar_man_scores_two_per_matching_card_of_the_other_melds() -> None:
    # 7♠ K♦: the others hold two 7s and one K (a Q does not match a K): 3 matches.
    assert score(M.BEGGAR_MAN, "7s Kd", "7h 7c Kc Qd 2h") == 6
    # Nothing matches: 0.
    assert score(M.BEGGAR_MAN, "7s Kd", "2h 3h 4h") == 0


def test_beggar_man_of_two_cards_of_one_rank_counts_each_card_once() -> None:
    # 9♠ 9♦: the others hold 9♥ and 9♣: 2 cards, 2 each = 4 (not 8).
    assert score(M.BEGGAR_MAN, "9s 9d", "9h 9c 5c") == 4


def test_beggar_man_counts_only_the_other_players_melds_of_this_round() -> None:
    # Seat 0's Beggar Man 5♣ 5♦ matches seat 1's 5♥ only; its own cards never
    # count, nor do cards in hands or melds of earlier rounds.
    state = game(["5c 5d 2c 3c 4c 6c 7c 8c", "5h 5s 2d 3d 4d 6d 7d 8d"], "9c 9d 9h 9s")
    events = play(state, {0: "Beggar Man: 5♣ 5♦", 1: "Poor Man: 2♦ 3♦ 5♥"})
    assert obs(state).players[0].meld_scores == (2,)
    assert "seat 0's Beggar Man scores 2 (the other melds hold 1 × 5, 2 points each)" in "\n".join(
        texts(events)
    )


def test_poor_man_sums_its_spades() -> None:
    assert score(M.POOR_MAN, "Ks 3s 9h") == 13
    assert score(M.POOR_MAN, "As Qs Jc") == 11
    assert score(M.POOR_MAN, "Kh Qd Jc") == 0


def test_lawyer_scores_25_only_for_a_total_of_exactly_25() -> None:
    assert score(M.LAWYER, "Kc Qd 4h As") == 25  # 10 + 10 + 4 + 1
    assert score(M.LAWYER, "9c 8d 5h 3s") == 25
    assert score(M.LAWYER, "Kc Qd 4h 2s") == 0  # 26
    assert score(M.LAWYER, "Kc Qd 3h As") == 0  # 24


def test_rich_man_subtracts_its_total() -> None:
    assert score(M.RICH_MAN, "Kc Qd 4h As 2s") == -27
    assert score(M.RICH_MAN, "Ac 2d 3h 4s 5c") == -15


def test_doctor_scores_ten_per_card_of_its_longest_suit() -> None:
    # Ace, a heart, six ranks; hearts are longest with 3: 30.
    assert score(M.DOCTOR, "Ah 2h 3h 4c 5c 9s") == 30
    # The longest suit need not be hearts: four clubs, 40.
    assert score(M.DOCTOR, "Ac 2c 3c 4c 5h 9s") == 40
    assert score(M.DOCTOR, "Ah 2h 3h 4h 5h 6h") == 60


def test_doctor_needs_an_ace_a_heart_and_six_ranks() -> None:
    assert score(M.DOCTOR, "Kh 2h 3h 4c 5c 9s") == 0  # no ace
    assert score(M.DOCTOR, "Ac 2c 3c 4c 5d 9s") == 0  # no heart
    assert score(M.DOCTOR, "Ah 2h 3h 3c 5c 9s") == 0  # two 3s


@pytest.mark.parametrize(
    ("five", "name", "points"),
    [
        ("5s 6s 7s 8s 9s", "straight flush", 45),
        ("Ah 2h 3h 4h 5h", "straight flush", 45),
        ("9c 9d 9h 9s Kc", "four of a kind", 40),
        ("9c 9d 9h Ks Kc", "full house", 35),
        ("2c 5c 9c Jc Kc", "flush", 30),
        ("10c Jd Qh Ks Ac", "straight", 25),
        ("Ac 2d 3h 4s 5c", "straight", 25),
        ("Qc Kd Ah 2s 3c", "mixed cards", 5),
        ("7c 7d 7h 2s 9c", "three of a kind", 20),
        ("7c 7d 9h 9s Kc", "two pairs", 15),
        ("7c 7d 2h 9s Kc", "one pair", 10),
        ("2c 4d 6h 8s 10c", "mixed cards", 5),
    ],
)
def test_five_card_hands(five: str, name: str, points: int) -> None:
    assert five_card_hand(cards(five)) == (name, points)


def test_four_of_a_kind_means_four_of_one_rank_not_of_one_suit() -> None:
    # Four spades and an odd card are no "four of a kind" (the text's slip).
    assert five_card_hand(cards("2s 5s 9s Ks 3h")) == ("mixed cards", 5)


def test_five_of_a_kind_scores_50_with_two_decks() -> None:
    assert five_card_hand(cards("7c 7c 7d 7h 7s", DECK2)) == ("five of a kind", 50)
    # Two decks also allow a flush holding a pair: the flush is the better reading.
    assert five_card_hand(cards("7c 7c 2c 9c Kc", DECK2)) == ("flush", 30)


def test_indian_chief_two_cards_score_the_last_digit_of_their_total() -> None:
    # 9 + K = 19: 9; the other five, 2♣ 3♦ 5♥ 7♠ J♣, are mixed cards (5).
    split = best_chief_split(cards("9h Kd 2c 3d 5h 7s Jc"))
    assert (faces(split.two), split.two_points) == ("9♥ K♦", 9)
    assert (split.five_name, split.points) == ("mixed cards", 14)


def test_indian_chief_takes_the_best_split() -> None:
    # 5-9♠ straight flush (45) plus K♥ 9♦ (19: 9) = 54, better than keeping
    # the pair of 9s in the five.
    cs = cards("5s 6s 7s 8s 9s Kh 9d")
    split = best_chief_split(cs)
    assert split.five_name == "straight flush"
    assert faces(split.two) == "K♥ 9♦"
    assert score_meld(M.INDIAN_CHIEF, cs, []).points == 54
    # Full house 9 9 9 K K (35) + 4 5 (9) = 44 beats three 9s + anything.
    assert score(M.INDIAN_CHIEF, "9c 9d 9h Kc Ks 4d 5h") == 44
    # 10-J-Q-K-A straight (25) + 2 + 6 (8) = 33; the ace plays high.
    assert score(M.INDIAN_CHIEF, "10c Jd Qh Ks Ac 2d 6h") == 33


def test_indian_chief_on_the_table_explains_its_split() -> None:
    state = game(["5s 6s 7s 8s 9s Kh 9d 2c", PLAIN[1]], "Jc Jh")
    events = play(state, {0: "Indian Chief: 5♠ 6♠ 7♠ 8♠ 9♦ 9♠ K♥", 1: "Thief: 2♦"})
    line = next(t for t in texts(events) if t.startswith("seat 0's Indian Chief"))
    assert line == (
        "seat 0's Indian Chief scores 54 (9♦ K♥ make 9, 5♠ 6♠ 7♠ 8♠ 9♠ straight flush 45); total 54"
    )


# --------------------------------------------------------------------------- a round


def test_reveal_score_refill_and_shuffle_back() -> None:
    state = game(PLAIN[:2], "Jc Jh Js Qc Qd Qs")
    events = play(state, {0: "Lawyer: 5♠ 6♣ 7♦ 9♠", 1: "Rich Man: A♣ 2♦ 3♥ 4♠ 10♣"})
    assert texts(events)[:4] == [
        "seat 0 melds Lawyer: 5♠ 6♣ 7♦ 9♠",
        "seat 1 melds Rich Man: A♣ 2♦ 3♥ 4♠ 10♣",
        "seat 0's Lawyer scores 0 (the values total 27, not 25); total 0",
        "seat 1's Rich Man scores -20 (the values total 20, subtracted); total -20",
    ]
    # Refills go seat by seat from the top of the stock: seat 0 four, seat 1 five.
    assert hand(state, 0) == "2♣ 3♦ 4♥ 8♥ J♣ J♥ J♠ Q♣"
    assert hand(state, 1) == "3♣ 4♣ 5♣ J♦ Q♦ Q♥ Q♠ K♠"
    draws = [e for e in events if e.kind == "draw"]
    assert [(e.audience, faces(e.cards)) for e in draws] == [
        (frozenset({0}), "J♣ J♥ J♠ Q♣"),
        (frozenset({1}), "Q♦ Q♠ 3♣ 4♣ 5♣"),
    ]
    assert "seat 1 draws 5 cards" in texts(events)
    assert "the 9 melded cards are shuffled into the stock" in texts(events)
    view = obs(state)
    assert view.stock_size == 52 - 16
    assert (view.round, view.phase) == (2, IndianChiefPhase.MELD)
    assert all(p.table == () for p in view.players)
    assert [p.meld_scores for p in view.players] == [(0,), (-20,)]
    assert state.round_scores == [(0, -20)]


def test_melded_cards_go_back_into_the_stock_with_one_shuffle() -> None:
    # The shuffle after the refill gets the stock's remainder and the melded cards.
    state = game(PLAIN[:2], "Jc Jh")
    remainder_then_melds: list[Card] = []

    def capture(pool: Iterable[Card]) -> list[Card]:
        order = list(pool)
        remainder_then_melds.extend(order)
        return order

    state.chance.shuffled = capture  # type: ignore[method-assign, assignment]
    play(state, {0: "Thief: 9♠", 1: "Thief: K♠"})
    play(state, {0: "no steal"})
    play(state, {1: "no steal"})
    assert len(remainder_then_melds) == 52 - 16 - 2 + 2
    assert {c.face for c in remainder_then_melds[-2:]} == {"9♠", "K♠"}


def test_short_stock_takes_the_melded_cards_in_first() -> None:
    # Eight seats with two decks: 64 cards dealt, 40 in the stock. Every seat
    # melds an Indian Chief: 56 cards to refill, so the melds go in first.
    hands = [PLAIN[i % 4] for i in range(8)]
    state = game(hands)
    assert obs(state).stock_size == 40
    choices = {s: labels(state, s)[-1] for s in range(8)}
    events = play(state, choices)
    (short,) = [e.text for e in events if e.kind == "stock_short"]
    assert short == (
        "the stock holds 40 cards, too few to refill 56: "
        "the 56 melded cards are shuffled into it first"
    )
    assert not any(e.kind == "shuffle" for e in events)
    assert obs(state).stock_size == 40 + 56 - 56
    assert all(p.hand_size == 8 for p in obs(state).players)


# --------------------------------------------------------------------------- thieves


def test_thieves_steal_after_scoring_lowest_first_ace_lowest() -> None:
    # Seat 0 thieves with a 2, seat 1 with an ace: seat 1 steals first.
    hands = ["2c 3d 4h 5s 6c 7d 8h 9s", "Ah 2d 10h 4s 5d 6d 7h 8s", "5c 7c 8c 9c 10c Kc 2h 3h"]
    state = game(hands, "Jc Jh Js Qc")
    events = play(state, {0: "Thief: 2♣", 1: "Thief: A♥", 2: "Rich Man: 5♣ 7♣ 8♣ 9♣ 10♣"})
    assert texts(events)[3:6] == [
        "seat 0's Thief scores 2 (2♣ is worth 2); total 2",
        "seat 1's Thief scores 1 (A♥ is worth 1); total 1",
        "seat 2's Rich Man scores -39 (the values total 39, subtracted); total -39",
    ]
    assert "thieves steal in this order: seat 1, then seat 0" in texts(events)
    assert state.deciders() == (1,)
    view = obs(state, 2)
    assert (view.phase, view.thieves_deciding, view.thieves_waiting) == (
        IndianChiefPhase.STEAL,
        (1,),
        (0,),
    )
    assert labels(state, 1) == [
        "steal 2♣ from seat 0",
        "steal 5♣ from seat 2",
        "steal 7♣ from seat 2",
        "steal 8♣ from seat 2",
        "steal 9♣ from seat 2",
        "steal 10♣ from seat 2",
        "no steal",
    ]
    events = play(state, {1: "steal 9♣ from seat 2"})
    assert "seat 1 steals 9♣ from seat 2's Rich Man" in texts(events)
    assert state.deciders() == (0,)
    # Seat 0 may not take its own card, and the 9♣ is gone from the table.
    assert "steal 9♣ from seat 2" not in labels(state, 0)
    assert "steal A♥ from seat 1" in labels(state, 0)
    events = play(state, {0: "steal A♥ from seat 1"})
    # Scores are not recomputed: seat 2 keeps -39, seat 1 keeps 1.
    assert totals(state) == [2, 1, -39]
    # Both thieves stole: no refill for them; seat 2 draws 5.
    draws = {e.seat: faces(e.cards) for e in events if e.kind == "draw"}
    assert draws == {2: "J♣ J♥ J♠ Q♣ 3♣"}
    assert "9♣" in hand(state, 1) and "A♥" in hand(state, 0)
    assert [p.hand_size for p in obs(state).players] == [8, 8, 8]


def test_a_thief_may_decline_and_then_gets_one_card() -> None:
    state = game(PLAIN[:2], "Jc Jh")
    play(state, {0: "Thief: 9♠", 1: "Lawyer: 10♣ J♦ Q♥ K♠"})
    assert state.deciders() == (0,)
    events = play(state, {0: "no steal"})
    assert "seat 0 steals nothing" in texts(events)
    draws = {e.seat: faces(e.cards) for e in events if e.kind == "draw"}
    assert draws == {0: "J♣", 1: "J♥ 3♣ 4♣ 5♣"}


def test_stolen_card_is_known_to_everyone_until_melded() -> None:
    state = game(PLAIN[:2], "Jc Jh Js Qc")
    play(state, {0: "Thief: 9♠", 1: "Lawyer: 10♣ J♦ Q♥ K♠"})
    play(state, {0: "steal K♠ from seat 1"})
    assert faces(obs(state, 1).players[0].known_hand) == "K♠"
    assert obs(state, 1).players[0].hand_size == 8
    play(state, {0: "Beggar Man: 2♣ K♠", 1: labels(state, 1)[0]})
    assert obs(state, 1).players[0].known_hand == ()


def test_tied_thieves_pick_in_secret_and_distinct_picks_all_happen() -> None:
    hands = ["5d 2d 3d 4d 6d 7d 8d 9d", "5h 2s 3s 4s 6s 7s 8s 9s", THIRD]
    state = game(hands, "Jc Jh Js Qc Qd")
    events = play(state, {0: "Thief: 5♦", 1: "Thief: 5♥", 2: "Poor Man: 2♥ 3♥ 5♣"})
    assert "seat 0 and seat 1 pick their steals in secret" in texts(events)
    assert state.deciders() == (0, 1)
    assert obs(state, 2).thieves_deciding == (0, 1)
    events = play(state, {0: "steal 5♣ from seat 2", 1: "steal 5♦ from seat 0"})
    assert "seat 0 steals 5♣ from seat 2's Poor Man" in texts(events)
    assert "seat 1 steals 5♦ from seat 0's Thief" in texts(events)
    assert "5♣" in hand(state, 0) and "5♦" in hand(state, 1)


def test_colliding_picks_cancel_every_steal_of_the_tie() -> None:
    hands = ["Kc 2d 3d 4d 6d 7d 8d 9d", "Kh 2s 3s 4s 6s 7s 8s 9s", THIRD]
    state = game(hands, "Jc Jh Js Qc Qd Qs")
    play(state, {0: "Thief: K♣", 1: "Thief: K♥", 2: "Poor Man: 2♥ 3♥ 5♣"})
    events = play(state, {0: "steal 5♣ from seat 2", 1: "steal 5♣ from seat 2"})
    assert (
        "seat 0 and seat 1 pick the same card (5♣ from seat 2): no thief of this rank steals"
        in texts(events)
    )
    assert not any(e.kind == "steal" for e in events)
    assert "5♣" not in hand(state, 0) and "5♣" not in hand(state, 1)
    # Both get a refill card instead.
    assert [p.hand_size for p in obs(state).players] == [8, 8, 8]


def test_a_collision_cancels_the_tie_even_for_a_thief_who_picked_elsewhere() -> None:
    hands = ["7c 2d 3d 4d 6d 8d 9d 10d", "7h 2s 3s 4s 6s 8s 9s 10s", "7s 2c 3c 4c 5c 6c 8c 9c"]
    state = game([*hands, PLAIN[3]], "Jc Jh Js Qc Qd Qs", double=True)
    play(state, {0: "Thief: 7♣", 1: "Thief: 7♥", 2: "Thief: 7♠", 3: "Lawyer: 4♣ 5♦ 6♥ K♣"})
    picks = {0: "steal K♣ from seat 3", 1: "steal K♣ from seat 3", 2: "steal 4♣ from seat 3"}
    events = play(state, picks)
    assert not any(e.kind == "steal" for e in events)
    assert texts(events)[0] == (
        "seat 0 and seat 1 pick the same card (K♣ from seat 3): no thief of this rank steals"
    )
    assert [p.hand_size for p in obs(state).players] == [8, 8, 8, 8]


def test_with_two_decks_tied_thieves_may_take_both_copies_of_a_face() -> None:
    hands = ["7c 2d 3d 4d 6d 8d 9d 10d", "7h 2s 3s 4s 6s 8s 9s 10s", "Kc Kc 2c 3c 4c 5c 6c 8c"]
    state = game([*hands, PLAIN[1]], "Jc Jh Js Qc Qd Qs", double=True)
    play(state, {0: "Thief: 7♣", 1: "Thief: 7♥", 2: "Beggar Man: K♣ K♣", 3: "Thief: 2♦"})
    # Seat 3's 2♦ steals first (lower than 7); it passes.
    play(state, {3: "no steal"})
    assert labels(state, 0).count("steal K♣ from seat 2") == 1
    events = play(state, {0: "steal K♣ from seat 2", 1: "steal K♣ from seat 2"})
    stolen = [(e.seat, e.cards[0].id) for e in events if e.kind == "steal"]
    low, high = sorted(c.id for c in cards("Kc Kc", DECK2))
    assert stolen == [(0, low), (1, high)]


def test_a_thief_whose_card_was_taken_still_steals() -> None:
    hands = ["Ac 2d 3d 4d 6d 8d 9d 10d", "2h 4s 5s 6s 7s 8s 9s 10s", "3s 4c 5c 6c 7c 8c 9c 10c"]
    state = game(hands, "Jc Jh Js Qc Qd Qs")
    play(state, {0: "Thief: A♣", 1: "Thief: 2♥", 2: "Thief: 3♠"})
    play(state, {0: "steal 3♠ from seat 2"})
    # Seat 2's card is gone, seat 1 takes the ace: seat 2, robbed, still steals
    # next, and only seat 1's 2♥ is left for it.
    play(state, {1: "steal A♣ from seat 0"})
    assert labels(state, 2) == ["steal 2♥ from seat 1", "no steal"]
    events = play(state, {2: "steal 2♥ from seat 1"})
    assert obs(state).round == 2
    # All three stole, so nobody draws in the refill.
    assert not any(e.kind == "draw" for e in events)


def test_the_last_thief_finds_the_table_empty() -> None:
    hands = ["Ac 2d 3d 4d 6d 8d 9d 10d", "2h 4s 5s 6s 7s 8s 9s 10s", "3s 4c 5c 6c 7c 8c 9c 10c"]
    state = game(hands, "Jc Jh Js Qc Qd Qs")
    play(state, {0: "Thief: A♣", 1: "Thief: 2♥", 2: "Thief: 3♠"})
    play(state, {0: "steal 2♥ from seat 1"})
    events = play(state, {1: "steal A♣ from seat 0"})
    # Left on the table: seat 2's own 3♠ only.
    assert "seat 2 has no card on the table to steal" in texts(events)
    assert obs(state).round == 2
    draws = {e.seat: faces(e.cards) for e in events if e.kind == "draw"}
    assert draws == {2: "J♣"}


# --------------------------------------------------------------------------- the end


def play_to_the_end(state: IndianChiefState, seed: int) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = []
    while not state.is_over:
        choices = {}
        for s in state.deciders():
            legal = state.legal_actions(s)
            choices[s] = legal[rng.randrange(len(legal))]
        events += state.apply(choices)
    return events


def test_seven_rounds_each_meld_once_highest_total_wins() -> None:
    state = cast(IndianChiefState, RULESET.new_state(3, seed=11))
    events = play_to_the_end(state, 11)
    view = obs(state)
    assert view.phase is IndianChiefPhase.OVER and state.deciders() == ()
    for p in view.players:
        assert sorted(m.value for m in p.melds_made) == [1, 2, 3, 4, 5, 6, 7]
        assert sum(p.meld_scores) == p.total
    result = state.result()
    assert result.scores == tuple(p.total for p in view.players)
    assert len(result.hand_scores) == 7
    assert tuple(map(sum, zip(*result.hand_scores))) == result.scores
    assert any(e.kind == "game_end" for e in events)


def test_no_steal_and_no_refill_after_the_seventh_round() -> None:
    state = cast(IndianChiefState, RULESET.new_state(2, seed=5))
    rng = random.Random(5)
    while state.round < 7:
        play(state, {s: labels(state, s)[rng.randrange(2)] for s in state.deciders()})
    # Whatever the last melds are (a Thief among them or not), the game ends at once.
    events = play(state, {s: labels(state, s)[0] for s in state.deciders()})
    assert state.is_over
    assert not any(e.kind in ("thieves", "steal", "draw", "shuffle") for e in events)


def test_equal_totals_share_a_place() -> None:
    state = cast(IndianChiefState, RULESET.new_state(2, seed=1))
    play_to_the_end(state, 1)
    state.totals = [10, 10]
    assert state.result().places == (1, 1)


# --------------------------------------------------------------------------- information


def test_observation_hides_other_hands_and_the_stock() -> None:
    state = game(PLAIN[:3])
    view = obs(state, 1)
    assert hand(state, 1) == "A♣ 2♦ 3♥ 4♠ 10♣ J♦ Q♥ K♠"
    shown = {c.id for c in view.hand}
    for p in view.players:
        shown |= {c.id for c in p.table} | {c.id for c in p.known_hand}
    assert shown == {c.id for c in state.hands[1]}


def test_resample_keeps_stolen_cards_where_everyone_saw_them() -> None:
    state = game(PLAIN[:3], "Jc Jh Js Qc")
    play(state, {0: "Thief: 9♠", 1: "Lawyer: 10♣ J♦ Q♥ K♠", 2: "Thief: 5♣"})
    play(state, {2: "steal K♠ from seat 1"})
    play(state, {0: "no steal"})
    for seed in range(5):
        other = state.resample_hidden(0, random.Random(seed))
        assert other.observe(0) == state.observe(0)
        assert "K♠" in faces(other.hands[2])
        assert sorted(c.id for c in other.all_cards()) == sorted(c.id for c in state.all_cards())
    moved = [state.resample_hidden(0, random.Random(s)).hands[1] for s in range(5)]
    assert any(h != state.hands[1] for h in moved)
