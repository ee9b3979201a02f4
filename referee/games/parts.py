"""Shared card-game mechanics: small parts the engines are built from.

Each part does one thing the same way in every engine that uses it, with the
same events and texts, so an engine reads as its own rules plus these parts:

- `faces`: cards as printed, e.g. '7♠ K♥'.
- `rank_then_id`: the sort key of hands kept by rank, lowest id first.
- `by_id`: the sort key of cards kept in the deck's order (their ids).
- `draw_first_dealer`: every seat draws a card for the deal; the highest deals.
- `deal_round_robin`: deal one card at a time around the table from a shuffled order.
- `announce_deal`: sort the dealt hands and tell each seat its cards, the others a count.
- `draw_from_stock`: draw cards from a stock whose top is its last item.

`CardGameState` is the base of the engines' states: it keeps the setup's events
(`_opening`) and gives `clone` its shared first step (`_copy_shell`).

A stock or deck kept as a list has its top card LAST (so drawing is `pop()`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Self

from referee.cards import Card, Chance
from referee.games.base import Event, GameState, private, public

__all__ = [
    "CardGameState",
    "announce_deal",
    "by_id",
    "deal_round_robin",
    "draw_first_dealer",
    "draw_from_stock",
    "faces",
    "rank_then_id",
]

SortKey = Callable[[Card], Any]


class CardGameState(GameState):
    """A game state that draws from `chance` and records its setup's events in
    `_opening` (both set by the engine's constructor and `setup`)."""

    chance: Chance
    _opening: list[Event]

    def opening_events(self) -> list[Event]:
        return list(self._opening)

    def _copy_shell(self) -> Self:
        """The first step of `clone`: a shallow copy with its own chance and opening
        events. The engine's `clone` then copies its own mutable fields."""
        new = copy.copy(self)
        new.chance = copy.deepcopy(self.chance)
        new._opening = list(self._opening)
        return new


def faces(cards: Iterable[Card]) -> str:
    """Cards as printed, separated by spaces, e.g. '7♠ K♥'."""
    return " ".join(c.face for c in cards)


def rank_then_id(card: Card) -> tuple[int, int]:
    """Hands stay sorted by rank then id, so the first card of a rank is its lowest id."""
    return (card.rank, card.id)


def by_id(card: Card) -> int:
    """Cards in the deck's order: by id."""
    return card.id


def draw_first_dealer(deck: Sequence[Card], num_seats: int) -> tuple[int, list[Event]]:
    """Draw for the first dealer from the shuffled `deck` (read from its front).

    Every contender draws one card; the highest rank wins and tied seats draw
    again. If the deck runs out, the lowest tied seat deals. Returns the dealer
    and the public events of the draw.
    """
    pos = 0
    contenders = list(range(num_seats))
    events: list[Event] = []
    while len(contenders) > 1:
        if pos + len(contenders) > len(deck):
            events.append(public("dealer_tie", "the draw deck ran out; the lowest tied seat deals"))
            break
        drawn = dict(zip(contenders, deck[pos : pos + len(contenders)], strict=True))
        pos += len(contenders)
        for seat, card in drawn.items():
            text = f"seat {seat} draws {card.face} for the deal"
            events.append(public("dealer_draw", text, seat, (card,)))
        best = max(c.rank for c in drawn.values())
        contenders = [s for s in contenders if drawn[s].rank == best]
        if len(contenders) > 1:
            tied = ", ".join(f"seat {s}" for s in contenders)
            events.append(public("dealer_tie", f"{tied} tie with {best.symbol} and draw again"))
    dealer = contenders[0]
    events.append(public("first_dealer", f"seat {dealer} deals first", dealer))
    return dealer, events


def deal_round_robin(
    order: Sequence[Card], hands: list[list[Card]], seats: Sequence[int], count: int
) -> int:
    """Deal `count` cards to each of `seats`, one at a time in that order, from the
    front of `order`. Returns how many cards of `order` were dealt."""
    pos = 0
    for _ in range(count):
        for seat in seats:
            hands[seat].append(order[pos])
            pos += 1
    return pos


def announce_deal(
    hands: list[list[Card]], seats: Sequence[int], key: SortKey, events: list[Event]
) -> None:
    """Sort each of `seats`' hands by `key` and tell each seat its cards in
    private, and everyone how many cards it was dealt."""
    for seat in seats:
        dealt = hands[seat]
        dealt.sort(key=key)
        events.append(private([seat], "deal", f"you are dealt {faces(dealt)}", seat, dealt))
        events.append(public("deal_count", f"seat {seat} is dealt {len(dealt)} cards", seat))


def draw_from_stock(
    seat: int,
    hand: list[Card],
    stock: list[Card],
    wanted: int,
    key: SortKey,
    events: list[Event],
) -> None:
    """`seat` draws up to `wanted` cards while `stock` lasts (its top is its last
    item) into `hand`, kept sorted by `key`. The seat sees its cards, the others
    a count; emptying the stock is announced."""
    count = min(wanted, len(stock))
    if count <= 0:
        return
    drawn = [stock.pop() for _ in range(count)]
    hand.extend(drawn)
    hand.sort(key=key)
    events.append(private([seat], "draw", f"you draw {faces(drawn)}", seat, drawn))
    what = "a card" if count == 1 else f"{count} cards"
    events.append(public("draw_count", f"seat {seat} draws {what}", seat))
    if not stock:
        events.append(public("stock_empty", "the stock is empty: the hand ends with this turn"))
