"""Thief: pair cards into a face-up capture pile, and steal your opponents' last captures.

The rule text is the first part of thief-four-card-thief-gharat.txt; the rulings file
next to the rule texts settles its gaps and outranks it. A game is as many hands as
there are players, each dealt from a fresh shuffle of all 108 cards. A turn is a run
of captures (pairs, discard matches, steals) by the player on turn; a steal opens a
re-capture exchange in which the victim decides out of turn.

Rulings
-------
From the rulings file, common to all games:
- Every physical card has a stable id; chance comes only from the game's Chance
  (a shuffle "and cut" is one shuffle); "to the left" and "clockwise" mean seat + 1.
- Every decision is one choice from an enumerated list; where the text says "may",
  declining (DECLINE, END_TURN) is one of the choices.

From the rulings file, Thief:
- 2-6 players; two 52-card decks and 4 jokers (108 cards). Every 2 and every joker
  is wild, usable as a wild only to steal or re-capture: never as a wild in a pair
  or a discard match (a 2 still pairs with a 2 and takes a discard 2, a joker likewise).
- A pair is two cards of exactly one rank: 2+2 and Jo+Jo are pairs, 2+Jo is not.
- First dealer: every seat draws a card; the highest rank (Jo > A > K > ... > 2)
  deals; seats tied for highest draw again until one is unique. Seats are fixed by
  the tournament, so the draw only picks the first dealer.
- The deal passes to the left after each hand; a game is as many hands as players,
  so each deals once. Highest cumulative total wins; equal totals share a place.
- Deal 3 cards each, one at a time, starting left of the dealer; the next card is
  turned face up as the discard pile. The player left of the dealer starts.
- Captures open to the player on turn, in any order, each optional: a pair in hand;
  a discard match (a hand card of the discard top's rank takes that one card); a
  steal (a hand card of the rank of the top card of an opponent's capture pile, or
  any wild, takes that opponent's whole top set, their last capture). Each capture
  forms a new set on top of the capturer's pile, the capturing card on top.
- After every card a player puts down, that player refills to 3 from the stock
  while it lasts.
- Re-capture: when a set is stolen, the victim may at once add a card of the set's
  rank or a wild and take the set back; then the thief may do the same; and so on
  until one side declines or cannot. Every card played joins the set (on top); the
  set ends on top of the last winner's pile.
- If no capture of any kind is open at the start of a turn, the player must discard
  one hand card face up and draw one; then may capture only with pairs in hand and
  the discard top (possibly the card just discarded), never from opponents.
- A player with a capture open at the start of the turn must make at least one
  capture; after that, ending the turn is always legal.
- The hand ends when the turn in which the stock ran out ends. Cards left in hands
  score nothing. Each capture-pile card scores: 3-9 5, 10/J/Q/K 10, A 15, 2 25,
  joker 50.

Decisions of this engine where both texts are silent:
- Draw for first dealer: it uses the game's first shuffle of all 108 cards; seats
  draw in seat order, and tied seats redraw in seat order from the same deck (drawn
  cards are set aside). Should that deck run out (only a contrived order can do
  it), the lowest tied seat deals. Each hand, including the first, then shuffles
  all 108 cards anew; index 0 of a shuffle is the top of the stock.
- The top card of a capture pile is the last card of its top set, the card that
  made that capture. A natural card steals only if it has that card's rank, so a
  set last taken with a wild can be stolen only with a wild.
- The rank of a set is the rank of its bottom card: every set starts as two cards
  of one rank (a pair, or a discard match). Re-capturing needs a card of that rank
  or a wild, so a set of 2s or jokers can be re-captured only with a wild.
- A player never steals from their own pile. After an exchange ends, the player on
  turn goes on with the turn and may steal the same set again with another card.
- The forced discard's replacement draw is the ordinary refill to 3. After the
  forced discard, ending the turn is legal at once, since every capture is a "may".
- Both sides of a re-capture exchange refill to 3 after each card they add. The
  exchange always completes within the turn, even after the stock ran out.
- Nothing private leaks through the events, not even through who is asked, or
  how the events are grouped into messages (the match sends each seat one
  message per decision): what every other seat receives depends only on public
  information. Hence:
  - The side whose turn it is to answer in a re-capture exchange is always
    asked, whether or not it holds a usable card; without one, DECLINE is its
    only choice. Declining reads the same either way ("declines to re-capture").
  - The player on turn is asked after every capture and after the forced
    discard, even when END_TURN is the only choice left, and every turn ends
    with the same public "ends the turn". Only a player on turn whose hand is
    empty (hand sizes are public) is not asked: the turn then ends by itself.
  - The start of a turn is announced the same way whether or not a capture is
    open; the player learns it from its observation (`forced_discard`) and its
    choices, the table from the discard that follows.
- The player on turn is the seat in turn (`in_turn`); the victim's re-capture
  decisions are out of turn (`DecisionKind.OUT_OF_TURN`: the match's `out_of_turn`
  flag and out-of-turn time limit). The thief's answers in the exchange are made
  in its own turn.
- Cards of the same rank are interchangeable in Thief (suits never matter), so
  equivalent choices are offered once per rank, naming the lowest-id card(s); a
  player holding three of a rank is offered one pair of it.
- The whole discard pile and every capture pile are public: every card in them
  was seen face up. Other hands are shown only by size, the stock only by size.
- A draw shows the card(s) to the drawer and announces only the count to all.
- A hidden-information resample permutes the other hands and the stock among
  themselves, and gives the copy a freshly seeded chance, so later hands' deals
  are unknown too. In such a copy a decider may lack the captures the real hand
  had: a turn with nothing to capture then offers END_TURN (as every real turn
  does once a capture or the forced discard is made), so a decision is never empty.
- A discard-match label names the discard top by rank only ("take discard 9 with
  9♣"), since the action carries just the hand card; the event names the exact card.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise
from typing import cast

from referee.cards import Card, Chance, Rank, make_deck
from referee.games.base import (
    Action,
    DecisionKind,
    Event,
    Game,
    GameError,
    Result,
    places_from_scores,
    public,
)
from referee.games.parts import (
    CardGameState,
    announce_deal,
    deal_round_robin,
    draw_first_dealer,
    draw_from_stock,
    faces,
    rank_then_id,
)

HAND_SIZE = 3
_RankFilter = Callable[[Rank], bool]
DECK: tuple[Card, ...] = make_deck(decks=2, jokers=4)
WILD_RANKS = frozenset({Rank.TWO, Rank.JOKER})
POINTS: dict[Rank, int] = {
    **{Rank(n): 5 for n in range(3, 10)},
    Rank.TEN: 10,
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.ACE: 15,
    Rank.TWO: 25,
    Rank.JOKER: 50,
}


def card_points(card: Card) -> int:
    """The score of one capture-pile card."""
    return POINTS[card.rank]


# --------------------------------------------------------------------------- wire types


class ThiefActionKind(Enum):
    """Mirrors the proto enum ThiefActionKind (without its prefix)."""

    PAIR = 1
    DISCARD_MATCH = 2
    STEAL = 3
    RECAPTURE = 4
    DECLINE = 5
    DISCARD = 6
    END_TURN = 7


@dataclass(frozen=True)
class ThiefAction(Action):
    """One choice; `cards` are the hand card(s) put down, `target` the seat stolen from."""

    kind: ThiefActionKind
    cards: tuple[Card, ...] = ()
    target: int = 0

    @property
    def label(self) -> str:
        k = self.kind
        if k is ThiefActionKind.PAIR:
            return f"pair {faces(self.cards)}"
        if k is ThiefActionKind.DISCARD_MATCH:
            card = self.cards[0]
            return f"take discard {card.rank.symbol} with {card.face}"
        if k is ThiefActionKind.STEAL:
            return f"steal from seat {self.target} with {faces(self.cards)}"
        if k is ThiefActionKind.RECAPTURE:
            return f"re-capture with {faces(self.cards)}"
        if k is ThiefActionKind.DISCARD:
            return f"discard {faces(self.cards)}"
        if k is ThiefActionKind.DECLINE:
            return "decline"
        return "end turn"


DECLINE = ThiefAction(ThiefActionKind.DECLINE)
END_TURN = ThiefAction(ThiefActionKind.END_TURN)


@dataclass(frozen=True)
class ThiefSet:
    """One capture, bottom first; the last card made the capture."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ThiefPile:
    """A capture pile, oldest set first; the last set can be stolen."""

    sets: tuple[ThiefSet, ...]


@dataclass(frozen=True)
class ThiefDispute:
    """A contested steal: the set on top of `holder`'s pile, which `challenger` may take back."""

    set: ThiefSet
    rank: Rank
    holder: int
    challenger: int


@dataclass(frozen=True)
class ThiefObservation:
    """Everything one seat may know; field names mirror the proto ThiefObservation."""

    seat: int
    seats: int
    hand_number: int
    hands_total: int
    dealer: int
    turn: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    piles: tuple[ThiefPile, ...]
    discard_pile: tuple[Card, ...]
    stock_size: int
    totals: tuple[int, ...]
    pile_values: tuple[int, ...]
    forced_discard: bool
    captured_this_turn: bool
    dispute: ThiefDispute | None


# --------------------------------------------------------------------------- state


@dataclass
class _Dispute:
    """The set in dispute is always the top set of `holder`'s pile."""

    rank: Rank
    holder: int
    challenger: int


class ThiefState(CardGameState):
    """A game of Thief in progress. The stock list keeps its top card LAST (O(1) draws)."""

    def __init__(self, num_seats: int, chance: Chance) -> None:
        self.num_seats = num_seats
        self.chance = chance
        self.hands_total = num_seats
        self.hand_number = 0
        self.first_dealer = 0
        self.dealer = 0
        self.turn = 0
        self.hands: list[list[Card]] = [[] for _ in range(num_seats)]
        self.piles: list[list[list[Card]]] = [[] for _ in range(num_seats)]
        self.discard: list[Card] = []
        self.stock: list[Card] = []
        self.totals: list[int] = [0] * num_seats
        self.hand_scores: list[tuple[int, ...]] = []
        self.forced_discard = False
        self.must_discard = False
        self.captured_this_turn = False
        self.dispute: _Dispute | None = None
        self.over = False
        self._opening: list[Event] = []
        self._legal: tuple[ThiefAction, ...] | None = None

    # ------------------------------------------------------------------ setup

    def setup(self) -> None:
        """Draw for the first dealer and deal the first hand (called once by Thief)."""
        events = self._draw_first_dealer()
        self._start_hand(self.first_dealer, events)
        self._settle(events)
        self._opening = events

    def _draw_first_dealer(self) -> list[Event]:
        self.first_dealer, events = draw_first_dealer(self.chance.shuffled(DECK), self.num_seats)
        return events

    def _start_hand(self, dealer: int, events: list[Event]) -> None:
        n = self.num_seats
        self.hand_number += 1
        self.dealer = dealer
        order = self.chance.shuffled(DECK)
        self.hands = [[] for _ in range(n)]
        self.piles = [[] for _ in range(n)]
        events.append(
            public(
                "hand_start",
                f"hand {self.hand_number} of {self.hands_total}: seat {dealer} deals",
                dealer,
            )
        )
        seats = [(dealer + k) % n for k in range(1, n + 1)]
        pos = deal_round_robin(order, self.hands, seats, HAND_SIZE)
        announce_deal(self.hands, seats, rank_then_id, events)
        self.discard = [order[pos]]
        self.stock = order[pos + 1 :][::-1]
        events.append(
            public(
                "discard_start",
                f"the discard pile starts with {order[pos].face}",
                None,
                (order[pos],),
            )
        )
        self._start_turn((dealer + 1) % n, events)

    # ------------------------------------------------------------------ turn flow

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        self.turn = seat
        self.captured_this_turn = False
        self.dispute = None
        is_open = bool(self._captures(seat, steals=True))
        self.forced_discard = self.must_discard = not is_open
        events.append(public("turn", f"seat {seat}'s turn", seat))

    def _settle(self, events: list[Event]) -> None:
        """Run everything automatic until a seat must decide or the game is over."""
        self._legal = None
        while not self.over:
            if self.dispute is not None:
                return  # the challenger is always asked, usable card or not
            if self.must_discard and self.hands[self.turn]:
                return
            self.must_discard = False
            if self.hands[self.turn]:
                return  # asked even when END_TURN is the only choice left
            self._end_turn_public(self.turn, events)

    def _end_turn_public(self, seat: int, events: list[Event]) -> None:
        """Every turn ends with the same public text, chosen or not."""
        events.append(public("end_turn", f"seat {seat} ends the turn", seat))
        self._end_turn(events)

    def _may_end(self) -> bool:
        return self.captured_this_turn or self.forced_discard

    def _end_turn(self, events: list[Event]) -> None:
        if self.stock:
            self._start_turn((self.turn + 1) % self.num_seats, events)
        else:
            self._end_hand(events)

    def _end_hand(self, events: list[Event]) -> None:
        scores = tuple(self.pile_value(s) for s in range(self.num_seats))
        self.hand_scores.append(scores)
        for seat, points in enumerate(scores):
            self.totals[seat] += points
        listing = ", ".join(f"seat {s} {p} (total {self.totals[s]})" for s, p in enumerate(scores))
        events.append(public("hand_end", f"hand {self.hand_number} ends: {listing}"))
        if self.hand_number >= self.hands_total:
            self.over = True
            self.dispute = None
            self.must_discard = False
            places = places_from_scores(self.totals)
            listing = ", ".join(f"seat {s} place {p}" for s, p in enumerate(places))
            events.append(public("game_end", f"game over: {listing}"))
        else:
            self._start_hand((self.dealer + 1) % self.num_seats, events)

    # ------------------------------------------------------------------ options

    def _captures(self, seat: int, steals: bool) -> list[ThiefAction]:
        """Every distinct capture `seat` could make now: pairs, discard match, steals."""
        hand = self.hands[seat]
        actions: list[ThiefAction] = []
        last_pair: Rank | None = None
        for a, b in pairwise(hand):
            if a.rank is b.rank and a.rank is not last_pair:
                actions.append(ThiefAction(ThiefActionKind.PAIR, (a, b)))
                last_pair = a.rank
        if self.discard:
            top_rank = self.discard[-1].rank
            for card in hand:
                if card.rank is top_rank:
                    actions.append(ThiefAction(ThiefActionKind.DISCARD_MATCH, (card,)))
                    break
        if steals:
            n = self.num_seats
            for k in range(1, n):
                victim = (seat + k) % n
                if self.piles[victim]:
                    actions.extend(self._steals(hand, victim))
        return actions

    def _steals(self, hand: list[Card], victim: int) -> list[ThiefAction]:
        top_rank = self.piles[victim][-1][-1].rank
        return [
            ThiefAction(ThiefActionKind.STEAL, (card,), victim)
            for card in _one_per_rank(hand, lambda r: r is top_rank or r in WILD_RANKS)
        ]

    def _recapture_actions(self, seat: int) -> list[ThiefAction]:
        assert self.dispute is not None
        rank = self.dispute.rank
        return [
            ThiefAction(ThiefActionKind.RECAPTURE, (card,))
            for card in _one_per_rank(self.hands[seat], lambda r: r is rank or r in WILD_RANKS)
        ]

    def _compute_legal(self) -> tuple[ThiefAction, ...]:
        if self.over:
            return ()
        if self.dispute is not None:
            return (*self._recapture_actions(self.dispute.challenger), DECLINE)
        hand = self.hands[self.turn]
        if self.must_discard and hand:
            return tuple(
                ThiefAction(ThiefActionKind.DISCARD, (c,))
                for c in _one_per_rank(hand, lambda r: True)
            )
        captures = self._captures(self.turn, steals=not self.forced_discard)
        if self._may_end() or not captures:
            return (*captures, END_TURN)
        return tuple(captures)

    # ------------------------------------------------------------------ GameState

    def deciders(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self.dispute is not None:
            return (self.dispute.challenger,)
        return (self.turn,)

    def in_turn(self) -> int | None:
        """The player on turn; the victim's re-capture decisions are out of turn."""
        return None if self.over else self.turn

    def decision_kinds(self) -> dict[int, DecisionKind]:
        if self.over:
            return {}
        if self.dispute is not None:
            # The victim's re-capture is out of turn; the thief's answer in the
            # exchange is made in its own turn.
            seat = self.dispute.challenger
            kind = DecisionKind.IN_TURN if seat == self.turn else DecisionKind.OUT_OF_TURN
            return {seat: kind}
        return {self.turn: DecisionKind.IN_TURN}

    def _legal_actions(self, seat: int) -> tuple[ThiefAction, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _apply(self, choices: Mapping[int, Action]) -> list[Event]:
        (seat,) = self.deciders()
        action = cast(ThiefAction, choices[seat])
        events: list[Event] = []
        self._perform(seat, action, events)
        self._settle(events)
        return events

    def _perform(self, seat: int, action: ThiefAction, events: list[Event]) -> None:
        kind = action.kind
        if kind is ThiefActionKind.PAIR:
            self._pair(seat, action.cards, events)
        elif kind is ThiefActionKind.DISCARD_MATCH:
            self._take_discard(seat, action.cards[0], events)
        elif kind is ThiefActionKind.STEAL:
            self._steal(seat, action.cards[0], action.target, events)
        elif kind is ThiefActionKind.RECAPTURE:
            self._recapture(seat, action.cards[0], events)
        elif kind is ThiefActionKind.DECLINE:
            self._decline(seat, events)
        elif kind is ThiefActionKind.DISCARD:
            self._discard(seat, action.cards[0], events)
        else:
            self._end_turn_public(seat, events)

    # ------------------------------------------------------------------ moves

    def _pair(self, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self.piles[seat].append(list(cards))
        self.captured_this_turn = True
        events.append(public("pair", f"seat {seat} pairs {faces(cards)}", seat, cards))
        self._refill(seat, events)

    def _take_discard(self, seat: int, card: Card, events: list[Event]) -> None:
        top = self.discard.pop()
        self.hands[seat].remove(card)
        self.piles[seat].append([top, card])
        self.captured_this_turn = True
        text = f"seat {seat} takes discard {top.face} with {card.face}"
        events.append(public("discard_match", text, seat, (top, card)))
        self._refill(seat, events)

    def _steal(self, seat: int, card: Card, victim: int, events: list[Event]) -> None:
        taken = self.piles[victim].pop()
        text = f"seat {seat} steals {faces(taken)} from seat {victim} with {card.face}"
        self.hands[seat].remove(card)
        taken.append(card)
        self.piles[seat].append(taken)
        self.captured_this_turn = True
        events.append(public("steal", text, seat, taken))
        self._refill(seat, events)
        self.dispute = _Dispute(taken[0].rank, holder=seat, challenger=victim)

    def _recapture(self, seat: int, card: Card, events: list[Event]) -> None:
        d = self.dispute
        assert d is not None
        taken = self.piles[d.holder].pop()
        text = f"seat {seat} re-captures {faces(taken)} from seat {d.holder} with {card.face}"
        self.hands[seat].remove(card)
        taken.append(card)
        self.piles[seat].append(taken)
        events.append(public("recapture", text, seat, taken))
        self._refill(seat, events)
        d.holder, d.challenger = seat, d.holder

    def _decline(self, seat: int, events: list[Event]) -> None:
        d = self.dispute
        assert d is not None
        text = f"seat {seat} declines to re-capture; the set stays with seat {d.holder}"
        events.append(public("decline", text, seat))
        self.dispute = None

    def _discard(self, seat: int, card: Card, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.discard.append(card)
        self.must_discard = False
        events.append(public("discard", f"seat {seat} discards {card.face}", seat, (card,)))
        self._refill(seat, events)

    def _refill(self, seat: int, events: list[Event]) -> None:
        """Draw back up to 3 cards while the stock lasts (top of the stock is its last item)."""
        hand = self.hands[seat]
        draw_from_stock(seat, hand, self.stock, HAND_SIZE - len(hand), rank_then_id, events)

    # ------------------------------------------------------------------ views

    def pile_value(self, seat: int) -> int:
        return sum(POINTS[c.rank] for s in self.piles[seat] for c in s)

    def observe(self, seat: int) -> ThiefObservation:
        d = self.dispute
        dispute = None
        if d is not None:
            shown = ThiefSet(tuple(self.piles[d.holder][-1]))
            dispute = ThiefDispute(shown, d.rank, d.holder, d.challenger)
        return ThiefObservation(
            seat=seat,
            seats=self.num_seats,
            hand_number=self.hand_number,
            hands_total=self.hands_total,
            dealer=self.dealer,
            turn=self.turn,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            piles=tuple(ThiefPile(tuple(ThiefSet(tuple(s)) for s in p)) for p in self.piles),
            discard_pile=tuple(self.discard),
            stock_size=len(self.stock),
            totals=tuple(self.totals),
            pile_values=tuple(self.pile_value(s) for s in range(self.num_seats)),
            forced_discard=self.forced_discard,
            captured_this_turn=self.captured_this_turn,
            dispute=dispute,
        )

    @property
    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise GameError("the game is not over yet")
        totals = tuple(self.totals)
        return Result(
            scores=totals,
            places=places_from_scores(totals),
            hand_scores=tuple(self.hand_scores),
        )

    def all_cards(self) -> list[Card]:
        cards = [c for h in self.hands for c in h]
        cards.extend(c for p in self.piles for s in p for c in s)
        cards.extend(self.discard)
        cards.extend(self.stock)
        return cards

    # ------------------------------------------------------------------ copies

    def clone(self) -> ThiefState:
        """A fast exact copy (cards are immutable and shared)."""
        new = self._copy_shell()
        new.hands = [list(h) for h in self.hands]
        new.piles = [[list(s) for s in p] for p in self.piles]
        new.discard = list(self.discard)
        new.stock = list(self.stock)
        new.totals = list(self.totals)
        new.hand_scores = list(self.hand_scores)
        new.dispute = copy.copy(self.dispute)
        return new

    def resample_hidden(self, seat: int, rng: random.Random) -> ThiefState:
        new = self.clone()
        new.chance = Chance(rng.getrandbits(64))
        others = [s for s in range(self.num_seats) if s != seat]
        pool = [c for s in others for c in new.hands[s]] + new.stock
        rng.shuffle(pool)
        pos = 0
        for s in others:
            size = len(new.hands[s])
            new.hands[s] = sorted(pool[pos : pos + size], key=rank_then_id)
            pos += size
        new.stock = pool[pos:]
        new._legal = None
        return new


def _one_per_rank(hand: list[Card], wanted: _RankFilter) -> list[Card]:
    """The lowest-id card of each wanted rank in a sorted hand."""
    chosen: list[Card] = []
    last: Rank | None = None
    for card in hand:
        if card.rank is not last and wanted(card.rank):
            chosen.append(card)
        last = card.rank
    return chosen


# --------------------------------------------------------------------------- game


class Thief(Game):
    """Thief for 2-6 players; see the module docstring for the rulings."""

    name = "thief"
    title = "Thief"
    wire_name = "thief"
    min_seats = 2
    max_seats = 6
    one_player = False
    simultaneous = False
    options = ()
    summary = (
        "2-6 players, 108 cards (two decks + 4 jokers); every 2 and joker is wild for stealing.\n"
        "High card deals first; the deal passes left; one hand per player, totals add up.\n"
        "Deal 3 each and turn one card up as the discard pile; left of the dealer starts.\n"
        "On your turn capture as long as you can and like, in any order:\n"
        "  - a pair in hand (two cards of one rank; 2+joker is no pair);\n"
        "  - the discard top, with a hand card of its rank;\n"
        "  - an opponent's last capture (top set), with a card of its top card's rank or a wild.\n"
        "Each capture becomes a new set on top of your pile; refill to 3 after each card.\n"
        "A robbed player may at once take the set back with a card of its rank or a wild,\n"
        "then the thief may, and so on; the played cards join the set.\n"
        "With a capture open you must make one; then you may stop. With none open, discard\n"
        "one card and draw: now only pairs and the discard top may be taken.\n"
        "The hand ends after the turn in which the stock runs out. Captured cards score:\n"
        "3-9 5, 10-K 10, A 15, 2 25, joker 50. Highest total after all hands wins."
    )

    def new_state(self, num_seats: int, chance: Chance, options: Mapping[str, str]) -> ThiefState:
        if not self.min_seats <= num_seats <= self.max_seats:
            raise GameError(f"thief is played by 2-6 players, not {num_seats}")
        state = ThiefState(num_seats, chance)
        state.setup()
        return state
