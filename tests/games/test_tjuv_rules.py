"""Rule tests for Tjuv: exact deals with explicit deck orders, exact outcomes.

Deals are written per seat; `deal()` turns them into the deck order the engine
consumes: the first three cards of every seat (dealt one at a time from seat 0,
the dealer being the last seat), the dealer's turned-up card with two players,
every seat's fourth card, then the talon from its top. Cards not named follow in
id order (6♣ 7♣ ... A♣ 6♦ ...), so a test names every talon card it draws.

Mid-game tests start from `arrange()`, which lays out hands, table, piles and the
talon directly on a dealt game (every card not named goes under the talon).
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
from referee.games.tjuv import (
    DECK,
    Tjuv,
    TjuvAction,
    TjuvActionKind,
    TjuvObservation,
    TjuvPhase,
    TjuvState,
)
from referee.v1 import tjuv_pb2

# --------------------------------------------------------------------------- helpers


def cards(text: str) -> list[Card]:
    return parse_cards(text, DECK)


def faces(items: Sequence[Card]) -> str:
    return " ".join(c.face for c in items)


def deal_order(hands: Sequence[str], fourth: str, talon: str = "", turn_up: str = "") -> list[Card]:
    split = [h.split() for h in hands]
    n = len(hands)
    names = [split[s][r] for r in range(3) for s in range(n)]
    return stack_deck(DECK, " ".join([*names, turn_up, fourth, talon]))


def deal(
    hands: Sequence[str],
    fourth: str,
    talon: str = "",
    turn_up: str = "",
    rules: str = "1922",
    later: Sequence[list[Card]] = (),
    seed: int = 0,
    put_out: bool = True,
) -> TjuvState:
    """The dealt game; with `put_out`, and no seat holding tied lowest cards, also
    the put-out (every seat's only choice), whose events `dealt_events` returns."""
    ruleset = parse_ruleset("tjuv" if rules == "1922" else f"tjuv?rules={rules}")
    order = deal_order(hands, fourth, talon, turn_up)
    state = cast(TjuvState, ruleset.new_state(len(hands), seed=seed, orders=[order, *later]))
    events = state.opening_events()
    only = {s: state.legal_actions(s) for s in state.deciders()}
    if put_out and all(len(a) == 1 for a in only.values()):
        events += state.apply({s: a[0] for s, a in only.items()})
    DEALT[id(state)] = (state, events)
    return state


DEALT: dict[int, tuple[TjuvState, list[Event]]] = {}


def dealt_events(state: TjuvState) -> list[Event]:
    """The opening events and, if `deal` made it, the put-out's."""
    return DEALT[id(state)][1]


def arrange(
    hands: Sequence[str],
    table: str = "",
    piles: Sequence[Sequence[str]] = (),
    talon: str = "",
    rules: str = "1922",
    turn: int = 0,
) -> TjuvState:
    """A position laid out by hand; every card not named lies under the talon."""
    n = len(hands)
    state = deal(
        ["6c 7c 8c", "6d 7d 8d", "6h 7h 8h", "6s 7s 8s", "9c 9d 9h", "9s 10c 10d"][:n],
        " ".join(["10h", "10s", "Jc", "Jd", "Jh", "Js"][:n]),
        rules=rules,
    )
    named: list[Card] = []
    state.hands = [sorted(cards(h), key=lambda c: c.id) for h in hands]
    named += [c for h in state.hands for c in h]
    state.table = cards(table)
    named += state.table
    state.piles = [[cards(p) for p in seat_piles] for seat_piles in piles] + [
        [] for _ in range(n - len(piles))
    ]
    named += [c for seat_piles in state.piles for p in seat_piles for c in p]
    top = cards(talon)
    named_ids = {c.id for c in named} | {c.id for c in top}
    assert len(named_ids) == len(named) + len(top), "a card is named twice"
    rest = [c for c in DECK if c.id not in named_ids]
    state.talon = (top + rest)[::-1]
    state.talon_bottom = ()
    state.phase = TjuvPhase.PLAY
    state.turn = turn
    state.last_player = None
    return state


def short_talon(state: TjuvState, keep: int) -> None:
    """Keep only the top `keep` talon cards; the rest leave the game (these tests
    do not check that the pack stays whole), so a test reaches the end quickly."""
    del state.talon[: len(state.talon) - keep]


def obs(state: GameState, seat: int = 0) -> TjuvObservation:
    return cast(TjuvObservation, state.observe(seat))


def decider(state: GameState) -> int:
    (seat,) = state.deciders()
    return seat


def labels(state: GameState, seat: int | None = None) -> list[str]:
    seat = decider(state) if seat is None else seat
    return [a.label for a in state.legal_actions(seat)]


def play(state: GameState, label: str) -> list[Event]:
    seat = decider(state)
    for action in state.legal_actions(seat):
        if action.label == label:
            return state.apply({seat: action})
    raise AssertionError(f"{label!r} is not legal for seat {seat}: {labels(state)}")


def action(state: GameState, seat: int, label: str) -> TjuvAction:
    for a in state.legal_actions(seat):
        if a.label == label:
            return cast(TjuvAction, a)
    raise AssertionError(f"{label!r} is not legal for seat {seat}")


def hand(state: GameState, seat: int) -> str:
    return faces(obs(state, seat).hand)


def table(state: GameState) -> str:
    return faces(obs(state).table)


def piles(state: GameState, seat: int) -> list[str]:
    return [faces(p.cards) for p in obs(state).stores[seat].piles]


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.is_public]


# --------------------------------------------------------------------------- the game


def test_registered_game_options_and_rulings() -> None:
    ruleset = parse_ruleset("tjuv")
    assert isinstance(ruleset.game, Tjuv)
    assert (Tjuv.min_seats, Tjuv.max_seats, Tjuv.wire_name) == (2, 6, "tjuv")
    (option,) = Tjuv.options
    assert (option.name, option.default, option.choices) == ("rules", "1922", ("1922", "1988"))
    assert parse_ruleset("tjuv?rules=1988").id == "tjuv?rules=1988"
    assert parse_ruleset("tjuv?rules=1922").id == "tjuv"
    rulings = Tjuv.rulings()
    assert rulings.startswith("From the rulings file")
    for phrase in ("last seat deals", "concerns the card", "talon_bottom", "pile's top"):
        assert phrase in rulings
    assert 8 <= len(Tjuv.summary.splitlines()) <= 16


def test_wire_types_mirror_the_proto() -> None:
    proto_obs = [f.name for f in tjuv_pb2.TjuvObservation.DESCRIPTOR.fields]
    assert [f.name for f in fields(TjuvObservation)] == proto_obs
    assert [f.name for f in fields(TjuvAction)] == [
        f.name for f in tjuv_pb2.TjuvAction.DESCRIPTOR.fields
    ]
    for ours, theirs, prefix in (
        (TjuvActionKind, tjuv_pb2.TjuvActionKind, "TJUV_ACTION_KIND_"),
        (TjuvPhase, tjuv_pb2.TjuvPhase, "TJUV_PHASE_"),
    ):
        proto = {
            v.name.removeprefix(prefix): v.number for v in theirs.DESCRIPTOR.values if v.number
        }
        assert {k.name: k.value for k in ours} == proto


def test_the_pack_has_36_cards_six_to_ace() -> None:
    assert len(DECK) == 36
    assert sorted({c.rank for c in DECK}) == [Rank(r) for r in range(6, 15)]
    state = parse_ruleset("tjuv").new_state(4, seed=3)
    assert sorted(c.id for c in state.all_cards()) == list(range(36))


def test_seat_counts() -> None:
    with pytest.raises(Exception, match="2-6"):
        parse_ruleset("tjuv").new_state(1, seed=0)
    with pytest.raises(Exception, match="2-6"):
        parse_ruleset("tjuv").new_state(7, seed=0)


# --------------------------------------------------------------------------- the deal


def test_deal_three_each_put_out_lowest_then_one_more_each() -> None:
    state = deal(["6c Kd As", "7d 9h Qs", "8h Jc 10d"], "9c 9d 10h", talon="Ah 6s")
    opening = dealt_events(state)
    dealt = [(e.audience, faces(e.cards)) for e in opening if e.kind == "deal"]
    assert dealt == [
        (frozenset({0}), "6♣ K♦ A♠"),
        (frozenset({1}), "7♦ 9♥ Q♠"),
        (frozenset({2}), "J♣ 10♦ 8♥"),
    ]
    assert "seat 2 deals 3 cards each" in texts(opening)
    assert [t for t in texts(opening) if "puts out" in t] == [
        "seat 0 puts out 6♣",
        "seat 1 puts out 7♦",
        "seat 2 puts out 8♥",
    ]
    assert table(state) == "6♣ 7♦ 8♥"
    assert [hand(state, s) for s in range(3)] == ["9♣ K♦ A♠", "9♦ 9♥ Q♠", "J♣ 10♦ 10♥"]
    view = obs(state)
    assert (view.dealer, view.turn, view.phase) == (2, 0, TjuvPhase.PLAY)
    assert view.talon_size == 36 - 12
    assert view.talon_bottom == ()
    assert view.hand_sizes == (3, 3, 3)
    assert decider(state) == 0 and state.in_turn() == 0
    # The fourth card is private too; the others see a count.
    more = [e for e in opening if e.kind == "deal_more"]
    assert [(e.audience, faces(e.cards)) for e in more] == [
        (frozenset({0}), "9♣"),
        (frozenset({1}), "9♦"),
        (frozenset({2}), "10♥"),
    ]
    assert all(not e.cards for e in opening if e.is_public and e.kind == "deal_more_count")


def test_the_put_out_is_a_simultaneous_choice_of_every_seat() -> None:
    state = deal(["7c 7d As", "6h 6s 9h", "8h Jc 10d"], "9c 9d 10h")
    assert state.deciders() == (0, 1, 2)
    assert state.in_turn() is None
    assert obs(state).phase is TjuvPhase.PUT_OUT and obs(state).turn is None
    assert labels(state, 0) == ["put out 7♣", "put out 7♦"]
    assert labels(state, 1) == ["put out 6♥", "put out 6♠"]
    assert labels(state, 2) == ["put out 8♥"]  # no tie: its only choice
    # Nothing is on the table before everyone has chosen, not even seat 2's 8♥.
    assert all(obs(state, s).table == () for s in range(3))
    assert hand(state, 2) == "J♣ 10♦ 8♥"
    with pytest.raises(IllegalAction):
        state.apply({0: action(state, 0, "put out 7♦"), 1: action(state, 1, "put out 6♥")})
    events = state.apply(
        {
            0: action(state, 0, "put out 7♦"),
            1: action(state, 1, "put out 6♥"),
            2: action(state, 2, "put out 8♥"),
        }
    )
    assert texts(events)[:3] == ["seat 0 puts out 7♦", "seat 1 puts out 6♥", "seat 2 puts out 8♥"]
    assert table(state) == "7♦ 6♥ 8♥"
    assert hand(state, 0) == "7♣ 9♣ A♠" and hand(state, 1) == "9♦ 9♥ 6♠"
    assert decider(state) == 0 and obs(state).phase is TjuvPhase.PLAY


def test_no_tie_is_asked_all_the_same_and_nothing_public_tells_a_tie() -> None:
    # Seat 1 holds 7♦ 7♠ (a tie) or 7♦ 9♥ (none): the public record up to the
    # put-out and who is asked are the same; so is the put-out's if it puts out 7♦.
    tie = deal(["6c Kd As", "7d 7s Qs"], "9c 9d", turn_up="Ah", put_out=False)
    none = deal(["6c Kd As", "7d 9h Qs"], "9c 9d", turn_up="Ah", put_out=False)
    assert texts(tie.opening_events()) == texts(none.opening_events())
    assert tie.deciders() == none.deciders() == (0, 1)
    assert labels(none, 1) == ["put out 7♦"]
    assert labels(tie, 1) == ["put out 7♦", "put out 7♠"]
    put_out = [
        texts(s.apply({0: action(s, 0, "put out 6♣"), 1: action(s, 1, "put out 7♦")}))
        for s in (tie, none)
    ]
    assert put_out[0] == put_out[1]
    assert obs(none).phase is TjuvPhase.PLAY and decider(none) == 0


def test_two_players_the_dealer_turns_up_the_top_card() -> None:
    state = deal(["6c Kd As", "7d 9h Qs"], "9c 9d", turn_up="Ah", talon="8s")
    assert "seat 1 (the dealer) turns up A♥ from the deck" in texts(dealt_events(state))
    assert table(state) == "6♣ 7♦ A♥"
    assert [hand(state, s) for s in range(2)] == ["9♣ K♦ A♠", "9♦ 9♥ Q♠"]
    assert obs(state).talon_size == 36 - 9
    assert state.talon[-1] == cards("8s")[0]


def test_more_than_three_players_keep_three_and_put_the_highest_under_the_deck() -> None:
    hands = ["6c Kd As", "Kh Ah Ad", "8h Jc 10d", "Qc Qd Qs", "9s Js 10s"]
    packet = cards("Kh Qc")  # the order the removed cards are shuffled into
    state = deal(hands, "7c 7d 7h 7s 8c", talon="6d", later=[packet])
    # Seat 3 holds three queens: it chooses; the others put out 6♣, K♥, 8♥, 9♠.
    assert state.deciders() == (0, 1, 2, 3, 4)
    choices = {s: state.legal_actions(s)[0] for s in (0, 1, 2, 4)}
    events = state.apply({**choices, 3: action(state, 3, "put out Q♣")})
    assert texts(events)[:6] == [
        "seat 0 puts out 6♣",
        "seat 1 puts out K♥",
        "seat 2 puts out 8♥",
        "seat 3 puts out Q♣",
        "seat 4 puts out 9♠",
        "seat 4 (the dealer) removes Q♣ K♥ from the table and puts them, shuffled, under the deck",
    ]
    assert table(state) == "6♣ 8♥ 9♠"
    assert faces(obs(state).talon_bottom) == "Q♣ K♥"
    assert hand(state, 3) == "Q♦ 7♠ Q♠"


def test_removed_cards_lie_under_the_talon_in_the_shuffled_order() -> None:
    hands = ["6c Kd As", "Kh Ah Ad", "8h Jc 10d", "Qd Kc Ks", "9s Js 10s"]
    packet = cards("Kh Qd")
    state = deal(hands, "7c 7d 7h 7s 8c", talon="6d", later=[packet])
    opening = texts(dealt_events(state))
    assert (
        "seat 4 (the dealer) removes Q♦ K♥ from the table and puts them, shuffled, under the deck"
        in opening
    )
    assert table(state) == "6♣ 8♥ 9♠"
    # The packet's first card lies just under the old bottom: K♥ above Q♦, the very bottom.
    assert faces(state.talon[:2]) == "Q♦ K♥"
    view = obs(state, 2)
    assert faces(view.talon_bottom) == "Q♦ K♥"
    assert view.talon_size == 36 - 15 - 5 + 2
    assert [len(h) for h in state.hands] == [3] * 5
    assert state.talon[-1] == cards("6d")[0]


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_every_seat_count_starts_with_three_table_cards_and_three_in_hand(seats: int) -> None:
    for seed in range(20):
        state = cast(TjuvState, parse_ruleset("tjuv").new_state(seats, seed=seed))
        if state.phase is TjuvPhase.PUT_OUT:
            state.apply({s: state.legal_actions(s)[0] for s in state.deciders()})
        assert len(state.table) == 3
        assert [len(h) for h in state.hands] == [3] * seats
        assert len(state.talon) == 36 - 3 - 3 * seats
        assert len(state.talon_bottom) == seats - 3
        # The removed cards were the highest-ranked ones put out.
        assert min(c.rank for c in state.talon_bottom) >= max(c.rank for c in state.table)


def test_ties_at_the_cut_are_broken_by_the_rng() -> None:
    # Four players put out 6♣, 9♦, 9♥ and 7♠: one of the two nines must go.
    hands = ["6c Kd As", "9d Ah Ad", "9h Jc Kh", "7s Qs Ks"]
    removed = set()
    for seed in range(30):
        state = deal(hands, "7c 7d 7h 8c", seed=seed)
        assert len(state.talon_bottom) == 1
        (card,) = state.talon_bottom
        removed.add(card.face)
        assert table(state).split()[0] == "6♣"
    assert removed == {"9♦", "9♥"}


# --------------------------------------------------------------------------- step 1: play


def test_a_card_captures_every_lower_table_card_of_its_suit_into_one_pile() -> None:
    state = arrange(["Jh 6c As", "7c 7d 7s", "8c 8d 8s"], table="6h 9h Qh 10h 9c", talon="Kc")
    events = play(state, "play J♥")
    assert piles(state, 0) == ["6♥ 9♥ 10♥ J♥"]
    assert table(state) == "Q♥ 9♣"
    assert "seat 0 plays J♥ and captures 6♥ 9♥ 10♥ from the table: a new pile of 4" in texts(events)
    assert obs(state).captured == (4, 0, 0)


def test_any_card_may_be_played_and_a_card_that_can_capture_must() -> None:
    state = arrange(["Jh 6c As", "7c 7d 7s", "8c 8d 8s"], table="6h 9c 10d", talon="Kc Kd")
    # J♥ can capture; the player may still play a card that captures nothing.
    assert labels(state) == ["play 6♣", "play J♥", "play A♠"]
    assert all(a.kind is TjuvActionKind.PLAY for a in state.legal_actions(0))
    events = play(state, "play A♠")
    assert "seat 0 plays A♠, which captures nothing and stays on the table" in texts(events)
    assert table(state) == "6♥ 9♣ 10♦ A♠"
    assert piles(state, 0) == []


def test_a_card_with_no_lower_card_of_its_suit_stays_on_the_table() -> None:
    state = arrange(["6h 6c As", "7c 7d 7s", "8c 8d 8s"], table="9h 10d Ks", talon="Kc")
    play(state, "play 6♥")
    assert table(state) == "9♥ 10♦ K♠ 6♥"
    assert piles(state, 0) == []


def test_a_capture_steals_every_opponent_pile_topped_by_a_lower_card_of_the_suit() -> None:
    state = arrange(
        ["Kh 6c As", "7c 7d 7s", "8c 8d 8s"],
        table="6h 9c",
        piles=[
            ["10d 10h"],  # seat 0's own pile of hearts: never stolen
            ["6d Jh", "Jd 9d", "7h Ah"],  # J♥ top goes; 9♦ and A♥ tops stay
            ["6s Qh"],  # Q♥ top goes
        ],
        talon="Kc",
    )
    events = play(state, "play K♥")
    assert piles(state, 0) == ["10♦ 10♥", "6♥ 6♦ J♥ 6♠ Q♥ K♥"]
    assert piles(state, 1) == ["J♦ 9♦", "7♥ A♥"]
    assert piles(state, 2) == []
    assert (
        "seat 0 plays K♥ and captures 6♥ from the table and steals seat 1's pile of 2 (top J♥), "
        "seat 2's pile of 2 (top Q♥): a new pile of 6" in texts(events)
    )
    assert obs(state).captured == (8, 4, 0)


def test_piles_are_stolen_only_together_with_a_table_capture() -> None:
    state = arrange(
        ["Kh 6c As", "7c 7d 7s", "8c 8d 8s"],
        table="Ah 9c 10d",
        piles=[[], ["6d Jh"]],
        talon="Kc",
    )
    play(state, "play K♥")
    assert piles(state, 1) == ["6♦ J♥"]
    assert piles(state, 0) == []
    assert table(state) == "A♥ 9♣ 10♦ K♥"


def test_a_new_capture_is_a_separate_pile_even_of_the_same_suit() -> None:
    state = arrange(["Kh 6c As", "7c 7d 7s", "8c 8d 8s"], table="9h 9c 10d", piles=[["6h 7h"]])
    play(state, "play K♥")
    assert piles(state, 0) == ["6♥ 7♥", "9♥ K♥"]


def test_an_empty_table_leaves_nothing_to_capture() -> None:
    state = arrange(["Kh", "7c", "8c"], table="")
    assert obs(state).talon_size > 0
    short_talon(state, 0)
    play(state, "play K♥")
    assert table(state) == "K♥"
    assert decider(state) == 1


# --------------------------------------------------------------------------- steps 2 and 3


def test_step_two_draws_one_card_privately() -> None:
    state = arrange(["Jh 6c As", "7c 7d 7s", "8c 8d 8s"], table="9c 10d Kh", talon="Qd Qs")
    events = play(state, "play 6♣")
    draw = [e for e in events if e.kind == "draw"]
    assert [(e.audience, faces(e.cards)) for e in draw] == [(frozenset({0}), "Q♦")]
    assert "seat 0 draws a card (23 cards left)" in texts(events)
    public_draw = [e for e in events if e.kind == "draw_count"]
    assert len(public_draw) == 1 and public_draw[0].cards == () and public_draw[0].is_public
    assert hand(state, 0) == "Q♦ J♥ A♠"
    # The table still holds 4 cards: no step 3; the turn passes.
    assert decider(state) == 1


def test_step_three_1922_lays_hand_cards_without_capture_and_draws() -> None:
    state = arrange(["Jh 6c As", "7c 7d 7s", "8c 8d 8s"], table="9h 10h 10d", talon="Qd Qs Ks")
    play(state, "play J♥")  # captures 9♥ 10♥; draws Q♦; the table holds 1 card
    assert obs(state).phase is TjuvPhase.REPLENISH
    assert decider(state) == 0 and state.in_turn() == 0
    assert labels(state) == ["lay 6♣", "lay Q♦", "lay A♠"]
    events = play(state, "lay Q♦")  # a higher diamond: still nothing is captured
    assert "seat 0 lays Q♦ on the table (step 3: no capture)" in texts(events)
    assert table(state) == "10♦ Q♦"
    assert hand(state, 0) == "6♣ Q♠ A♠"
    assert labels(state) == ["lay 6♣", "lay Q♠", "lay A♠"]
    play(state, "lay 6♣")  # draws K♠; three on the table: the turn passes
    assert table(state) == "10♦ Q♦ 6♣"
    assert hand(state, 0) == "Q♠ K♠ A♠"
    assert decider(state) == 1 and obs(state).phase is TjuvPhase.PLAY


def test_step_three_1988_turns_talon_cards_onto_the_table() -> None:
    state = arrange(
        ["Jh 6c As", "7c 7d 7s", "8c 8d 8s"],
        table="9h 10h 10d",
        talon="Qd Qs Ks",
        rules="1988",
    )
    events = play(state, "play J♥")  # draws Q♦, then turns Q♠ and K♠ onto the table
    assert texts(events)[-2:] == [
        "seat 0 turns Q♠ from the talon onto the table",
        "seat 0 turns K♠ from the talon onto the table",
    ]
    assert table(state) == "10♦ Q♠ K♠"
    assert hand(state, 0) == "6♣ Q♦ A♠"
    assert decider(state) == 1


def test_step_three_stops_when_the_talon_runs_out() -> None:
    state = arrange(["Jh 6c As", "7c 7d 7s", "8c 8d 8s"], table="9h 10h 10d", talon="Qd Qs")
    short_talon(state, 2)
    play(state, "play J♥")  # draws Q♦
    play(state, "lay 6♣")  # draws Q♠: the talon is empty, the table holds only 2
    assert obs(state).talon_size == 0
    assert table(state) == "10♦ 6♣"
    assert decider(state) == 1


def test_no_draw_and_no_step_three_once_the_talon_is_empty() -> None:
    state = arrange(["Jh 6c As", "7c 7d 7s", "8c 8d 8s"], table="9h 10h")
    short_talon(state, 0)
    events = play(state, "play J♥")
    assert not [e for e in events if e.kind.startswith("draw")]
    assert hand(state, 0) == "6♣ A♠"
    assert table(state) == ""
    assert decider(state) == 1


# --------------------------------------------------------------------------- the end


def test_the_last_player_takes_the_table_and_most_cards_wins() -> None:
    state = arrange(["Jh", "7c", "9c"], table="6h 10d", piles=[[], ["6s 7s"]])
    short_talon(state, 0)
    play(state, "play J♥")  # captures 6♥
    play(state, "play 7♣")  # stays
    assert not state.is_over
    events = play(state, "play 9♣")  # captures 7♣; 10♦ is left: seat 2 played last
    assert state.is_over and state.deciders() == () and state.in_turn() is None
    assert "seat 2 played the last card and takes the 1 card left on the table: 10♦" in texts(
        events
    )
    assert piles(state, 2) == ["7♣ 9♣", "10♦"]
    assert table(state) == ""
    result = state.result()
    assert result.scores == (2.0, 2.0, 3.0)
    assert result.places == (2, 2, 1)
    assert (
        "game over: seat 0 2 cards (place 2), seat 1 2 cards (place 2), seat 2 3 cards (place 1)"
        in texts(events)
    )


def test_equal_counts_share_a_place() -> None:
    state = arrange(["Jh", "Qc"], table="6h 6c")
    short_talon(state, 0)
    play(state, "play J♥")
    play(state, "play Q♣")
    assert state.is_over
    assert state.result().scores == (2.0, 2.0)
    assert state.result().places == (1, 1)


def test_a_whole_game_conserves_the_pack_and_ends_with_empty_hands() -> None:
    for rules in ("1922", "1988"):
        for seats in range(2, 7):
            state = parse_ruleset(f"tjuv?rules={rules}").new_state(seats, seed=seats)
            rng = random.Random(seats)
            while not state.is_over:
                state.apply({s: rng.choice(state.legal_actions(s)) for s in state.deciders()})
            tjuv = cast(TjuvState, state)
            assert all(not h for h in tjuv.hands) and not tjuv.table and not tjuv.talon
            assert sum(state.result().scores) == 36


# --------------------------------------------------------------------------- hidden information


def test_observation_shows_only_the_own_hand() -> None:
    state = deal(["6c Kd As", "7d 9h Qs", "8h Jc 10d"], "9c 9d 10h")
    view = obs(state, 1)
    assert faces(view.hand) == "9♦ 9♥ Q♠"
    shown = {c.id for c in view.hand} | {c.id for c in view.table}
    assert not shown & {c.id for c in state.hands[0] + state.hands[2]}


def test_resample_at_the_deal_does_not_keep_who_holds_a_tie() -> None:
    state = deal(["7c 7d As", "6h 6s 9h", "8h Jc 10d", "Kc Qd Ah"], "9c 9d 10h Jd")
    assert state.deciders() == (0, 1, 2, 3)
    ties = set()
    for seed in range(30):
        other = state.resample_hidden(0, random.Random(seed))
        assert other.deciders() == (0, 1, 2, 3)
        assert other.observe(0) == state.observe(0)
        assert sorted(c.id for c in other.all_cards()) == list(range(36))
        ties.add(tuple(len(other.legal_actions(s)) > 1 for s in (1, 2, 3)))
    assert len(ties) > 1  # ties are private: the copies do not keep them


def test_resample_keeps_the_removed_cards_at_the_bottom_of_the_talon() -> None:
    hands = ["6c Kd As", "Kh Ah Ad", "8h Jc 10d", "Qd Kc Ks", "9s Js 10s"]
    state = deal(hands, "7c 7d 7h 7s 8c", later=[cards("Kh Qd")])
    bottom = {c.id for c in state.talon_bottom}
    moved = 0
    for seed in range(20):
        other = state.resample_hidden(2, random.Random(seed))
        assert {c.id for c in other.talon[:2]} == bottom
        assert other.observe(2) == state.observe(2)
        moved += other.talon != state.talon
    assert moved > 15
    # Once a seat has drawn from the bottom part, its hand keeps as many removed cards.
    del state.talon[2:]  # only the two removed cards are left (the rest leaves the game)
    state.hands[3].append(state.talon.pop())  # seat 3 draws one of the two removed cards
    for seed in range(20):
        other = state.resample_hidden(0, random.Random(seed))
        assert sum(c.id in bottom for c in other.hands[3]) == 1
        assert sum(c.id in bottom for c in other.talon) == 1
        assert sum(c.id in bottom for s in (1, 2, 4) for c in other.hands[s]) == 0
