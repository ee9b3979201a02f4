"""Rule tests for Thieves: exact deals from explicit deck orders, exact outcomes.

`level_order()` writes a level's shuffle as the engine reads it: the tableau row by
row (columns are given top card first, the available card last), the first stack
card, then the stock from its top; every card not named follows in id order.
`position()` lays out a late position directly: named columns, stack card and
stock, every other card already used (under the stack).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import fields
from typing import cast

import pytest

from referee.cards import Card, Rank, parse_cards, stack_deck
from referee.games import parse_ruleset
from referee.games.base import Event, GameState, IllegalAction
from referee.games.thieves import (
    DECK,
    JOKERS,
    POINTS,
    Thieves,
    ThievesAction,
    ThievesActionKind,
    ThievesObservation,
    ThievesState,
    can_take,
    card_points,
)
from referee.v1 import thieves_pb2

# The columns of the standard test deal, top card first, available card last.
COLUMNS = [
    "2c 3c 4c 5c 6c",
    "7c 8c 9c 10c Jc",
    "Qc Kc Ac 2d 3d",
    "4d 5d 6d 7d 8d",
    "9d 10d Jd Qd Kd",
    "Ad 2h 3h 4h 5h",
    "6h 7h 8h 9h Jo",
]


def cards(text: str, deck: Sequence[Card] = DECK) -> list[Card]:
    return parse_cards(text, deck)


def faces(items: Sequence[Card]) -> str:
    return " ".join(c.face for c in items)


def level_order(columns: Sequence[str], stack: str, stock: str = "", level: int = 1) -> list[Card]:
    split = [c.split() for c in columns]
    rows = [split[col][row] for row in range(5) for col in range(7)]
    in_play = [c for c in DECK if not c.is_joker] + list(JOKERS[: 1 + max(0, 3 - level)])
    return stack_deck(in_play, " ".join([*rows, stack, stock]))


def game(
    columns: Sequence[str] = COLUMNS,
    stack: str = "10h",
    stock: str = "",
    options: str = "",
    later: Sequence[list[Card]] = (),
) -> ThievesState:
    ruleset = parse_ruleset("thieves" + (f"?{options}" if options else ""))
    orders = [level_order(columns, stack, stock), *later]
    return cast(ThievesState, ruleset.new_state(1, seed=0, orders=orders))


def position(
    columns: Sequence[str],
    stack: str,
    stock: str = "",
    options: str = "",
    level: int = 1,
    later: Sequence[list[Card]] = (),
) -> ThievesState:
    """A late position of level `level`: only the named cards are still in play;
    `later` are the shuffles of the next levels."""
    state = game(options=options, later=later)
    named_columns = [cards(c) if c else [] for c in columns]
    top = cards(stack)
    stock_cards = cards(stock)
    named = {c.id for col in named_columns for c in col} | {c.id for c in top + stock_cards}
    assert len(named) == sum(map(len, named_columns)) + len(top) + len(stock_cards)
    used = [c for c in DECK if c.id not in named]
    state.columns = named_columns + [[] for _ in range(7 - len(named_columns))]
    state.stack = used + top
    state.stock = stock_cards[::-1]
    state.aside = []
    state.level = level
    state.history = []
    return state


def obs(state: GameState) -> ThievesObservation:
    return cast(ThievesObservation, state.observe(0))


def labels(state: GameState) -> list[str]:
    return [a.label for a in state.legal_actions(0)]


def play(state: GameState, label: str) -> list[Event]:
    for action in state.legal_actions(0):
        if action.label == label:
            return state.apply({0: action})
    raise AssertionError(f"{label!r} is not legal: {labels(state)}")


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.is_public]


def available(state: GameState) -> str:
    return " ".join(col.cards[-1].face if col.cards else "-" for col in obs(state).columns)


def card(face: str) -> Card:
    (found,) = cards(face)
    return found


# --------------------------------------------------------------------------- the game


def test_registered_game_options_and_rulings() -> None:
    ruleset = parse_ruleset("thieves")
    assert isinstance(ruleset.game, Thieves)
    assert (Thieves.min_seats, Thieves.max_seats, Thieves.wire_name) == (1, 1, "thieves")
    cap, undo = Thieves.options
    assert (cap.name, cap.default, cap.is_int, cap.choices) == ("level_cap", "50", True, ())
    assert (undo.name, undo.default, undo.is_flag) == ("undo", "false", True)
    assert parse_ruleset("thieves?undo").id == "thieves?undo"
    assert parse_ruleset("thieves?level_cap=3").id == "thieves?level_cap=3"
    rulings = Thieves.rulings()
    assert rulings.startswith("From the rulings file")
    for phrase in ("row by row", "off in", "shuffled again", "ends the game"):
        assert phrase in rulings
    assert 8 <= len(Thieves.summary.splitlines()) <= 16
    with pytest.raises(Exception, match="exactly 1 player"):
        parse_ruleset("thieves").new_state(2, seed=0)
    with pytest.raises(Exception, match="at least 1"):
        parse_ruleset("thieves?level_cap=0").new_state(1, seed=0)


def test_wire_types_mirror_the_proto() -> None:
    proto_obs = [f.name for f in thieves_pb2.ThievesObservation.DESCRIPTOR.fields]
    assert [f.name for f in fields(ThievesObservation)] == proto_obs
    assert [f.name for f in fields(ThievesAction)] == [
        f.name for f in thieves_pb2.ThievesAction.DESCRIPTOR.fields
    ]
    proto = {
        v.name.removeprefix("THIEVES_ACTION_KIND_"): v.number
        for v in thieves_pb2.ThievesActionKind.DESCRIPTOR.values
        if v.number
    }
    assert {k.name: k.value for k in ThievesActionKind} == proto


# --------------------------------------------------------------------------- the deal


def test_seven_columns_of_five_face_up_then_the_stack_then_the_stock() -> None:
    state = game(stack="10h", stock="Jh Qh")
    view = obs(state)
    assert [faces(c.cards) for c in view.columns] == [
        "2♣ 3♣ 4♣ 5♣ 6♣",
        "7♣ 8♣ 9♣ 10♣ J♣",
        "Q♣ K♣ A♣ 2♦ 3♦",
        "4♦ 5♦ 6♦ 7♦ 8♦",
        "9♦ 10♦ J♦ Q♦ K♦",
        "A♦ 2♥ 3♥ 4♥ 5♥",
        "6♥ 7♥ 8♥ 9♥ Jo",
    ]
    assert available(state) == "6♣ J♣ 3♦ 8♦ K♦ 5♥ Jo"
    assert view.stack_card == card("10h")
    assert (view.level, view.level_cap, view.score) == (1, 50, 0)
    # 55 cards: 35 in the tableau, 1 on the stack, 19 in the stock with the two other jokers.
    assert view.stock_size == 19
    assert [c.id for c in view.stock_cards] == sorted(c.id for c in state.stock)
    assert sum(c.is_joker for c in view.stock_cards) == 2
    assert state.stock[-1] == card("Jh") and state.stock[-2] == card("Qh")
    assert sorted(c.id for c in state.all_cards()) == list(range(55))
    opening = state.opening_events()
    assert texts(opening)[0] == (
        "level 1: 7 columns of 5 are dealt face up; the stack starts with 10♥; "
        "the stock holds 19 cards, 2 of them jokers"
    )
    assert texts(opening)[1] == "column 0: 2♣ 3♣ 4♣ 5♣ 6♣ (6♣ available)"
    (stock_order,) = [e for e in opening if e.kind == "stock_order"]
    assert stock_order.audience == frozenset() and faces(stock_order.cards).startswith("J♥ Q♥")


def test_jokers_one_in_the_tableau_two_in_the_stock_never_the_first_stack_card() -> None:
    seen_positions = set()
    for seed in range(60):
        state = cast(ThievesState, parse_ruleset("thieves").new_state(1, seed=seed))
        tableau = [c for col in state.columns for c in col]
        assert sum(c.is_joker for c in tableau) == 1
        assert not state.stack[0].is_joker and len(state.stack) == 1
        assert sum(c.is_joker for c in state.stock) == 2 and len(state.stock) == 19
        seen_positions.add(next(i for i, c in enumerate(tableau) if c.is_joker))
    assert len(seen_positions) > 20  # "at a random place in the tableau"


def test_a_shuffle_with_jokers_out_of_place_is_shuffled_again() -> None:
    # Two jokers in the tableau: the engine reshuffles (the seeded RNG takes over).
    bad = level_order([*COLUMNS[:6], "6h 7h 8h Jo Jo"], "10h")
    state = cast(ThievesState, parse_ruleset("thieves").new_state(1, seed=0, orders=[bad]))
    assert sum(c.is_joker for col in state.columns for c in col) == 1


# --------------------------------------------------------------------------- takes


def test_take_one_rank_above_or_below_the_stack_card() -> None:
    state = game(stack="7s")
    assert labels(state) == [
        "take 6♣ from column 0",
        "take 8♦ from column 3",
        "take Jo from column 6",
        "draw",
    ]
    events = play(state, "take 8♦ from column 3")
    assert texts(events) == ["seat 0 takes 8♦ from column 3: +2, score 2"]
    view = obs(state)
    assert view.stack_card == card("8d")
    assert available(state) == "6♣ J♣ 3♦ 7♦ K♦ 5♥ Jo"
    # The uncovered 7♦ is one below the new stack card.
    assert "take 7♦ from column 3" in labels(state)


def test_ace_is_low_and_king_and_ace_are_not_adjacent() -> None:
    assert can_take(card("Ac"), card("2d")) and can_take(card("2d"), card("Ac"))
    assert can_take(card("Qc"), card("Kd")) and can_take(card("Kd"), card("Qc"))
    assert not can_take(card("Kc"), card("Ad")) and not can_take(card("Ad"), card("Kc"))
    assert not can_take(card("7c"), card("7d"))
    assert not can_take(card("7c"), card("9d"))
    state = game(stack="Kh")  # no queen available, K♦ is the same rank: only the joker
    assert labels(state) == ["take Jo from column 6", "draw"]


def test_a_joker_takes_anything_and_is_taken_by_anything() -> None:
    state = game(stack="Ah")
    assert labels(state) == ["take Jo from column 6", "draw"]
    play(state, "take Jo from column 6")
    assert obs(state).score == 0  # a joker scores nothing
    assert labels(state) == [
        f"take {f} from column {i}"
        for i, f in enumerate(["6♣", "J♣", "3♦", "8♦", "K♦", "5♥", "9♥"])
    ] + ["draw"]


def test_points_of_every_rank() -> None:
    expected = {"A": 8, "2": 6, "3": 6, "4": 4, "5": 4, "6": 2, "7": 2, "8": 2, "9": 4, "10": 4}
    expected |= {"J": 6, "Q": 6, "K": 8}
    assert {r.symbol: p for r, p in POINTS.items() if r is not Rank.JOKER} == expected
    assert POINTS[Rank.JOKER] == 0 and card_points(card("Jo")) == 0
    # A run of takes scores each card: K♦ 8, then Q♦ 6, then J♦ 6.
    state = game(
        [
            "2c 3c 4c 5c 6c",
            "7c 8c 9c 10c Jc",
            "Qc Kc Ac 2d 3d",
            "4d 5d 6d 7d 8d",
            "9d 10d Jd Qd Kd",
            "Ad 2h 3h 4h 5h",
            "6h 7h 8h 9h Jo",
        ],
        stack="Ks",
    )
    play(state, "take Jo from column 6")
    play(state, "take K♦ from column 4")
    play(state, "take Q♦ from column 4")
    events = play(state, "take J♦ from column 4")
    assert texts(events) == ["seat 0 takes J♦ from column 4: +6, score 20"]


# --------------------------------------------------------------------------- draws


def test_draw_is_legal_at_any_time_and_turns_the_next_stock_card() -> None:
    state = game(stack="7s", stock="Qh 2s")
    assert "draw" in labels(state)  # even with three takes open
    events = play(state, "draw")
    assert texts(events) == ["seat 0 draws Q♥ from the stock (18 left)"]
    assert obs(state).stack_card == card("Qh")
    assert labels(state) == [
        "take J♣ from column 1",
        "take K♦ from column 4",
        "take Jo from column 6",
        "draw",
    ]


def test_no_draw_from_an_empty_stock() -> None:
    state = position(["5c", "9d"], stack="6h", stock="")
    assert labels(state) == ["take 5♣ from column 0"]


# --------------------------------------------------------------------------- the end


def test_the_game_ends_when_the_stock_is_empty_and_no_take_is_open() -> None:
    state = position(["5c", "9d"], stack="6h", stock="2s")
    assert labels(state) == ["take 5♣ from column 0", "draw"]
    play(state, "take 5♣ from column 0")  # the 5♣ cannot take the 9♦; the stock holds 2♠
    assert not state.is_over and labels(state) == ["draw"]
    events = play(state, "draw")
    assert state.is_over and state.deciders() == () and state.in_turn() is None
    assert texts(events)[-1] == (
        "the stock is empty and no take is open: game over at level 1 with 4 points"
    )
    assert state.result().scores == (4.0,) and state.result().places == (1,)


def test_an_empty_stock_with_a_take_open_plays_on() -> None:
    state = position(["5c 9d", "Kd"], stack="8h", stock="")
    assert not state.is_over
    assert labels(state) == ["take 9♦ from column 0"]
    play(state, "take 9♦ from column 0")
    assert state.is_over  # 9♦ takes neither 5♣ nor K♦


# --------------------------------------------------------------------------- levels


def test_clearing_the_tableau_scores_15_and_deals_level_two() -> None:
    level2 = level_order(COLUMNS, "10h", "Jh", level=2)
    state = position(["5c", "", "", "6d"], stack="4h", stock="Ks", later=[level2])
    play(state, "take 5♣ from column 0")
    events = play(state, "take 6♦ from column 3")
    assert texts(events)[:3] == [
        "seat 0 takes 6♦ from column 3: +2, score 6",
        "the tableau is clear: +15, score 21",
        "level 2: 7 columns of 5 are dealt face up; the stack starts with 10♥; "
        "the stock holds 18 cards, 1 of them a joker",
    ]
    view = obs(state)
    assert (view.level, view.score, view.stock_size) == (2, 21, 18)
    assert available(state) == "6♣ J♣ 3♦ 8♦ K♦ 5♥ Jo"
    assert state.stock[-1] == card("Jh")
    assert [c.id for c in state.aside] == [JOKERS[2].id]
    assert sum(c.is_joker for c in state.stock) == 1
    assert sorted(c.id for c in state.all_cards()) == list(range(55))


@pytest.mark.parametrize(("level", "in_stock", "aside"), [(2, 1, 1), (3, 0, 2), (7, 0, 2)])
def test_later_levels_have_fewer_jokers(level: int, in_stock: int, aside: int) -> None:
    for seed in range(10):
        state = cast(ThievesState, parse_ruleset("thieves").new_state(1, seed=seed))
        state.level = level - 1
        state._deal([])
        assert state.level == level
        assert sum(c.is_joker for col in state.columns for c in col) == 1
        assert sum(c.is_joker for c in state.stock) == in_stock
        assert len(state.aside) == aside and all(c.is_joker for c in state.aside)
        assert len(state.stock) == 17 + in_stock
        assert sorted(c.id for c in state.all_cards()) == list(range(55))


def test_clearing_the_last_level_ends_the_game() -> None:
    state = position(["5c"], stack="4h", stock="Ks", options="level_cap=3", level=3)
    events = play(state, "take 5♣ from column 0")
    assert state.is_over
    assert texts(events)[1:] == [
        "the tableau is clear: +15, score 19",
        "level 3 is the last (level_cap): game over with 19 points",
    ]
    assert state.result().scores == (19.0,)


def test_the_default_level_cap_is_50() -> None:
    state = position(["5c"], stack="4h", stock="Ks", level=49)
    play(state, "take 5♣ from column 0")
    assert not state.is_over and obs(state).level == 50
    state = position(["5c"], stack="4h", stock="Ks", level=50)
    play(state, "take 5♣ from column 0")
    assert state.is_over


# --------------------------------------------------------------------------- undo


def test_no_undo_without_the_option() -> None:
    state = game(stack="7s")
    play(state, "take 8♦ from column 3")
    assert not any(label.startswith("undo") for label in labels(state))
    assert obs(state).undo_enabled is False and obs(state).undoable == 0


def test_undo_takes_back_the_takes_since_the_last_draw_in_reverse() -> None:
    state = game(stack="7s", stock="Kh 2s", options="undo")
    play(state, "take 8♦ from column 3")
    play(state, "take 7♦ from column 3")
    assert obs(state).undoable == 2 and obs(state).score == 4
    assert labels(state)[-1] == "undo taking 7♦"
    events = play(state, "undo taking 7♦")
    assert texts(events) == ["seat 0 undoes taking 7♦: back to column 3, score 2"]
    assert obs(state).stack_card == card("8d")
    assert available(state) == "6♣ J♣ 3♦ 7♦ K♦ 5♥ Jo"
    play(state, "undo taking 8♦")
    assert obs(state).stack_card == card("7s") and obs(state).score == 0
    assert obs(state).undoable == 0
    assert not any(label.startswith("undo") for label in labels(state))


def test_a_draw_cannot_be_undone_nor_the_takes_before_it() -> None:
    state = game(stack="7s", stock="Qh 2s", options="undo")
    play(state, "take 8♦ from column 3")
    play(state, "draw")
    assert obs(state).undoable == 0
    assert not any(label.startswith("undo") for label in labels(state))
    play(state, "take K♦ from column 4")
    assert labels(state)[-1] == "undo taking K♦"


def test_undo_is_illegal_when_not_offered() -> None:
    state = game(stack="7s")
    with pytest.raises(IllegalAction):
        state.apply({0: ThievesAction(ThievesActionKind.UNDO, 3, card("8d"))})


# --------------------------------------------------------------------------- hidden information


def test_the_stock_order_is_hidden_and_resampled() -> None:
    state = game(stack="7s", stock="Kh 2s")
    moved = 0
    for seed in range(20):
        other = state.resample_hidden(0, random.Random(seed))
        assert other.observe(0) == state.observe(0)
        assert other.legal_actions(0) == state.legal_actions(0)
        moved += other.stock != state.stock
    assert moved == 20
    # Public events never name a stock card before it is drawn.
    public_cards = {c.id for e in state.opening_events() if e.is_public for c in e.cards}
    assert not public_cards & {c.id for c in state.stock}
