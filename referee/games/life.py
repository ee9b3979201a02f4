"""Life: pick a suit, turn cards, lay matching cards in front of you, bank them, steal.

The rule text is life.txt (International Hobo, 2000); the rulings file next to the rule
texts settles its gaps and outranks it. Before each hand every player at once picks a
suit that will score double for them. On a turn a player turns the top card of the deck
(or plays a joker from hand): a heart, diamond or club lets them lay cards of that suit
face up in front of them, a spade forces them to lay all their spades. Ten points of one
suit face up are turned face down (banked, safe from thieves and redeals) and earn a
steal - or, for spades, let everyone else steal from the banker. Aces sweep their whole
suit, jokers reshuffle everything that is not banked. Every card in front of a player
scores at the end of a hand, chosen suit double, spades negative.

Rulings
-------
From the rulings file, common to all games:
- Every physical card has a stable id; chance comes only from the game's Chance (a
  shuffle "and cut" is one shuffle); "to the left" means seat + 1.
- Every decision is one choice from an enumerated list; where the text says "may",
  declining is one of the choices. The random card a steal takes from a hand is drawn
  by the referee's Chance, never chosen by a bot.

From the rulings file, Life:
- 2-6 players; one 52-card deck + 2 jokers, two decks + 4 jokers with 5 or 6 players.
- Before each hand every player at once chooses a suit: hearts, diamonds or clubs
  (option `choose_spades`: spades too, scoring half). Deal 7 each.
- Turn: either play a joker from hand, or turn the top deck card: heart/diamond/club:
  the player may lay any number of hand cards of that suit face up in front of them;
  spade: must lay all their spades; joker: redeal, turn over. Laying nothing means
  drawing a card.
- When a player's face-up cards of the suit just played reach 10 or more (A K Q J
  count 10, others their number) they turn face down (banked). After a heart, diamond
  or club bank the player may steal one card from any player; after a spade bank every
  other player in turn from the left may steal one card from them. A steal takes a
  face-up card of the thief's choice while the victim has any, else a random hand card.
- An ace turned from the deck sends every card of its suit from all hands and face-up
  rows to the discard pile. An ace laid from hand takes every card of its suit from all
  hands and face-up rows onto that player's row; then the bank applies.
- A joker (played or turned) leaves play; the deck, the discards, every face-up row and
  every hand are shuffled together and 7 dealt to each; banked cards stay. Fewer than
  7 each: the hand ends.
- An empty deck when a card must be turned or drawn: the discards are shuffled into a
  new deck; if there are none, the hand ends.
- The hand ends as soon as any player holds no cards. Every card in front of a player
  (face up or down) scores: chosen suit double, spades negative, others plain. First to
  the target (option `target`, default 100) at the end of a hand wins; a tie at the top
  plays on. Option `turn_cap` (default 400): reaching that many turns ends the hand.

Decisions of this engine where both texts are silent:
- Scoring values: 2-10 their number, J Q K A 10. With `choose_spades`, a player who
  chose spades scores each spade in front of them at minus half its value (a 7 is
  -3.5, a royalty -5) and the other three suits plain; other players' spades stay at
  full minus value. Totals may therefore end in .5.
- Seat 0 plays first in the first hand: the last seat deals it (the text's "player
  who suggested playing Life"). Each later hand is dealt by the player to the left of
  the last player to redeal (the dealer, or whoever last played or turned a joker).
  The deal and every redeal go one card at a time from the dealer's left.
- Suits are chosen before the deal, so a player picks without seeing a card. The
  choices are revealed together once all are made.
- Every hand starts from all the game's cards: the jokers removed from play and the
  banked cards of the last hand come back. A removed joker stays out until then.
- A turned card goes onto the discard pile (face up, public). After turning an ace
  (and its suit's sweep) the player has laid nothing, so they draw a card.
- Turn start: every player is asked how to start their turn, "turn the top card" or
  "play a joker"; a player without a joker has only the first choice. Asking only joker
  holders would pause play only for them, and that pause splits every other seat's
  events into messages differently: it would tell who holds a joker.
- Laying ("some or all" of the player's cards of the suit, so any subset): after a
  heart, diamond or club is turned (not an ace) the player builds the lay one card at
  a time. Each decision offers "lay" with the cards picked so far first ("lay nothing
  and draw" while none are), then "pick" for each card of the suit still in hand, then
  "lay A♥ and take every ♥" if they hold that ace. The picks are private (no event;
  the player's own observation lists them in `picked`, the cards stay in hand); the
  lay is revealed as one public event when it ends, so the other seats see neither
  the picks nor a message per pick. A pick cannot be taken back.
- Within one suit, 10, J, Q and K are worth the same and behave the same, as do the
  two copies of a card in two decks, so picks differing only there are offered once
  (naming the first such card in hand order). Laying an ace takes every card of its
  suit from every hand, including the layer's own (picked or not), so it is one choice
  that ends the lay at once.
- Every player who turns a heart, diamond or club is asked, holding cards of the suit
  or not (without any, "lay nothing and draw" is the only choice): skipping the
  question would tell the other seats, by the grouping of their events, that the
  player holds none. Laying nothing reads "seat N lays nothing" whatever the reason
  (a choice, no cards of the suit, a spade turned without spades).
- A spade turned forces all the player's spades down, an ace of spades among them
  (which then sweeps every spade onto that row). No decision is asked: the spades laid,
  or "lays nothing", are public either way.
- The hand ends as soon as any hand is empty, checked after every change: a bank and
  its steals that would follow are not played (they could change nothing but steals).
- A steal never targets the thief themself. A steal victim always holds cards (the
  hand would have ended otherwise). A stolen card goes into the thief's hand; a
  face-up card so taken stays known to everyone until it leaves that hand, a random
  hand card only to the thief and the victim. A random steal also ends every other
  seat's knowledge of the cards in the victim's hand (a face-up card stolen into it
  earlier, or a card it got by a random steal): they cannot tell whether it was the
  card taken. Only the victim, and the thief if it knew the card, know where it is;
  so what the other seats are shown does not depend on the card the Chance drew.
  Face-up steals are offered once per distinct face of the victim's row.
- After a spade bank, the other players are asked in turn from the banker's left; each
  sees the earlier steals. If the banker's hand empties, the hand ends at once.
- The turn cap counts turns started in the hand; the turn that would exceed it is not
  started and the hand ends there.
- Game end: at the end of a hand, if someone has reached the target and one player is
  highest, the game ends. A tie at the top plays on, but never past 40 hands
  (MAX_HANDS): then the highest total wins and equal totals share a place.
- Observations show every banked card (each was seen face up before it was turned),
  the discard pile and every face-up row; other hands only by size and by the cards
  everyone saw stolen into them. A hidden-information resample permutes the other
  hands' unknown cards and the deck, keeping the cards the seat knows where they are;
  a lay being built by another player keeps only the picks still in that player's hand
  (the picks are private, so any of them is consistent with what the seat knows).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import cast

from referee.cards import Card, Chance, Rank, Suit, make_deck
from referee.games.base import (
    Action,
    DecisionKind,
    Event,
    Game,
    GameError,
    OptionSpec,
    Result,
    places_from_scores,
    private,
    public,
)
from referee.games.parts import CardGameState, announce_deal, deal_round_robin, faces

HAND_SIZE = 7
MAX_HANDS = 40
BANK_AT = 10
DECK_SMALL: tuple[Card, ...] = make_deck(decks=1, jokers=2)
DECK_LARGE: tuple[Card, ...] = make_deck(decks=2, jokers=4)
TWO_DECKS_FROM = 5
_SUIT_ORDER = {Suit.HEARTS: 0, Suit.DIAMONDS: 1, Suit.CLUBS: 2, Suit.SPADES: 3, None: 4}


def card_value(card: Card) -> int:
    """2-10 their number; J, Q, K and A 10 (jokers 0: they never lie in front)."""
    if card.rank is Rank.JOKER:
        return 0
    return min(int(card.rank), 10)


def _hand_key(card: Card) -> tuple[int, int, int]:
    """Hands and rows sorted by suit (hearts, diamonds, clubs, spades, jokers), then rank."""
    return (_SUIT_ORDER[card.suit], card.rank, card.id)


def _class(card: Card) -> tuple[Suit | None, int]:
    """Cards alike for every rule of Life: same suit and value, aces apart."""
    return (card.suit, 11 if card.rank is Rank.ACE else card_value(card))


# --------------------------------------------------------------------------- wire types


class LifeSuitChoice(Enum):
    """Mirrors the proto enum LifeSuitChoice: a player's suit for the hand."""

    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3
    SPADES = 4

    @property
    def suit(self) -> Suit:
        return _CHOICE_SUITS[self]

    @property
    def symbol(self) -> str:
        return self.suit.symbol


_CHOICE_SUITS = {
    LifeSuitChoice.HEARTS: Suit.HEARTS,
    LifeSuitChoice.DIAMONDS: Suit.DIAMONDS,
    LifeSuitChoice.CLUBS: Suit.CLUBS,
    LifeSuitChoice.SPADES: Suit.SPADES,
}


class LifePhase(Enum):
    """Mirrors the proto enum LifePhase: what is being decided."""

    CHOOSE_SUIT = 1
    TURN = 2
    LAY = 3
    STEAL = 4
    SPADE_STEAL = 5
    OVER = 6


class LifeActionKind(Enum):
    """Mirrors the proto enum LifeActionKind (without its prefix)."""

    CHOOSE_SUIT = 1
    PLAY_JOKER = 2
    TURN_CARD = 3
    LAY = 4
    STEAL = 5
    DECLINE = 6
    PICK = 7


@dataclass(frozen=True)
class LifeAction(Action):
    """One choice. CHOOSE_SUIT names `suit`; PICK the hand card in `cards` added to
    the lay being built; LAY the hand `cards` laid, ending the lay (none: draw instead;
    an ace: lay it and take its suit); STEAL the seat `target` robbed and, from a
    face-up row, the card in `cards` (no card: a random card from that seat's hand)."""

    kind: LifeActionKind
    suit: LifeSuitChoice | None = None
    cards: tuple[Card, ...] = ()
    target: int = 0

    @property
    def label(self) -> str:
        k = self.kind
        if k is LifeActionKind.CHOOSE_SUIT:
            assert self.suit is not None
            return f"play for {self.suit.name.lower()}"
        if k is LifeActionKind.PLAY_JOKER:
            return "play a joker"
        if k is LifeActionKind.TURN_CARD:
            return "turn the top card"
        if k is LifeActionKind.LAY:
            if not self.cards:
                return "lay nothing and draw"
            ace = next((c for c in self.cards if c.rank is Rank.ACE), None)
            if ace is not None:
                assert ace.suit is not None
                return f"lay {ace.face} and take every {ace.suit.symbol}"
            return f"lay {faces(self.cards)}"
        if k is LifeActionKind.PICK:
            return f"pick {self.cards[0].face}"
        if k is LifeActionKind.STEAL:
            if self.cards:
                return f"steal {self.cards[0].face} from seat {self.target}"
            return f"steal a random card from seat {self.target}'s hand"
        return "decline"


TURN_CARD = LifeAction(LifeActionKind.TURN_CARD)
PLAY_JOKER = LifeAction(LifeActionKind.PLAY_JOKER)
DECLINE = LifeAction(LifeActionKind.DECLINE)


@dataclass(frozen=True)
class LifePlayer:
    """What everyone knows of one seat."""

    total: float
    suit: LifeSuitChoice | None
    hand_size: int
    face_up: tuple[Card, ...]
    banked: tuple[Card, ...]
    hand_score: float
    known_hand: tuple[Card, ...]


@dataclass(frozen=True)
class LifeObservation:
    """Everything one seat may know; field names mirror the proto LifeObservation."""

    seat: int
    seats: int
    hand_number: int
    dealer: int
    turn: int
    phase: LifePhase
    hand: tuple[Card, ...]
    players: tuple[LifePlayer, ...]
    deck_size: int
    discard_pile: tuple[Card, ...]
    jokers_removed: int
    turned: Card | None
    victim: int | None
    stealers_waiting: tuple[int, ...]
    turns_this_hand: int
    turn_cap: int
    target: int
    choose_spades: bool
    decks: int
    picked: tuple[Card, ...]


# --------------------------------------------------------------------------- scoring


def half_points(card: Card, choice: LifeSuitChoice | None) -> int:
    """Twice the score of one card in front of a player who chose `choice`."""
    value = card_value(card)
    if card.suit is Suit.SPADES:
        return -value if choice is LifeSuitChoice.SPADES else -2 * value
    if choice is not None and card.suit is choice.suit:
        return 4 * value
    return 2 * value


def front_score(cards: Iterable[Card], choice: LifeSuitChoice | None) -> float:
    """The score of the cards in front of a player (face up and face down)."""
    return sum(half_points(c, choice) for c in cards) / 2


def _points(halves: int) -> float:
    return halves / 2


def _fmt(points: float) -> str:
    return str(int(points)) if points == int(points) else f"{points:.1f}"


# --------------------------------------------------------------------------- state


class LifeState(CardGameState):
    """A game of Life in progress. The deck keeps its top card LAST (O(1) turns)."""

    def __init__(
        self,
        num_seats: int,
        chance: Chance,
        target: int,
        turn_cap: int,
        choose_spades: bool,
    ) -> None:
        self.num_seats = num_seats
        self.chance = chance
        self.target = target
        self.turn_cap = turn_cap
        self.choose_spades = choose_spades
        self.all = DECK_LARGE if num_seats >= TWO_DECKS_FROM else DECK_SMALL
        self.decks = 2 if num_seats >= TWO_DECKS_FROM else 1
        self.hand_number = 0
        self.dealer = num_seats - 1
        self.last_redealer = num_seats - 1
        self.turn = 0
        self.phase = LifePhase.CHOOSE_SUIT
        self.suits: list[LifeSuitChoice | None] = [None] * num_seats
        self.hands: list[list[Card]] = [[] for _ in range(num_seats)]
        self.rows: list[list[Card]] = [[] for _ in range(num_seats)]
        self.banked: list[list[Card]] = [[] for _ in range(num_seats)]
        self.deck: list[Card] = list(self.all)
        self.discard: list[Card] = []
        self.removed: list[Card] = []
        # Who knows a card in a hand: None = everyone; else the seats that know it.
        self.known: dict[Card, frozenset[int] | None] = {}
        self.turned: Card | None = None
        self.victim: int | None = None
        self.stealers: list[int] = []
        # The cards picked so far for the lay being built (private to self.turn).
        self.picked: list[Card] = []
        self.turns = 0
        # The seat whose turn begins next, once the current step is done (turns that
        # need no decision follow each other in a loop, not by recursion).
        self.pending: int | None = None
        self.totals2: list[int] = [0] * num_seats  # totals in half points
        self.hand_scores: list[tuple[float, ...]] = []
        self.over = False
        self._opening: list[Event] = []
        self._legal: dict[int, tuple[LifeAction, ...]] = {}

    # ------------------------------------------------------------------ hands

    def setup(self) -> None:
        events: list[Event] = []
        deck_text = "one deck and 2 jokers" if self.decks == 1 else "two decks and 4 jokers"
        events.append(
            public(
                "game_start",
                f"Life for {self.num_seats} players with {deck_text}, to {self.target} points",
            )
        )
        self._start_hand(self.num_seats - 1, events)
        self._opening = events

    def _start_hand(self, dealer: int, events: list[Event]) -> None:
        n = self.num_seats
        self.hand_number += 1
        self.dealer = dealer
        self.last_redealer = dealer
        self.suits = [None] * n
        self.hands = [[] for _ in range(n)]
        self.rows = [[] for _ in range(n)]
        self.banked = [[] for _ in range(n)]
        self.deck = list(self.all)
        self.discard = []
        self.removed = []
        self.known = {}
        self.turned = None
        self.victim = None
        self.stealers = []
        self.picked = []
        self.turns = 0
        self.pending = None
        self.turn = (dealer + 1) % n
        self.phase = LifePhase.CHOOSE_SUIT
        self._legal = {}
        spades = ", spades at half" if self.choose_spades else ""
        events.append(
            public(
                "hand_start",
                f"hand {self.hand_number}: seat {dealer} deals; every player chooses a suit "
                f"in secret (hearts, diamonds, clubs{spades})",
                dealer,
            )
        )

    def _deal(self, dealer: int, pool: list[Card], events: list[Event]) -> None:
        """Shuffle `pool` and deal 7 to each from the dealer's left; the rest is the deck."""
        n = self.num_seats
        order = self.chance.shuffled(pool)
        self.hands = [[] for _ in range(n)]
        self.known = {}
        seats = [(dealer + k) % n for k in range(1, n + 1)]
        pos = deal_round_robin(order, self.hands, seats, HAND_SIZE)
        self.deck = order[pos:][::-1]
        announce_deal(self.hands, seats, _hand_key, events)

    def _apply_suits(self, choices: Mapping[int, LifeAction], events: list[Event]) -> None:
        for seat in range(self.num_seats):
            self.suits[seat] = choices[seat].suit
        listing = ", ".join(
            f"seat {s} {c.name.lower()}" for s, c in enumerate(self.suits) if c is not None
        )
        events.append(public("suits", f"the suits are revealed: {listing}"))
        self._deal(self.dealer, list(self.all), events)
        self.pending = self.turn

    def _end_hand(self, reason: str, events: list[Event]) -> None:
        n = self.num_seats
        events.append(public("hand_end", f"the hand ends: {reason}"))
        row: list[float] = []
        for seat in range(n):
            front = self.banked[seat] + self.rows[seat]
            halves = sum(half_points(c, self.suits[seat]) for c in front)
            self.totals2[seat] += halves
            row.append(_points(halves))
            events.append(
                public(
                    "hand_score",
                    f"seat {seat} scores {_fmt(_points(halves))} for "
                    f"{len(front)} card{'' if len(front) == 1 else 's'} in front "
                    f"(total {_fmt(_points(self.totals2[seat]))})",
                    seat,
                    sorted(front, key=_hand_key),
                )
            )
        self.hand_scores.append(tuple(row))
        top = max(self.totals2)
        leaders = [s for s in range(n) if self.totals2[s] == top]
        if top >= 2 * self.target and len(leaders) == 1:
            self._end_game(f"seat {leaders[0]} reaches {self.target}", events)
        elif self.hand_number >= MAX_HANDS:
            self._end_game(f"the {MAX_HANDS}-hand limit is reached", events)
        else:
            if top >= 2 * self.target:
                tied = " and ".join(f"seat {s}" for s in leaders)
                events.append(public("tie", f"{tied} tie at the top: play goes on"))
            self._start_hand((self.last_redealer + 1) % n, events)

    def _end_game(self, reason: str, events: list[Event]) -> None:
        self.over = True
        self.phase = LifePhase.OVER
        self.pending = None
        self.victim = None
        self.stealers = []
        self.turned = None
        self._legal = {}
        totals = [_points(t) for t in self.totals2]
        places = places_from_scores(totals)
        listing = ", ".join(
            f"seat {s} {_fmt(t)} (place {p})" for s, (t, p) in enumerate(zip(totals, places))
        )
        events.append(public("game_end", f"game over, {reason}: {listing}"))

    # ------------------------------------------------------------------ turns

    def _hand_over_if_empty(self, events: list[Event]) -> bool:
        """End the hand if any player holds no cards; True if it ended."""
        empty = [s for s in range(self.num_seats) if not self.hands[s]]
        if not empty:
            return False
        self._end_hand(f"seat {empty[0]} holds no cards", events)
        return True

    def _begin_turn(self, seat: int, events: list[Event]) -> None:
        self.turn = seat
        self.turned = None
        self.victim = None
        self.stealers = []
        self.picked = []
        if self.turns >= self.turn_cap:
            self._end_hand(f"the cap of {self.turn_cap} turns is reached", events)
            return
        self.turns += 1
        events.append(public("turn", f"seat {seat}'s turn", seat))
        # Asked with or without a joker: see the rulings.
        self.phase = LifePhase.TURN
        self._legal = {}

    def _next_turn(self, events: list[Event]) -> None:
        self.pending = (self.turn + 1) % self.num_seats

    def _settle(self, events: list[Event]) -> None:
        """Begin turns until a seat must decide or the game is over."""
        while self.pending is not None and not self.over:
            seat, self.pending = self.pending, None
            self._begin_turn(seat, events)

    def _refill_deck(self, events: list[Event]) -> bool:
        """Make sure the deck has a card: the discards are shuffled into a new deck.
        False (and the hand ends) if there are none."""
        if self.deck:
            return True
        if not self.discard:
            self._end_hand("the deck is empty and there are no discards", events)
            return False
        self.deck = self.chance.shuffled(self.discard)[::-1]
        count = len(self.discard)
        cards = f"{count} card{'' if count == 1 else 's'}"
        events.append(
            public("reshuffle", f"the discard pile ({cards}) is shuffled into a new deck")
        )
        self.discard = []
        return True

    def _turn_card(self, seat: int, events: list[Event]) -> None:
        if not self._refill_deck(events):
            return
        card = self.deck.pop()
        self.turned = card
        events.append(public("turn_card", f"seat {seat} turns {card.face}", seat, (card,)))
        if card.is_joker:
            self.removed.append(card)
            events.append(public("joker", "the joker leaves play", seat, (card,)))
            self._redeal(seat, events)
            return
        self.discard.append(card)
        suit = card.suit
        assert suit is not None
        if card.rank is Rank.ACE:
            self._sweep_to_discard(suit, events)
            if self._hand_over_if_empty(events):
                return
            self._draw(seat, events)
            return
        if suit is Suit.SPADES:
            matching = [c for c in self.hands[seat] if c.suit is suit]
            if matching:
                self._lay(seat, matching, suit, events)
            else:
                self._lay_nothing(seat, events)
            return
        # Asked whether or not they hold cards of the suit: see the rulings.
        self.phase = LifePhase.LAY
        self.picked = []
        self._legal = {}

    def _lay_nothing(self, seat: int, events: list[Event]) -> None:
        """The same public text whatever the reason, then the draw."""
        events.append(public("lay_nothing", f"seat {seat} lays nothing", seat))
        self._draw(seat, events)

    def _draw(self, seat: int, events: list[Event]) -> None:
        """The player laid nothing: they pick up a card, and the turn ends."""
        if not self._refill_deck(events):
            return
        card = self.deck.pop()
        self.hands[seat].append(card)
        self.hands[seat].sort(key=_hand_key)
        events.append(private([seat], "draw", f"you draw {card.face}", seat, (card,)))
        events.append(public("draw_count", f"seat {seat} draws a card", seat))
        self._next_turn(events)

    def _take_from_hand(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        self.known.pop(card, None)

    def _sweep_to_discard(self, suit: Suit, events: list[Event]) -> None:
        """An ace turned from the deck: every card of its suit in hands and rows is discarded."""
        for seat in range(self.num_seats):
            gone = [c for c in self.hands[seat] if c.suit is suit]
            gone += [c for c in self.rows[seat] if c.suit is suit]
            if not gone:
                continue
            for card in gone:
                if card in self.rows[seat]:
                    self.rows[seat].remove(card)
                else:
                    self._take_from_hand(seat, card)
            self.discard.extend(gone)
            text = f"seat {seat} discards {faces(gone)} onto the ace"
            events.append(public("ace_discard", text, seat, gone))

    def _redeal(self, seat: int, events: list[Event]) -> None:
        """A joker: everything but banked cards is shuffled and 7 dealt to each."""
        n = self.num_seats
        self.last_redealer = seat
        pool = list(self.deck) + self.discard
        for s in range(n):
            pool += self.rows[s] + self.hands[s]
            self.rows[s] = []
            self.hands[s] = []
        self.discard = []
        self.known = {}
        if len(pool) < HAND_SIZE * n:
            self.deck = pool
            self._end_hand(
                f"only {len(pool)} cards are left to redeal, fewer than {HAND_SIZE} each",
                events,
            )
            return
        events.append(public("redeal", f"seat {seat} shuffles {len(pool)} cards and redeals", seat))
        self._deal(seat, pool, events)
        self._next_turn(events)

    # ------------------------------------------------------------------ laying

    def _lay_actions(self, seat: int) -> tuple[LifeAction, ...]:
        """End the lay with the cards picked so far; pick one more card (once per
        value); or lay an ace at once."""
        assert self.turned is not None
        suit = self.turned.suit
        kind = LifeActionKind.LAY
        actions = [LifeAction(kind, None, tuple(sorted(self.picked, key=_hand_key)))]
        seen: set[tuple[Suit | None, int]] = set()
        aces: list[Card] = []
        for card in self.hands[seat]:
            if card.suit is not suit or card in self.picked:
                continue
            if card.rank is Rank.ACE:
                aces.append(card)
                continue
            key = _class(card)
            if key not in seen:
                seen.add(key)
                actions.append(LifeAction(LifeActionKind.PICK, None, (card,)))
        if aces:
            actions.append(LifeAction(kind, None, (aces[0],)))
        return tuple(actions)

    def _lay(self, seat: int, cards: Sequence[Card], suit: Suit, events: list[Event]) -> None:
        """Lay `cards` face up (an ace sweeps its suit onto the row), then bank."""
        ace = next((c for c in cards if c.rank is Rank.ACE), None)
        laid = list(cards)
        if ace is not None:
            laid = [c for c in self.hands[seat] if c.suit is suit]
        for card in laid:
            self._take_from_hand(seat, card)
        self.rows[seat].extend(laid)
        self.rows[seat].sort(key=_hand_key)
        events.append(public("lay", f"seat {seat} lays {faces(laid)}", seat, laid))
        if ace is not None:
            for other in range(self.num_seats):
                if other == seat:
                    continue
                taken = [c for c in self.hands[other] if c.suit is suit]
                taken += [c for c in self.rows[other] if c.suit is suit]
                if not taken:
                    continue
                for card in taken:
                    if card in self.rows[other]:
                        self.rows[other].remove(card)
                    else:
                        self._take_from_hand(other, card)
                self.rows[seat].extend(taken)
                text = f"seat {seat}'s {ace.face} takes {faces(taken)} from seat {other}"
                events.append(public("ace_take", text, seat, taken))
            self.rows[seat].sort(key=_hand_key)
        if self._hand_over_if_empty(events):
            return
        up = [c for c in self.rows[seat] if c.suit is suit]
        total = sum(card_value(c) for c in up)
        if total < BANK_AT:
            self._next_turn(events)
            return
        for card in up:
            self.rows[seat].remove(card)
        self.banked[seat].extend(up)
        text = f"seat {seat} banks {faces(up)} ({total} points of {suit.name.lower()}) face down"
        events.append(public("bank", text, seat, up))
        if suit is Suit.SPADES:
            n = self.num_seats
            self.victim = seat
            self.stealers = [(seat + k) % n for k in range(1, n)]
            self._next_spade_steal(events)
        else:
            self.phase = LifePhase.STEAL
            self._legal = {}

    # ------------------------------------------------------------------ steals

    def _steal_options(self, thief: int, victim: int) -> list[LifeAction]:
        kind = LifeActionKind.STEAL
        row = self.rows[victim]
        if not row:
            return [LifeAction(kind, None, (), victim)]
        seen: set[tuple[Rank, Suit | None]] = set()
        options: list[LifeAction] = []
        for card in row:
            key = (card.rank, card.suit)
            if key not in seen:
                seen.add(key)
                options.append(LifeAction(kind, None, (card,), victim))
        return options

    def _steal_actions(self, seat: int) -> tuple[LifeAction, ...]:
        actions: list[LifeAction] = []
        n = self.num_seats
        if self.phase is LifePhase.SPADE_STEAL:
            assert self.victim is not None
            actions = self._steal_options(seat, self.victim)
        else:
            for k in range(1, n):
                actions.extend(self._steal_options(seat, (seat + k) % n))
        return (*actions, DECLINE)

    def _steal(self, thief: int, action: LifeAction, events: list[Event]) -> None:
        victim = action.target
        if action.cards:
            card = action.cards[0]
            self.rows[victim].remove(card)
            self.known[card] = None
            text = f"seat {thief} steals {card.face} from seat {victim}'s face-up cards"
            events.append(public("steal", text, thief, (card,)))
        else:
            hand = self.hands[victim]
            # Whichever card is taken, no seat but the thief and the victim can tell
            # where the cards it knew in the victim's hand are now: the victim's hand
            # or the thief's. Forget that knowledge before the draw, so that what the
            # others are shown does not depend on the card drawn (see the rulings).
            for held in hand:
                if held in self.known:
                    who = self.known[held]
                    knew = who is None or thief in who
                    self.known[held] = frozenset({thief, victim} if knew else {victim})
            card = hand[self.chance.choice(len(hand))]
            self._take_from_hand(victim, card)
            self.known[card] = frozenset({thief, victim})
            events.append(
                private(
                    [thief, victim],
                    "steal_hand",
                    f"seat {thief} steals {card.face} at random from seat {victim}'s hand",
                    thief,
                    (card,),
                )
            )
            events.append(
                public(
                    "steal_hand_count",
                    f"seat {thief} steals a random card from seat {victim}'s hand",
                    thief,
                )
            )
        self.hands[thief].append(card)
        self.hands[thief].sort(key=_hand_key)

    def _next_spade_steal(self, events: list[Event]) -> None:
        """Ask the next player who may steal from the spade banker, or end the turn."""
        if self.stealers:
            self.phase = LifePhase.SPADE_STEAL
            self._legal = {}
            return
        self.victim = None
        self._next_turn(events)

    # ------------------------------------------------------------------ GameState

    def deciders(self) -> tuple[int, ...]:
        phase = self.phase
        if phase is LifePhase.OVER:
            return ()
        if phase is LifePhase.CHOOSE_SUIT:
            return tuple(range(self.num_seats))
        if phase is LifePhase.SPADE_STEAL:
            return (self.stealers[0],)
        return (self.turn,)

    def in_turn(self) -> int | None:
        if self.phase in (LifePhase.CHOOSE_SUIT, LifePhase.OVER):
            return None
        return self.turn

    def decision_kinds(self) -> dict[int, DecisionKind]:
        phase = self.phase
        if phase is LifePhase.OVER:
            return {}
        if phase is LifePhase.CHOOSE_SUIT:
            return dict.fromkeys(range(self.num_seats), DecisionKind.SIMULTANEOUS)
        if phase is LifePhase.SPADE_STEAL:
            seat = self.stealers[0]  # another player steals from the one in turn
            kind = DecisionKind.IN_TURN if seat == self.turn else DecisionKind.OUT_OF_TURN
            return {seat: kind}
        return {self.turn: DecisionKind.IN_TURN}

    def _legal_actions(self, seat: int) -> tuple[LifeAction, ...]:
        actions = self._legal.get(seat)
        if actions is None:
            actions = self._compute_legal(seat)
            self._legal[seat] = actions
        return actions

    def _compute_legal(self, seat: int) -> tuple[LifeAction, ...]:
        phase = self.phase
        if phase is LifePhase.CHOOSE_SUIT:
            choices = list(LifeSuitChoice)
            if not self.choose_spades:
                choices.remove(LifeSuitChoice.SPADES)
            return tuple(LifeAction(LifeActionKind.CHOOSE_SUIT, c) for c in choices)
        if phase is LifePhase.TURN:
            if any(c.is_joker for c in self.hands[seat]):
                return (TURN_CARD, PLAY_JOKER)
            return (TURN_CARD,)
        if phase is LifePhase.LAY:
            return self._lay_actions(seat)
        return self._steal_actions(seat)

    def _apply(self, choices: Mapping[int, Action]) -> list[Event]:
        deciders = self.deciders()
        checked = {seat: cast(LifeAction, action) for seat, action in choices.items()}
        events: list[Event] = []
        self._legal = {}
        self._perform(deciders[0], checked, events)
        self._settle(events)
        return events

    def _perform(self, seat: int, checked: Mapping[int, LifeAction], events: list[Event]) -> None:
        phase = self.phase
        if phase is LifePhase.CHOOSE_SUIT:
            self._apply_suits(checked, events)
            return
        action = checked[seat]
        if phase is LifePhase.TURN:
            if action.kind is LifeActionKind.PLAY_JOKER:
                joker = next(c for c in self.hands[seat] if c.is_joker)
                self._take_from_hand(seat, joker)
                self.removed.append(joker)
                events.append(public("play_joker", f"seat {seat} plays a joker", seat, (joker,)))
                self._redeal(seat, events)
            else:
                self._turn_card(seat, events)
        elif phase is LifePhase.LAY:
            if action.kind is LifeActionKind.PICK:
                # Private: no event, so no message to anyone (see the rulings).
                self.picked.append(action.cards[0])
                return
            self.picked = []
            if not action.cards:
                self._lay_nothing(seat, events)
            else:
                assert self.turned is not None and self.turned.suit is not None
                self._lay(seat, action.cards, self.turned.suit, events)
        elif phase is LifePhase.STEAL:
            if action.kind is LifeActionKind.STEAL:
                self._steal(seat, action, events)
                if self._hand_over_if_empty(events):
                    return
            else:
                events.append(public("decline", f"seat {seat} steals nothing", seat))
            self._next_turn(events)
        else:
            self.stealers.pop(0)
            if action.kind is LifeActionKind.STEAL:
                self._steal(seat, action, events)
                if self._hand_over_if_empty(events):
                    return
            else:
                events.append(public("decline", f"seat {seat} steals nothing", seat))
            self._next_spade_steal(events)

    # ------------------------------------------------------------------ views

    def _known_hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(c for c in self.hands[seat] if c in self.known and self.known[c] is None)

    def observe(self, seat: int) -> LifeObservation:
        show_suits = self.phase is not LifePhase.CHOOSE_SUIT
        players = tuple(
            LifePlayer(
                total=_points(self.totals2[s]),
                suit=self.suits[s] if show_suits else None,
                hand_size=len(self.hands[s]),
                face_up=tuple(self.rows[s]),
                banked=tuple(self.banked[s]),
                hand_score=front_score(self.banked[s] + self.rows[s], self.suits[s]),
                known_hand=self._known_hand(s),
            )
            for s in range(self.num_seats)
        )
        lay = self.phase in (LifePhase.LAY, LifePhase.STEAL, LifePhase.SPADE_STEAL)
        return LifeObservation(
            seat=seat,
            seats=self.num_seats,
            hand_number=self.hand_number,
            dealer=self.dealer,
            turn=self.turn,
            phase=self.phase,
            hand=tuple(self.hands[seat]),
            players=players,
            deck_size=len(self.deck),
            discard_pile=tuple(self.discard),
            jokers_removed=len(self.removed),
            turned=self.turned if lay else None,
            victim=self.victim if self.phase is LifePhase.SPADE_STEAL else None,
            stealers_waiting=tuple(self.stealers[1:]),
            turns_this_hand=self.turns,
            turn_cap=self.turn_cap,
            target=self.target,
            choose_spades=self.choose_spades,
            decks=self.decks,
            picked=tuple(self.picked) if self.phase is LifePhase.LAY and seat == self.turn else (),
        )

    @property
    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise GameError("the game is not over yet")
        totals = tuple(_points(t) for t in self.totals2)
        return Result(
            scores=totals,
            places=places_from_scores(totals),
            hand_scores=tuple(self.hand_scores),
        )

    def all_cards(self) -> list[Card]:
        cards = [c for h in self.hands for c in h]
        cards.extend(c for r in self.rows for c in r)
        cards.extend(c for b in self.banked for c in b)
        cards.extend(self.deck)
        cards.extend(self.discard)
        cards.extend(self.removed)
        return cards

    # ------------------------------------------------------------------ copies

    def clone(self) -> LifeState:
        """A fast exact copy (cards and actions are immutable and shared)."""
        new = self._copy_shell()
        new.suits = list(self.suits)
        new.hands = [list(h) for h in self.hands]
        new.rows = [list(r) for r in self.rows]
        new.banked = [list(b) for b in self.banked]
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.removed = list(self.removed)
        new.known = dict(self.known)
        new.stealers = list(self.stealers)
        new.picked = list(self.picked)
        new.totals2 = list(self.totals2)
        new.hand_scores = list(self.hand_scores)
        new._legal = dict(self._legal)
        return new

    def resample_hidden(self, seat: int, rng: random.Random) -> LifeState:
        """Permute the cards `seat` cannot place (other hands' unknown cards and the
        deck) among those places, keeping sizes and the cards `seat` knows."""
        new = self.clone()
        new.chance = Chance(rng.getrandbits(64))
        others = [s for s in range(self.num_seats) if s != seat]

        def knows(card: Card) -> bool:
            if card not in new.known:
                return False
            who = new.known[card]
            return who is None or seat in who

        unknown = {s: [c for c in new.hands[s] if not knows(c)] for s in others}
        pool = [c for s in others for c in unknown[s]] + new.deck
        rng.shuffle(pool)
        pos = 0
        for s in others:
            size = len(unknown[s])
            kept = [c for c in new.hands[s] if knows(c)]
            new.hands[s] = sorted(kept + pool[pos : pos + size], key=_hand_key)
            pos += size
        new.deck = pool[pos:]
        # A lay being built by another seat keeps the picks still in that hand.
        new.picked = [c for c in new.picked if c in new.hands[new.turn]]
        # Cards moved: no other seat's private knowledge of them holds in the copy.
        new.known = {c: w for c, w in new.known.items() if w is None or seat in w}
        new._legal = {s: a for s, a in new._legal.items() if s == seat}
        return new


# --------------------------------------------------------------------------- game


def _positive(options: Mapping[str, str], name: str, default: str) -> int:
    value = int(options.get(name, default))
    if value < 1:
        raise GameError(f"option {name} must be at least 1, not {value}")
    return value


class Life(Game):
    """Life for 2-6 players; see the module docstring for the rulings."""

    name = "life"
    title = "Life"
    wire_name = "life"
    min_seats = 2
    max_seats = 6
    one_player = False
    simultaneous = True
    options = (
        OptionSpec(
            "choose_spades",
            "false",
            "players may choose spades as their suit; their spades then count half",
            choices=("false", "true"),
        ),
        OptionSpec("target", "100", "the total that wins at the end of a hand", is_int=True),
        OptionSpec("turn_cap", "400", "turns per hand after which the hand ends", is_int=True),
    )
    summary = (
        "2-6 players; one deck + 2 jokers (two decks + 4 jokers for 5-6).\n"
        "Before each hand all choose a suit at once: hearts, diamonds or clubs\n"
        "(spades too with choose_spades, at half). Deal 7 each; left of dealer starts.\n"
        "Turn: play a joker from hand, or turn the top card. Heart, diamond, club:\n"
        "you may lay any of your cards of that suit face up (picked one at a time,\n"
        "then laid together); spade: lay all your spades.\n"
        "Laying nothing: draw a card. 10+ points of the suit face up (A K Q J 10)\n"
        "are banked face down; then you may steal a card from anyone (after a\n"
        "spade bank, everyone else may steal one from you). A steal takes a face-up\n"
        "card if the victim has one, else a random hand card. An ace turned\n"
        "discards its suit from hands and rows; an ace laid takes it onto your row.\n"
        "A joker, played or turned, leaves play; all not banked is reshuffled and\n"
        "7 dealt to each. The hand ends when someone has no cards. Cards in front\n"
        "score: your suit double, spades minus, others plain. First to the target\n"
        "(100) at a hand's end wins."
    )

    def new_state(self, num_seats: int, chance: Chance, options: Mapping[str, str]) -> LifeState:
        if not self.min_seats <= num_seats <= self.max_seats:
            raise GameError(f"life is played by 2-6 players, not {num_seats}")
        state = LifeState(
            num_seats,
            chance,
            target=_positive(options, "target", "100"),
            turn_cap=_positive(options, "turn_cap", "400"),
            choose_spades=options.get("choose_spades", "false") == "true",
        )
        state.setup()
        return state
