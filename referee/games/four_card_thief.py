"""Four Card Thief: Thief with one deck, a face-up layout and a draw that opens every turn.

The rule text is the "Four Card Thief" part of thief-four-card-thief-gharat.txt, read
together with the Thief rules above it ("otherwise played identically"); the rulings
file next to the rule texts settles its gaps and outranks it. A game is as many hands
as there are players, each dealt from a fresh shuffle of all 55 cards. A turn is a
draw, a run of captures (pairs, layout matches, steals) and a discard into the layout.

Rulings
-------
From the rulings file, common to all games:
- Every physical card has a stable id; chance comes only from the game's Chance
  (a shuffle "and cut" is one shuffle); "to the left" and "clockwise" mean seat + 1.
- Every decision is one choice from an enumerated list; where the text says "may",
  declining is one of the choices (here: discarding, which ends the turn).

From the rulings file, Four Card Thief:
- 2-6 players; one 52-card deck and 3 jokers (55 cards). Only jokers are wild;
  2s are natural cards like any other.
- Four cards face up form the layout, which replaces Thief's discard pile; each
  player is dealt 4 cards.
- A turn opens with a draw of one card from the stock. Captures: a pair in hand; a
  hand card of the rank of any layout card takes that layout card; a card of the
  rank of the top card of an opponent's capture pile, or a joker, steals that
  opponent's top set (their last capture). Each capture forms a new set on top of
  the capturer's pile, the capturing card on top.
- Between turns a hand holds 4 cards; during a turn, after each capture, the player
  refills to 5 (the four plus the turn's draw) while the stock lasts. The discard
  of one card face up into the layout ends every turn and leaves 4.
- If no capture is open after the opening draw, the player discards and the turn
  ends without drawing again.
- A set of exactly four natural cards of one rank can never be stolen.
- No re-capture: a robbed player never takes a set back out of turn.
- Scoring of capture-pile cards: joker 25; J, Q, K, A 10; 2-10 1. The first dealer,
  the end of a hand and the rotation are as in Thief: the highest card drawn deals
  first (joker > A > K > ... > 2, tied highest seats draw again); the deal passes to
  the left; a game is as many hands as players, so each deals once; a hand ends
  when the turn in which the stock ran out ends; cards left in hands score
  nothing; highest cumulative total wins, equal totals share a place.

Carried over from Thief, since the Four Card Thief text keeps its rules:
- A pair is two cards of exactly one rank; Jo+Jo is a pair. A joker is wild only to
  steal: it takes a layout card only if that card is a joker too.
- The top card of a capture pile is the last card of its top set, the card that made
  that capture. A natural card steals only if it has that card's rank, so a set last
  taken with a joker can be stolen only with a joker. Nobody steals from their own pile.
- A player with a capture open after the opening draw must make at least one
  capture; after that, discarding (which ends the turn) is always legal.

Decisions of this engine where both texts are silent:
- Draw for first dealer: it uses the game's first shuffle of all 55 cards; seats
  draw in seat order, and tied seats redraw in seat order from the same deck (drawn
  cards are set aside). Should that deck run out (only a contrived order can do it),
  the lowest tied seat deals. Each hand, including the first, then shuffles all 55
  cards anew; index 0 of a shuffle is the top of the stock.
- The deal: 4 cards each, one at a time, starting left of the dealer; then the next
  four cards are turned face up as the layout. The player left of the dealer starts.
- The opening draw is automatic (no decision). The layout grows by every discard
  and shrinks by every layout match; it may hold any number of cards, even none.
- A layout match takes exactly one layout card; with two layout cards of the
  hand card's rank, taking both needs two captures.
- "A set of exactly four natural cards of one rank" is a set of four cards, none a
  joker, all of one rank (a pair or layout match stolen twice with naturals). A set
  with a joker in it, or of any other size, can be stolen as usual. A pile whose top
  set is protected offers no steal; the protection lasts while the set is on top
  and, under other sets, until they are stolen off it.
- Once the stock is empty no refill happens; a player whose hand runs out of cards
  in that last turn cannot discard, and the turn (and the hand) ends at once.
- Cards of the same rank are interchangeable (suits never matter), so equivalent
  choices are offered once per rank, naming the lowest-id card(s): one pair per
  rank, one layout match per pair of ranks, one steal per target and rank, one
  discard per rank.
- The layout and every capture pile are public: every card in them was seen face
  up. Other hands are shown only by size, the stock only by size.
- A draw shows the card(s) to the drawer and announces only the count to all.
- Nothing private leaks through the events: what every other seat receives
  depends only on public information. So a turn with no capture open is not
  announced as such: the player learns it from its observation (`forced_discard`)
  and its choices, the table from the discard that comes without a capture.
- A hidden-information resample permutes the other hands and the stock among
  themselves, and gives the copy a freshly seeded chance, so later hands' deals are
  unknown too. In such a copy a player who must capture may hold no capture; the
  discards are offered then, so a decision is never empty.
"""

from __future__ import annotations

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

HAND_SIZE = 4
TURN_HAND_SIZE = 5
LAYOUT_SIZE = 4
_RankFilter = Callable[[Rank], bool]
DECK: tuple[Card, ...] = make_deck(decks=1, jokers=3)
POINTS: dict[Rank, int] = {
    **{Rank(n): 1 for n in range(2, 11)},
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.ACE: 10,
    Rank.JOKER: 25,
}


def card_points(card: Card) -> int:
    """The score of one capture-pile card."""
    return POINTS[card.rank]


def is_protected(cards: list[Card] | tuple[Card, ...]) -> bool:
    """A set of exactly four natural cards of one rank, which can never be stolen."""
    if len(cards) != 4:
        return False
    rank = cards[0].rank
    return rank is not Rank.JOKER and all(c.rank is rank for c in cards)


# --------------------------------------------------------------------------- wire types


class FourCardThiefActionKind(Enum):
    """Mirrors the proto enum FourCardThiefActionKind (without its prefix)."""

    PAIR = 1
    LAYOUT_MATCH = 2
    STEAL = 3
    DISCARD = 4


@dataclass(frozen=True)
class FourCardThiefAction(Action):
    """One choice. `cards` are the hand card(s) put down, `target` the seat stolen
    from (STEAL), `taken` the layout card taken (LAYOUT_MATCH)."""

    kind: FourCardThiefActionKind
    cards: tuple[Card, ...] = ()
    target: int = 0
    taken: Card | None = None

    @property
    def label(self) -> str:
        k = self.kind
        if k is FourCardThiefActionKind.PAIR:
            return f"pair {faces(self.cards)}"
        if k is FourCardThiefActionKind.LAYOUT_MATCH:
            taken = self.taken.face if self.taken is not None else "?"
            return f"take {taken} from the layout with {faces(self.cards)}"
        if k is FourCardThiefActionKind.STEAL:
            return f"steal from seat {self.target} with {faces(self.cards)}"
        return f"discard {faces(self.cards)}"


@dataclass(frozen=True)
class FourCardThiefSet:
    """One capture, bottom first; the last card made the capture."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class FourCardThiefPile:
    """A capture pile, oldest set first; the last set can be stolen unless locked."""

    sets: tuple[FourCardThiefSet, ...]
    top_locked: bool


@dataclass(frozen=True)
class FourCardThiefObservation:
    """Everything one seat may know; field names mirror the proto FourCardThiefObservation."""

    seat: int
    seats: int
    hand_number: int
    hands_total: int
    dealer: int
    turn: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    piles: tuple[FourCardThiefPile, ...]
    layout: tuple[Card, ...]
    stock_size: int
    totals: tuple[int, ...]
    pile_values: tuple[int, ...]
    forced_discard: bool
    captured_this_turn: bool


# --------------------------------------------------------------------------- state


class FourCardThiefState(CardGameState):
    """A game of Four Card Thief in progress. The stock keeps its top card LAST."""

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
        self.layout: list[Card] = []
        self.stock: list[Card] = []
        self.totals: list[int] = [0] * num_seats
        self.hand_scores: list[tuple[int, ...]] = []
        self.forced_discard = False
        self.captured_this_turn = False
        self.over = False
        self._opening: list[Event] = []
        self._legal: tuple[FourCardThiefAction, ...] | None = None

    # ------------------------------------------------------------------ setup

    def setup(self) -> None:
        """Draw for the first dealer and deal the first hand (called once by the game)."""
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
        self.layout = list(order[pos : pos + LAYOUT_SIZE])
        self.stock = order[pos + LAYOUT_SIZE :][::-1]
        events.append(
            public("layout_start", f"the layout is {faces(self.layout)}", None, self.layout)
        )
        self._start_turn((dealer + 1) % n, events)

    # ------------------------------------------------------------------ turn flow

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        self.turn = seat
        self.captured_this_turn = False
        events.append(public("turn", f"seat {seat}'s turn", seat))
        self._draw(seat, 1, events)
        self.forced_discard = not self._captures(seat)

    def _settle(self, events: list[Event]) -> None:
        """Run everything automatic until a seat must decide or the game is over."""
        self._legal = None
        while not self.over and not self.hands[self.turn]:
            text = f"seat {self.turn} has no card left to discard; the turn ends"
            events.append(public("turn_end", text, self.turn))
            self._end_turn(events)

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
            places = places_from_scores(self.totals)
            listing = ", ".join(f"seat {s} place {p}" for s, p in enumerate(places))
            events.append(public("game_end", f"game over: {listing}"))
        else:
            self._start_hand((self.dealer + 1) % self.num_seats, events)

    # ------------------------------------------------------------------ options

    def _captures(self, seat: int) -> list[FourCardThiefAction]:
        """Every distinct capture `seat` could make now: pairs, layout matches, steals."""
        hand = self.hands[seat]
        actions: list[FourCardThiefAction] = []
        last_pair: Rank | None = None
        for a, b in pairwise(hand):
            if a.rank is b.rank and a.rank is not last_pair:
                actions.append(FourCardThiefAction(FourCardThiefActionKind.PAIR, (a, b)))
                last_pair = a.rank
        if self.layout:
            lowest: dict[Rank, Card] = {}
            for card in self.layout:
                known = lowest.get(card.rank)
                if known is None or card.id < known.id:
                    lowest[card.rank] = card
            for card in _one_per_rank(hand, lambda r: r in lowest):
                actions.append(
                    FourCardThiefAction(
                        FourCardThiefActionKind.LAYOUT_MATCH, (card,), taken=lowest[card.rank]
                    )
                )
        n = self.num_seats
        for k in range(1, n):
            victim = (seat + k) % n
            pile = self.piles[victim]
            if not pile or is_protected(pile[-1]):
                continue
            for card in _stealers(hand, pile[-1][-1].rank):
                actions.append(
                    FourCardThiefAction(FourCardThiefActionKind.STEAL, (card,), target=victim)
                )
        return actions

    def _discards(self, seat: int) -> list[FourCardThiefAction]:
        return [
            FourCardThiefAction(FourCardThiefActionKind.DISCARD, (c,))
            for c in _one_per_rank(self.hands[seat], lambda r: True)
        ]

    def _compute_legal(self) -> tuple[FourCardThiefAction, ...]:
        if self.over:
            return ()
        seat = self.turn
        if self.forced_discard:
            return tuple(self._discards(seat))
        captures = self._captures(seat)
        if not self.captured_this_turn and captures:
            return tuple(captures)
        return (*captures, *self._discards(seat))

    # ------------------------------------------------------------------ GameState

    def deciders(self) -> tuple[int, ...]:
        if self.over:
            return ()
        return (self.turn,)

    def in_turn(self) -> int | None:
        return None if self.over else self.turn

    def decision_kinds(self) -> dict[int, DecisionKind]:
        return {} if self.over else {self.turn: DecisionKind.IN_TURN}

    def _legal_actions(self, seat: int) -> tuple[FourCardThiefAction, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _apply(self, choices: Mapping[int, Action]) -> list[Event]:
        seat = self.turn
        action = cast(FourCardThiefAction, choices[seat])
        events: list[Event] = []
        kind = action.kind
        if kind is FourCardThiefActionKind.PAIR:
            self._pair(seat, action.cards, events)
        elif kind is FourCardThiefActionKind.LAYOUT_MATCH:
            assert action.taken is not None
            self._take_layout(seat, action.cards[0], action.taken, events)
        elif kind is FourCardThiefActionKind.STEAL:
            self._steal(seat, action.cards[0], action.target, events)
        else:
            self._discard(seat, action.cards[0], events)
        self._settle(events)
        return events

    # ------------------------------------------------------------------ moves

    def _captured(self, seat: int, events: list[Event]) -> None:
        self.captured_this_turn = True
        self._draw(seat, TURN_HAND_SIZE - len(self.hands[seat]), events)

    def _pair(self, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        self.piles[seat].append(list(cards))
        events.append(public("pair", f"seat {seat} pairs {faces(cards)}", seat, cards))
        self._captured(seat, events)

    def _take_layout(self, seat: int, card: Card, taken: Card, events: list[Event]) -> None:
        self.layout.remove(taken)
        self.hands[seat].remove(card)
        self.piles[seat].append([taken, card])
        text = f"seat {seat} takes {taken.face} from the layout with {card.face}"
        events.append(public("layout_match", text, seat, (taken, card)))
        self._captured(seat, events)

    def _steal(self, seat: int, card: Card, victim: int, events: list[Event]) -> None:
        taken = self.piles[victim].pop()
        text = f"seat {seat} steals {faces(taken)} from seat {victim} with {card.face}"
        self.hands[seat].remove(card)
        taken.append(card)
        self.piles[seat].append(taken)
        events.append(public("steal", text, seat, taken))
        self._captured(seat, events)

    def _discard(self, seat: int, card: Card, events: list[Event]) -> None:
        self.hands[seat].remove(card)
        self.layout.append(card)
        text = f"seat {seat} discards {card.face} to the layout; the turn ends"
        events.append(public("discard", text, seat, (card,)))
        self._end_turn(events)

    def _draw(self, seat: int, wanted: int, events: list[Event]) -> None:
        """Draw up to `wanted` cards while the stock lasts (its top is its last item)."""
        draw_from_stock(seat, self.hands[seat], self.stock, wanted, rank_then_id, events)

    # ------------------------------------------------------------------ views

    def pile_value(self, seat: int) -> int:
        return sum(POINTS[c.rank] for s in self.piles[seat] for c in s)

    def observe(self, seat: int) -> FourCardThiefObservation:
        return FourCardThiefObservation(
            seat=seat,
            seats=self.num_seats,
            hand_number=self.hand_number,
            hands_total=self.hands_total,
            dealer=self.dealer,
            turn=self.turn,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            piles=tuple(
                FourCardThiefPile(
                    tuple(FourCardThiefSet(tuple(s)) for s in p),
                    bool(p) and is_protected(p[-1]),
                )
                for p in self.piles
            ),
            layout=tuple(self.layout),
            stock_size=len(self.stock),
            totals=tuple(self.totals),
            pile_values=tuple(self.pile_value(s) for s in range(self.num_seats)),
            forced_discard=self.forced_discard,
            captured_this_turn=self.captured_this_turn,
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
        cards.extend(self.layout)
        cards.extend(self.stock)
        return cards

    # ------------------------------------------------------------------ copies

    def clone(self) -> FourCardThiefState:
        """A fast exact copy (cards are immutable and shared)."""
        new = self._copy_shell()
        new.hands = [list(h) for h in self.hands]
        new.piles = [[list(s) for s in p] for p in self.piles]
        new.layout = list(self.layout)
        new.stock = list(self.stock)
        new.totals = list(self.totals)
        new.hand_scores = list(self.hand_scores)
        return new

    def resample_hidden(self, seat: int, rng: random.Random) -> FourCardThiefState:
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


def _stealers(hand: list[Card], top_rank: Rank) -> list[Card]:
    """The cards of a sorted hand that may steal a set whose top card has `top_rank`:
    one of that rank and one joker, the lowest ids."""
    return _one_per_rank(hand, lambda r: r is top_rank or r is Rank.JOKER)


# --------------------------------------------------------------------------- game


class FourCardThief(Game):
    """Four Card Thief for 2-6 players; see the module docstring for the rulings."""

    name = "four-card-thief"
    title = "Four Card Thief"
    wire_name = "four_card_thief"
    min_seats = 2
    max_seats = 6
    one_player = False
    simultaneous = False
    options = ()
    summary = (
        "2-6 players, 55 cards (one deck + 3 jokers); only jokers are wild, for stealing.\n"
        "High card deals first; the deal passes left; one hand per player, totals add up.\n"
        "Deal 4 each and turn 4 cards face up as the layout; left of the dealer starts.\n"
        "Your turn opens with a draw. Then capture as long as you can and like:\n"
        "  - a pair in hand (two cards of one rank; Jo+Jo is a pair);\n"
        "  - a layout card, with a hand card of its rank;\n"
        "  - an opponent's last capture (top set), with a card of its top card's rank or a\n"
        "    joker; a set of exactly four natural cards of one rank can never be stolen.\n"
        "Each capture becomes a new set on top of your pile; refill to 5 after each one.\n"
        "No re-capture. With a capture open you must make one; with none open after the\n"
        "draw you just discard. Every turn ends by discarding one card into the layout.\n"
        "The hand ends after the turn in which the stock runs out. Captured cards score:\n"
        "joker 25, J Q K A 10, 2-10 1. Highest total after all hands wins."
    )

    def new_state(
        self, num_seats: int, chance: Chance, options: Mapping[str, str]
    ) -> FourCardThiefState:
        if not self.min_seats <= num_seats <= self.max_seats:
            raise GameError(f"four-card-thief is played by 2-6 players, not {num_seats}")
        state = FourCardThiefState(num_seats, chance)
        state.setup()
        return state
