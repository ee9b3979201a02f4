"""Tjuv (Tattare): a fishing game that captures by suit and steals opponents' piles.

The rule text is tjuv.txt (the 1922 rules, with Schenkmanis' 1988 variation); the
rulings file next to the rule texts settles its gaps and outranks it. One game is
one deal of the 36-card pack. Every turn has three steps: play a card (it captures
every lower table card of its suit, and with them every opponent pile topped by a
lower card of that suit), draw, and bring the table back up to three cards: from
hand with `rules=1922` (default), straight from the talon with `rules=1988`.

Rulings
-------
From the rulings file, common to all games:
- Every physical card has a stable id; chance comes only from the game's Chance
  (a shuffle "and cut" is one shuffle); "to the left" and "clockwise" mean seat + 1.
- Every decision is one choice from an enumerated list.

From the rulings file, Tjuv / Tattare:
- 2-6 players; 36 cards (A K Q J 10 9 8 7 6 in each suit, ace high).
- Deal 3 each; every player at once puts the lowest-ranked card of their hand face
  up on the table (a simultaneous decision of all players, see below). With 2
  players the dealer adds the top deck card. With more than 3, three table cards
  stay: the highest-ranked are removed (ties broken by the RNG), shuffled and put
  under the deck. Then one more card is dealt to each player.
- Turn: (1) play one card; it captures every table card of its suit ranked below
  it, and must when any exists; a capture also takes every opponent pile whose top
  card is of that suit and lower rank; all of it forms one new pile, the played card
  on top. With no capture the card stays on the table. (2) Draw one card if the
  talon has any. (3) While the table holds fewer than 3 cards and the talon has
  cards: `rules=1922` lay any hand card face up (no capture) and draw;
  `rules=1988` turn talon cards straight onto the table.
- A player never captures their own piles.
- The game ends when no player holds a card; the last player to play takes what is
  left on the table. Score: the number of captured cards; most wins.

Decisions of this engine where both texts are silent:
- One game is one deal. The last seat deals, so seat 0 (left of the dealer) plays
  first; a tournament rotates the seats over the same deal, so every player holds
  every position. (The text's rule for the next game's dealer has no use here.)
- Cards are dealt one at a time clockwise from the dealer's left, three rounds, and
  the fourth card later likewise. Index 0 of the shuffle is the top of the deck.
- The put-out is one simultaneous decision of every player: each chooses which of
  the cards of its lowest rank to put out, so a player whose lowest rank is held
  once has that card as its only choice. Nothing is turned up until every choice
  is made, then all the cards turn up together. Asking everyone keeps private who
  holds tied lowest cards: nothing public (no event, no difference in who is
  asked or in how the events are grouped) tells two cards of one rank apart from
  one. A hidden-information resample therefore permutes the other hands freely.
- With more than 3 players the dealer removes the n-3 highest-ranked table cards;
  where a rank straddles the cut, the RNG picks uniformly which of its cards go.
  The removed cards are shuffled and put under the talon: which cards they are is
  public (the observation's `talon_bottom`), their order is not.
- "Must capture" concerns the card, not the choice of card: a player may play any
  hand card (the text: a player who "does not want to capture" lays a card out),
  and the card played captures everything it can; a capturing card can never be
  laid out without capturing. All lower table cards of the suit go, not a choice.
- A capture takes every qualifying pile of every opponent (any of their piles, not
  only the newest one), but only when the card also captures at least one table
  card. The new pile is: the captured table cards (in the order they lay), then the
  stolen piles (opponents clockwise from the capturer, each pile oldest first,
  bottom to top), then the played card on top. A pile's top card is its last card.
- Every card reaches a pile face up, so piles are shown whole (only their top cards
  matter for play; the counts decide the game).
- Step 3 with `rules=1922`: the hand always holds three cards then (it was just
  refilled), so the lay is a real decision among them; each lay is followed by its
  draw, and the step repeats until the table holds three cards or the talon is
  empty. With `rules=1988` the turn-up is automatic. Step 3 comes after the draw of
  step 2, so a talon emptied by step 2 ends the turn.
- Turns pass clockwise to the next seat holding cards (in practice every hand runs
  out in the same round). When all hands are empty the player who played the last
  card (step 1) takes the table cards, if any, as one more pile.
- The score is the number of cards in a seat's piles; equal counts share a place.
- A draw shows the card to the drawer and announces only the count to all.
- Nothing private leaks through the events: what every other seat receives depends
  only on public information.
- A hidden-information resample permutes the other hands and the talon among
  themselves, keeping what the seat knows about positions: the removed cards lie at
  the bottom of the talon, and a seat that drew from that bottom part holds as many
  of them as it drew and has not played. It ignores the weak inference from the
  put-out (a seat's other first cards ranked no lower than the card it put out).
  The copy gets a freshly seeded chance.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import cast

from referee.cards import Card, Chance, Rank, make_deck
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
from referee.games.parts import CardGameState, announce_deal, by_id, faces

RANKS: tuple[Rank, ...] = (
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)
DECK: tuple[Card, ...] = make_deck(ranks=RANKS)
HAND_SIZE = 3
TABLE_SIZE = 3
RULES = ("1922", "1988")


def _sorted(cards: Iterable[Card]) -> list[Card]:
    """Hands stay in id order: by suit, then rank (the deck's order)."""
    return sorted(cards, key=by_id)


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


# --------------------------------------------------------------------------- wire types


class TjuvPhase(Enum):
    """Mirrors the proto enum TjuvPhase (without its prefix)."""

    PUT_OUT = 1
    PLAY = 2
    REPLENISH = 3


class TjuvActionKind(Enum):
    """Mirrors the proto enum TjuvActionKind (without its prefix)."""

    PUT_OUT = 1
    PLAY = 2
    LAY = 3


_VERBS = {
    TjuvActionKind.PUT_OUT: "put out",
    TjuvActionKind.PLAY: "play",
    TjuvActionKind.LAY: "lay",
}


@dataclass(frozen=True)
class TjuvAction(Action):
    """One choice: `card` is the hand card put out, played or laid."""

    kind: TjuvActionKind
    card: Card

    @property
    def label(self) -> str:
        return f"{_VERBS[self.kind]} {self.card.face}"


@dataclass(frozen=True)
class TjuvPile:
    """One pile of captured cards, bottom first; the last card is its top."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class TjuvStore:
    """A seat's captured piles, oldest first."""

    piles: tuple[TjuvPile, ...]


@dataclass(frozen=True)
class TjuvObservation:
    """Everything one seat may know; field names mirror the proto TjuvObservation."""

    seat: int
    seats: int
    rules: str
    dealer: int
    phase: TjuvPhase
    turn: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    stores: tuple[TjuvStore, ...]
    captured: tuple[int, ...]
    talon_size: int
    talon_bottom: tuple[Card, ...]


# --------------------------------------------------------------------------- state


class TjuvState(CardGameState):
    """A game of Tjuv in progress. The talon list keeps its top card LAST (O(1) draws)."""

    def __init__(self, num_seats: int, chance: Chance, rules: str) -> None:
        self.num_seats = num_seats
        self.chance = chance
        self.rules = rules
        self.dealer = num_seats - 1
        self.turn = 0
        self.phase = TjuvPhase.PUT_OUT
        self.hands: list[list[Card]] = [[] for _ in range(num_seats)]
        self.table: list[Card] = []
        self.piles: list[list[list[Card]]] = [[] for _ in range(num_seats)]
        self.talon: list[Card] = []
        self.talon_bottom: tuple[Card, ...] = ()
        self.last_player: int | None = None
        self.over = False
        self._opening: list[Event] = []

    # ------------------------------------------------------------------ setup

    def _clockwise(self, start: int) -> list[int]:
        """Every seat once, clockwise, beginning with `start`."""
        n = self.num_seats
        return [(start + k) % n for k in range(n)]

    def setup(self) -> None:
        """Deal three each and put out the lowest cards (called once by Tjuv)."""
        events: list[Event] = []
        n = self.num_seats
        order = self.chance.shuffled(DECK)
        self.talon = order[::-1]
        events.append(
            public("deal_start", f"seat {self.dealer} deals {HAND_SIZE} cards each", self.dealer)
        )
        first = (self.dealer + 1) % n
        for _ in range(HAND_SIZE):
            for seat in self._clockwise(first):
                self.hands[seat].append(self.talon.pop())
        announce_deal(self.hands, self._clockwise(first), by_id, events)
        self._opening = events

    def _lowest(self, seat: int) -> list[Card]:
        """The cards of the lowest rank in `seat`'s hand."""
        hand = self.hands[seat]
        low = min(c.rank for c in hand)
        return [c for c in hand if c.rank is low]

    def _put_out(self, chosen: Mapping[int, Card], events: list[Event]) -> None:
        """Every seat's lowest card turns up at once; then the table is settled to three."""
        n = self.num_seats
        for seat in self._clockwise((self.dealer + 1) % n):
            card = chosen[seat]
            self.hands[seat].remove(card)
            self.table.append(card)
            events.append(public("put_out", f"seat {seat} puts out {card.face}", seat, (card,)))
        if n == 2:
            card = self.talon.pop()
            self.table.append(card)
            text = f"seat {self.dealer} (the dealer) turns up {card.face} from the deck"
            events.append(public("turn_up", text, self.dealer, (card,)))
        elif n > TABLE_SIZE:
            self._remove_extra(events)
        first = (self.dealer + 1) % n
        for seat in self._clockwise(first):
            self._draw(seat, events, kind="deal_more")
        self.phase = TjuvPhase.PLAY
        self.turn = first
        events.append(public("play_start", f"seat {first} plays first", first))

    def _remove_extra(self, events: list[Event]) -> None:
        """Keep three table cards: the highest-ranked go, shuffled, under the deck."""
        need = len(self.table) - TABLE_SIZE
        removed: list[Card] = []
        for rank in sorted({c.rank for c in self.table}, reverse=True):
            if need == 0:
                break
            group = [c for c in self.table if c.rank is rank]
            while group and need:
                pick = group.pop(self.chance.choice(len(group)) if len(group) > need else 0)
                removed.append(pick)
                need -= 1
        self.table = [c for c in self.table if c not in removed]
        packet = self.chance.shuffled(_sorted(removed))
        # The packet's first card lies just under the old bottom; the talon's bottom is index 0.
        self.talon[:0] = packet[::-1]
        self.talon_bottom = tuple(_sorted(removed))
        text = (
            f"seat {self.dealer} (the dealer) removes {faces(self.talon_bottom)} from the table"
            " and puts them, shuffled, under the deck"
        )
        events.append(public("remove", text, self.dealer, self.talon_bottom))

    # ------------------------------------------------------------------ GameState

    def deciders(self) -> tuple[int, ...]:
        if self.over:
            return ()
        if self.phase is TjuvPhase.PUT_OUT:
            return tuple(range(self.num_seats))  # everyone, tie or not
        return (self.turn,)

    def in_turn(self) -> int | None:
        if self.over or self.phase is TjuvPhase.PUT_OUT:
            return None
        return self.turn

    def decision_kinds(self) -> dict[int, DecisionKind]:
        if self.over:
            return {}
        if self.phase is TjuvPhase.PUT_OUT:
            return dict.fromkeys(range(self.num_seats), DecisionKind.SIMULTANEOUS)
        return {self.turn: DecisionKind.IN_TURN}

    def _legal_actions(self, seat: int) -> tuple[TjuvAction, ...]:
        if self.phase is TjuvPhase.PUT_OUT:
            return tuple(TjuvAction(TjuvActionKind.PUT_OUT, c) for c in self._lowest(seat))
        kind = TjuvActionKind.PLAY if self.phase is TjuvPhase.PLAY else TjuvActionKind.LAY
        return tuple(TjuvAction(kind, c) for c in self.hands[seat])

    def _apply(self, choices: Mapping[int, Action]) -> list[Event]:
        deciders = self.deciders()
        cards = {seat: cast(TjuvAction, action).card for seat, action in choices.items()}
        events: list[Event] = []
        if self.phase is TjuvPhase.PUT_OUT:
            self._put_out(cards, events)
        elif self.phase is TjuvPhase.PLAY:
            self._play(deciders[0], cards[deciders[0]], events)
        else:
            self._lay(deciders[0], cards[deciders[0]], events)
        return events

    # ------------------------------------------------------------------ the turn

    def _play(self, seat: int, card: Card, events: list[Event]) -> None:
        """Step 1, then the draw of step 2 and the replenishing of step 3."""
        self.hands[seat].remove(card)
        self.last_player = seat
        lower = [t for t in self.table if t.suit is card.suit and t.rank < card.rank]
        if lower:
            self.table = [t for t in self.table if t not in lower]
            new_pile = list(lower)
            stolen: list[str] = []
            for victim in self._clockwise(seat)[1:]:
                kept: list[list[Card]] = []
                for pile in self.piles[victim]:
                    top = pile[-1]
                    if top.suit is card.suit and top.rank < card.rank:
                        new_pile.extend(pile)
                        stolen.append(f"seat {victim}'s pile of {len(pile)} (top {top.face})")
                    else:
                        kept.append(pile)
                self.piles[victim] = kept
            new_pile.append(card)
            self.piles[seat].append(new_pile)
            text = f"seat {seat} plays {card.face} and captures {faces(lower)} from the table"
            if stolen:
                text += " and steals " + ", ".join(stolen)
            text += f": a new pile of {len(new_pile)}"
            events.append(public("capture", text, seat, new_pile))
        else:
            self.table.append(card)
            text = f"seat {seat} plays {card.face}, which captures nothing and stays on the table"
            events.append(public("play", text, seat, (card,)))
        self._draw(seat, events)
        self._replenish(seat, events)

    def _lay(self, seat: int, card: Card, events: list[Event]) -> None:
        """Step 3 with the 1922 rules: a hand card face up (no capture), then a draw."""
        self.hands[seat].remove(card)
        self.table.append(card)
        text = f"seat {seat} lays {card.face} on the table (step 3: no capture)"
        events.append(public("lay", text, seat, (card,)))
        self._draw(seat, events)
        self._replenish(seat, events)

    def _draw(self, seat: int, events: list[Event], kind: str = "draw") -> None:
        if not self.talon:
            return
        card = self.talon.pop()
        hand = self.hands[seat]
        hand.append(card)
        hand.sort(key=by_id)
        left = f"{_count(len(self.talon), 'card')} left"
        if kind == "draw":
            mine, theirs = f"you draw {card.face}", f"seat {seat} draws a card ({left})"
        else:
            mine, theirs = f"you are dealt {card.face}", f"seat {seat} is dealt a card ({left})"
        events.append(private([seat], kind, mine, seat, (card,)))
        events.append(public(f"{kind}_count", theirs, seat))
        if not self.talon:
            events.append(public("talon_empty", "the talon is empty"))

    def _replenish(self, seat: int, events: list[Event]) -> None:
        """Step 3 until the table holds three cards or the talon is empty; then the turn passes."""
        while len(self.table) < TABLE_SIZE and self.talon:
            if self.rules == "1922":
                self.phase = TjuvPhase.REPLENISH
                return
            card = self.talon.pop()
            self.table.append(card)
            text = f"seat {seat} turns {card.face} from the talon onto the table"
            events.append(public("turn_up", text, seat, (card,)))
        self.phase = TjuvPhase.PLAY
        self._next_turn(seat, events)

    def _next_turn(self, seat: int, events: list[Event]) -> None:
        for nxt in self._clockwise((seat + 1) % self.num_seats):
            if self.hands[nxt]:
                self.turn = nxt
                return
        self._end(events)

    def _end(self, events: list[Event]) -> None:
        last = self.last_player
        assert last is not None
        if self.table:
            self.piles[last].append(list(self.table))
            text = (
                f"seat {last} played the last card and takes the "
                f"{_count(len(self.table), 'card')} left on the table: {faces(self.table)}"
            )
            events.append(public("last_take", text, last, self.table))
            self.table = []
        self.over = True
        counts = self.captured()
        places = places_from_scores(counts)
        listing = ", ".join(
            f"seat {s} {counts[s]} cards (place {places[s]})" for s in range(self.num_seats)
        )
        events.append(public("game_end", f"game over: {listing}"))

    # ------------------------------------------------------------------ views

    def captured(self) -> tuple[int, ...]:
        return tuple(sum(len(p) for p in piles) for piles in self.piles)

    def observe(self, seat: int) -> TjuvObservation:
        return TjuvObservation(
            seat=seat,
            seats=self.num_seats,
            rules=self.rules,
            dealer=self.dealer,
            phase=self.phase,
            turn=self.in_turn(),
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            table=tuple(self.table),
            stores=tuple(
                TjuvStore(tuple(TjuvPile(tuple(p)) for p in piles)) for piles in self.piles
            ),
            captured=self.captured(),
            talon_size=len(self.talon),
            talon_bottom=self.talon_bottom,
        )

    @property
    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise GameError("the game is not over yet")
        counts = tuple(float(c) for c in self.captured())
        return Result(scores=counts, places=places_from_scores(counts))

    def all_cards(self) -> list[Card]:
        cards = [c for h in self.hands for c in h]
        cards.extend(self.table)
        cards.extend(c for piles in self.piles for p in piles for c in p)
        cards.extend(self.talon)
        return cards

    # ------------------------------------------------------------------ copies

    def clone(self) -> TjuvState:
        """A fast exact copy (cards are immutable and shared)."""
        new = self._copy_shell()
        new.hands = [list(h) for h in self.hands]
        new.table = list(self.table)
        new.piles = [[list(p) for p in piles] for piles in self.piles]
        new.talon = list(self.talon)
        return new

    def resample_hidden(self, seat: int, rng: random.Random) -> TjuvState:
        new = self.clone()
        new.chance = Chance(rng.getrandbits(64))
        others = [s for s in range(self.num_seats) if s != seat]
        bottom_ids = {c.id for c in self.talon_bottom}
        # The talon first, then the hands: an rng that leaves the order alone gives
        # back the same deal.
        hidden = self.talon + [c for s in others for c in self.hands[s]]
        from_bottom = [c for c in hidden if c.id in bottom_ids]
        rest = [c for c in hidden if c.id not in bottom_ids]
        rng.shuffle(from_bottom)
        rng.shuffle(rest)
        in_talon = sum(1 for c in self.talon if c.id in bottom_ids)
        # The bottom part of the talon holds only removed cards, the rest only others.
        talon = from_bottom[:in_talon] + rest[: len(self.talon) - in_talon]
        b, r = in_talon, len(self.talon) - in_talon
        for s in others:
            known = sum(1 for c in self.hands[s] if c.id in bottom_ids)
            plain = len(self.hands[s]) - known
            new.hands[s] = _sorted(from_bottom[b : b + known] + rest[r : r + plain])
            b += known
            r += plain
        new.talon = talon
        return new


# --------------------------------------------------------------------------- game


class Tjuv(Game):
    """Tjuv / Tattare for 2-6 players; see the module docstring for the rulings."""

    name = "tjuv"
    title = "Tjuv (Tattare)"
    wire_name = "tjuv"
    min_seats = 2
    max_seats = 6
    one_player = False
    simultaneous = True
    options = (
        OptionSpec(
            "rules",
            "1922",
            "1922: refill the table from hand and draw; 1988: turn talon cards onto the table",
            choices=RULES,
        ),
    )
    summary = (
        "2-6 players, 36 cards (A K Q J 10 9 8 7 6 per suit, ace high); capture by suit.\n"
        "Deal 3 each; everyone puts their lowest card face up on the table at once\n"
        "(with 2 players the dealer adds one from the deck; with more than 3 the highest\n"
        "go under the deck, so three stay); then one more card each.\n"
        "On your turn: (1) play a card. It captures every table card of its suit ranked\n"
        "below it, and with them every opponent pile topped by a lower card of that suit,\n"
        "all into one new pile with your card on top; capturing nothing, it stays on the\n"
        "table. (2) Draw a card. (3) While the table holds fewer than 3 cards and the\n"
        "talon lasts: lay a hand card there (no capture) and draw (rules=1922), or turn\n"
        "talon cards onto the table (rules=1988).\n"
        "When all hands are empty, the last player takes the table. Most cards wins."
    )

    def new_state(self, num_seats: int, chance: Chance, options: Mapping[str, str]) -> TjuvState:
        if not self.min_seats <= num_seats <= self.max_seats:
            raise GameError(f"tjuv is played by 2-6 players, not {num_seats}")
        rules = options.get("rules", "1922")
        if rules not in RULES:
            raise GameError(f"tjuv has no rules {rules!r}")
        state = TjuvState(num_seats, chance, rules)
        state.setup()
        return state
