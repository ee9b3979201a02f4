"""Ghârat: a Persian fishing game; capture from the play pile, or loot an opponent's pile.

The rule text is the "Ghârat" part of thief-four-card-thief-gharat.txt; the rulings
file next to the rule texts settles its gaps and outranks it. Play and the deal go
to the right (seat - 1). A hand deals the whole deck out in rounds of four cards
each; a turn plays one card, which captures from whichever face-up pile its rank
matches. Hands are played until someone reaches the target.

Rulings
-------
From the rulings file, common to all games:
- Every physical card has a stable id; chance comes only from the game's Chance
  (a shuffle "and cut" is one shuffle); "to the right" and "counter-clockwise"
  mean seat - 1.
- Every decision is one choice from an enumerated list.

From the rulings file, Ghârat:
- 2-4 players; one 52-card deck, no jokers; the deal and play go to the right.
- The play pile starts as four stacked face-up cards of which only the top is
  visible to anyone; a buried card becomes visible only when it reaches the top.
  Deal 4 each, starting right of the dealer, who plays first.
- A turn plays one card. If its rank matches the top card of the play pile, of an
  opponent's capture pile or of the player's own pile, it captures: it takes the
  matching card and any further cards of that rank then on top of that pile; on
  one's own pile the card is simply added. If several piles match, the player
  chooses which (the action names the target). If none match, the card goes on
  top of the play pile.
- When all hands are empty, 4 more cards are dealt to each until the stock is gone.
- Each captured card scores 2-10 5, J Q K 10, A 20; the play pile scores for nobody.
  Hands are played until, at the end of a hand, someone has reached the target
  (option `target`, default 1000); the highest total wins; a tie at the top plays
  on. The deal passes to the right.
- Option `partnerships` (4 players only): seats 0+2 and 1+3 add their scores.

Decisions of this engine where both texts are silent:
- The first dealer, the text's "designated dealer", is seat 0; the tournament gives
  the seats and rotates them over duplicate deals, which makes that fair.
- Every hand shuffles all 52 cards anew; index 0 of a shuffle is the top of the
  deck. The dealer lays its first four cards one on the other, the first at the
  bottom, then deals four to each player one card at a time, starting at his right
  and going to the right. The same dealer deals the later rounds of the hand the
  same way (the text's 48 remaining cards always deal out evenly).
- A card that was ever on top of the play pile was seen by everyone and stays
  public; only the cards of the first four that never reached the top are hidden,
  and they are always the bottom of the pile. The observation shows the known part
  of the play pile and the count of buried cards below it.
- A match is compulsory: a card goes onto the play pile only when it matches no
  pile (the text's "if the card played does not match any face-up piles").
- Taking goes on while the pile's new top card, a just uncovered buried card
  included, has the played rank. The capturer's pile gets the played card first,
  then the taken cards in the order taken, so the last captured card is on top.
- A player's lone last card with a single legal play is no decision: the engine
  plays it (the event says so) and bots are not asked. With two or more cards, or
  one card that matches several piles, the player decides: nothing about a hand
  beyond its size is revealed by whether the engine asks.
- Empty piles match nothing; a play pile emptied by a capture is restarted by the
  next card that matches no pile.
- Cards of one rank are interchangeable (suits never matter), so each rank in a
  hand is offered once, naming its lowest-id card; its targets come in the order
  play pile, opponents in seat order, own pile.
- The end: after each hand, if the highest total (the team totals with
  partnerships) is at least the target and held by one player (one team) alone, the
  game ends. A tie at the top plays another hand. A hard cap of 200 hands ends any
  game (random players need 30-80 hands to reach the default target, good players
  fewer; the cap matters only for huge targets); then equal totals share a place.
  The target must be at least 1.
- Partnerships: Result.scores gives each seat its team's total, places rank the
  two teams (1 and 2, or 1 and 1 when tied), hand_scores give each seat its team's
  points of each hand, and Result.teams is ((0, 2), (1, 3)). The observation still
  shows each seat's own points. Partnerships with 2 or 3 players are an error.
- Events: the buried cards of the play pile go only to the referee's record (an
  event with an empty audience) until uncovered; a deal shows the cards to their
  owner and only the count to all.
- A hidden-information resample permutes the other hands, the stock and the
  buried play-pile cards (hidden from everyone, the seat itself included) among
  themselves, and gives the copy a freshly seeded chance, so later hands' deals are
  unknown too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
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
from referee.games.parts import CardGameState, announce_deal, faces, rank_then_id

HAND_SIZE = 4
PLAY_PILE_START = 4
MAX_HANDS = 200
MAX_SEATS = 4
TEAMS: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
DECK: tuple[Card, ...] = make_deck()
POINTS: dict[Rank, int] = {
    **{Rank(n): 5 for n in range(2, 11)},
    Rank.JACK: 10,
    Rank.QUEEN: 10,
    Rank.KING: 10,
    Rank.ACE: 20,
}


def card_points(card: Card) -> int:
    """The score of one captured card."""
    return POINTS[card.rank]


# --------------------------------------------------------------------------- wire types


class GharatActionKind(Enum):
    """Mirrors the proto enum GharatActionKind (without its prefix)."""

    TAKE_PLAY_PILE = 1
    LOOT = 2
    ADD_OWN = 3
    DROP = 4


@dataclass(frozen=True)
class GharatAction(Action):
    """Play `card`; `kind` says where it goes, `target` the seat looted (LOOT only)."""

    kind: GharatActionKind
    card: Card
    target: int = 0

    @cached_property
    def label(self) -> str:
        k = self.kind
        head = f"play {self.card.face}: "
        if k is GharatActionKind.TAKE_PLAY_PILE:
            return head + "take from the play pile"
        if k is GharatActionKind.LOOT:
            return head + f"loot seat {self.target}"
        if k is GharatActionKind.ADD_OWN:
            return head + "add to own pile"
        return head + "onto the play pile"


@dataclass(frozen=True)
class _CardActions:
    """Every action one card can be played as; built once per card, since actions
    recur every turn and sharing them keeps their labels computed once."""

    take: GharatAction
    loot: tuple[GharatAction, ...]
    add: GharatAction
    drop: GharatAction

    @classmethod
    def of(cls, card: Card) -> _CardActions:
        return cls(
            GharatAction(GharatActionKind.TAKE_PLAY_PILE, card),
            tuple(GharatAction(GharatActionKind.LOOT, card, s) for s in range(MAX_SEATS)),
            GharatAction(GharatActionKind.ADD_OWN, card),
            GharatAction(GharatActionKind.DROP, card),
        )


_ACTIONS: tuple[_CardActions, ...] = tuple(_CardActions.of(c) for c in DECK)


@dataclass(frozen=True)
class GharatPile:
    """A capture pile, bottom first; the last card is its top."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class GharatObservation:
    """Everything one seat may know; field names mirror the proto GharatObservation."""

    seat: int
    seats: int
    hand_number: int
    dealer: int
    turn: int
    target: int
    partnerships: bool
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    play_pile: tuple[Card, ...]
    buried: int
    piles: tuple[GharatPile, ...]
    stock_size: int
    totals: tuple[int, ...]
    pile_values: tuple[int, ...]


# --------------------------------------------------------------------------- state


class GharatState(CardGameState):
    """A game of Ghârat in progress. Piles and the stock keep their top card LAST."""

    def __init__(self, num_seats: int, chance: Chance, target: int, partnerships: bool) -> None:
        self.num_seats = num_seats
        self.chance = chance
        self.target = target
        self.partnerships = partnerships
        self.hand_number = 0
        self.dealer = 0
        self.turn = 0
        self.hands: list[list[Card]] = [[] for _ in range(num_seats)]
        self.piles: list[list[Card]] = [[] for _ in range(num_seats)]
        self.play_pile: list[Card] = []
        self.buried = 0
        self.stock: list[Card] = []
        self.totals: list[int] = [0] * num_seats
        self.hand_scores: list[tuple[int, ...]] = []
        self.over = False
        self._opening: list[Event] = []
        self._legal: tuple[GharatAction, ...] | None = None

    # ------------------------------------------------------------------ setup

    def setup(self) -> None:
        """Deal the first hand (called once by the game)."""
        events: list[Event] = []
        self._start_hand(0, events)
        self._opening = events

    def _right(self, seat: int, steps: int = 1) -> int:
        return (seat - steps) % self.num_seats

    def _start_hand(self, dealer: int, events: list[Event]) -> None:
        n = self.num_seats
        self.hand_number += 1
        self.dealer = dealer
        order = self.chance.shuffled(DECK)
        self.hands = [[] for _ in range(n)]
        self.piles = [[] for _ in range(n)]
        first = self._right(dealer)
        text = f"hand {self.hand_number}: seat {dealer} deals, seat {first} plays first"
        events.append(public("hand_start", text, dealer))
        self.play_pile = list(order[:PLAY_PILE_START])
        self.buried = PLAY_PILE_START - 1
        self.stock = order[PLAY_PILE_START:][::-1]
        top = self.play_pile[-1]
        text = f"the play pile is laid: {self.buried} cards buried under {top.face}"
        events.append(public("play_pile_start", text, None, (top,)))
        buried = self.play_pile[: self.buried]
        text = f"buried in the play pile, bottom first: {faces(buried)}"
        events.append(private([], "play_pile_buried", text, None, buried))
        self._deal_round(events)
        self._start_turn(self._right(dealer))

    def _deal_round(self, events: list[Event]) -> None:
        """Deal up to four cards each, one at a time, starting right of the dealer."""
        n = self.num_seats
        order = [self._right(self.dealer, k) for k in range(1, n + 1)]
        for _ in range(HAND_SIZE):
            for seat in order:
                if self.stock:
                    self.hands[seat].append(self.stock.pop())
        announce_deal(self.hands, order, rank_then_id, events)
        if not self.stock:
            events.append(public("stock_empty", "the stock is empty: the last cards of the hand"))

    def _start_turn(self, seat: int) -> None:
        """The turn passes to `seat` (no event: the next play names its seat)."""
        self.turn = seat
        self._legal = None

    # ------------------------------------------------------------------ flow

    def _after_play(self, events: list[Event]) -> None:
        if any(self.hands):
            self._start_turn(self._right(self.turn))
        elif self.stock:
            text = f"all hands are empty: seat {self.dealer} deals four more each"
            events.append(public("redeal", text, self.dealer))
            self._deal_round(events)
            self._start_turn(self._right(self.turn))
        else:
            self._end_hand(events)

    def standings(self) -> tuple[int, ...]:
        """Each seat's total for winning: its own, or its team's with partnerships."""
        if not self.partnerships:
            return tuple(self.totals)
        team = {s: sum(self.totals[m] for m in t) for t in TEAMS for s in t}
        return tuple(team[s] for s in range(self.num_seats))

    def _end_hand(self, events: list[Event]) -> None:
        scores = tuple(self.pile_value(s) for s in range(self.num_seats))
        for seat, points in enumerate(scores):
            self.totals[seat] += points
        if self.partnerships:
            team = {s: sum(scores[m] for m in t) for t in TEAMS for s in t}
            self.hand_scores.append(tuple(team[s] for s in range(self.num_seats)))
        else:
            self.hand_scores.append(scores)
        listing = ", ".join(f"seat {s} {p} (total {self.totals[s]})" for s, p in enumerate(scores))
        left = len(self.play_pile)
        text = f"hand {self.hand_number} ends: {listing}; {left} cards stay in the play pile"
        events.append(public("hand_end", text))
        standing = self.standings()
        if self.partnerships:
            text = ", ".join(f"seats {a}+{b} {standing[a]}" for a, b in TEAMS)
            events.append(public("team_totals", f"team totals: {text}"))
        best = max(standing)
        leaders = len({self._team_of(s) for s in range(self.num_seats) if standing[s] == best})
        if best >= self.target and leaders == 1:
            self._finish(events, "")
        elif self.hand_number >= MAX_HANDS:
            self._finish(events, f" (the cap of {MAX_HANDS} hands is reached)")
        else:
            if best >= self.target:
                events.append(public("tie", f"a tie at the top with {best}: another hand"))
            self._start_hand(self._right(self.dealer), events)

    def _team_of(self, seat: int) -> int:
        return seat % 2 if self.partnerships else seat

    def _finish(self, events: list[Event], why: str) -> None:
        self.over = True
        self._legal = None
        places = self._places()
        listing = ", ".join(f"seat {s} place {p}" for s, p in enumerate(places))
        events.append(public("game_end", f"game over{why}: {listing}"))

    def _places(self) -> tuple[int, ...]:
        standing = self.standings()
        if not self.partnerships:
            return places_from_scores(standing)
        team_scores = [standing[t[0]] for t in TEAMS]
        team_places = places_from_scores(team_scores)
        return tuple(team_places[s % 2] for s in range(self.num_seats))

    # ------------------------------------------------------------------ options

    def _compute_legal(self) -> tuple[GharatAction, ...]:
        seat = self.turn
        n = self.num_seats
        actions: list[GharatAction] = []
        last: Rank | None = None
        play_top = self.play_pile[-1].rank if self.play_pile else None
        tops = [p[-1].rank if p else None for p in self.piles]
        for card in self.hands[seat]:
            rank = card.rank
            if rank is last:
                continue
            last = rank
            table = _ACTIONS[card.id]
            before = len(actions)
            if play_top is rank:
                actions.append(table.take)
            for other in range(n):
                if other != seat and tops[other] is rank:
                    actions.append(table.loot[other])
            if tops[seat] is rank:
                actions.append(table.add)
            if len(actions) == before:
                actions.append(table.drop)
        return tuple(actions)

    # ------------------------------------------------------------------ GameState

    def deciders(self) -> tuple[int, ...]:
        return () if self.over else (self.turn,)

    def in_turn(self) -> int | None:
        return None if self.over else self.turn

    def decision_kinds(self) -> dict[int, DecisionKind]:
        return {} if self.over else {self.turn: DecisionKind.IN_TURN}

    def _legal_actions(self, seat: int) -> tuple[GharatAction, ...]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _apply(self, choices: Mapping[int, Action]) -> list[Event]:
        seat = self.turn
        action = cast(GharatAction, choices[seat])
        events: list[Event] = []
        self._play(seat, action, events, "")
        self._after_play(events)
        while not self.over and len(self.hands[self.turn]) == 1:
            # A lone last card with a single place to go is no decision: play it.
            options = self._legal_actions(self.turn)
            if len(options) != 1:
                break
            self._play(self.turn, options[0], events, " (the only play of its last card)")
            self._after_play(events)
        return events

    def _play(self, seat: int, action: GharatAction, events: list[Event], note: str) -> None:
        card = action.card
        self.hands[seat].remove(card)
        kind = action.kind
        if kind is GharatActionKind.TAKE_PLAY_PILE:
            pile = self.play_pile
            taken: list[Card] = []
            uncovered: list[Card] = []
            while pile and pile[-1].rank is card.rank:
                taken.append(pile.pop())
                if len(pile) - 1 < self.buried:
                    # The new top was buried: now everyone sees it.
                    self.buried = max(0, len(pile) - 1)
                    uncovered.extend(pile[-1:])
            self.piles[seat] += [card, *taken]
            text = f"seat {seat} plays {card.face} and takes {faces(taken)} from the play pile"
            events.append(public("take", text + note, seat, (card, *taken)))
            for top in uncovered:
                text = f"{top.face} is uncovered on the play pile"
                events.append(public("uncover", text, None, (top,)))
        elif kind is GharatActionKind.LOOT:
            victim = self.piles[action.target]
            taken = []
            while victim and victim[-1].rank is card.rank:
                taken.append(victim.pop())
            self.piles[seat] += [card, *taken]
            text = (
                f"seat {seat} plays {card.face} and loots {faces(taken)} from seat {action.target}"
            )
            events.append(public("loot", text + note, seat, (card, *taken)))
        elif kind is GharatActionKind.ADD_OWN:
            self.piles[seat].append(card)
            text = f"seat {seat} plays {card.face} onto its own pile"
            events.append(public("add_own", text + note, seat, (card,)))
        else:
            self.play_pile.append(card)
            text = f"seat {seat} plays {card.face} onto the play pile"
            events.append(public("drop", text + note, seat, (card,)))

    # ------------------------------------------------------------------ views

    def pile_value(self, seat: int) -> int:
        return sum(POINTS[c.rank] for c in self.piles[seat])

    def observe(self, seat: int) -> GharatObservation:
        return GharatObservation(
            seat=seat,
            seats=self.num_seats,
            hand_number=self.hand_number,
            dealer=self.dealer,
            turn=self.turn,
            target=self.target,
            partnerships=self.partnerships,
            hand=tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            play_pile=tuple(self.play_pile[self.buried :]),
            buried=self.buried,
            piles=tuple(GharatPile(tuple(p)) for p in self.piles),
            stock_size=len(self.stock),
            totals=tuple(self.totals),
            pile_values=tuple(self.pile_value(s) for s in range(self.num_seats)),
        )

    @property
    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise GameError("the game is not over yet")
        return Result(
            scores=self.standings(),
            places=self._places(),
            hand_scores=tuple(self.hand_scores),
            teams=TEAMS if self.partnerships else (),
        )

    def all_cards(self) -> list[Card]:
        cards = [c for h in self.hands for c in h]
        cards.extend(c for p in self.piles for c in p)
        cards.extend(self.play_pile)
        cards.extend(self.stock)
        return cards

    # ------------------------------------------------------------------ copies

    def clone(self) -> GharatState:
        """A fast exact copy (cards are immutable and shared)."""
        new = self._copy_shell()
        new.hands = [list(h) for h in self.hands]
        new.piles = [list(p) for p in self.piles]
        new.play_pile = list(self.play_pile)
        new.stock = list(self.stock)
        new.totals = list(self.totals)
        new.hand_scores = list(self.hand_scores)
        return new

    def resample_hidden(self, seat: int, rng: random.Random) -> GharatState:
        new = self.clone()
        new.chance = Chance(rng.getrandbits(64))
        others = [s for s in range(self.num_seats) if s != seat]
        buried = new.play_pile[: new.buried]
        pool = [c for s in others for c in new.hands[s]] + new.stock + buried
        rng.shuffle(pool)
        pos = 0
        for s in others:
            size = len(new.hands[s])
            new.hands[s] = sorted(pool[pos : pos + size], key=rank_then_id)
            pos += size
        new.play_pile[: new.buried] = pool[pos : pos + len(buried)]
        pos += len(buried)
        new.stock = pool[pos:]
        new._legal = None
        return new


# --------------------------------------------------------------------------- game


class Gharat(Game):
    """Ghârat for 2-4 players; see the module docstring for the rulings."""

    name = "gharat"
    title = "Ghârat"
    wire_name = "gharat"
    min_seats = 2
    max_seats = MAX_SEATS
    one_player = False
    simultaneous = False
    options = (
        OptionSpec(
            "target",
            "1000",
            "the total that ends the game at the end of a hand (highest total wins)",
            is_int=True,
        ),
        OptionSpec(
            "partnerships",
            "false",
            "4 players only: seats 0+2 and 1+3 play as teams and add their scores",
            choices=("false", "true"),
        ),
    )
    summary = (
        "2-4 players, 52 cards; the deal and play go to the right. Seat 0 deals first.\n"
        "The dealer lays four cards face up as the play pile: only its top is visible;\n"
        "the cards below are seen when they reach the top. Then 4 cards each.\n"
        "On your turn play one card. If its rank matches the top of a pile, it captures:\n"
        "  - the play pile: take its top and any further cards of that rank on top;\n"
        "  - an opponent's capture pile: loot its top and further cards of that rank;\n"
        "  - your own pile: just add the card.\n"
        "With several matches you choose the pile; with none the card goes on the play pile.\n"
        "When all hands are empty, 4 more each until the stock is gone; then the hand ends.\n"
        "Captured cards score: 2-10 5, J Q K 10, A 20; the play pile scores nobody.\n"
        "Hands are played until someone has the target (default 1000) at the end of a hand;\n"
        "the highest total wins, a tie at the top plays on (at most 200 hands).\n"
        "Option partnerships (4 players): seats 0+2 and 1+3 add their scores."
    )

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        """Partnerships are for exactly four players; otherwise 2-4."""
        if options.get("partnerships", "false") == "true":
            return 4, 4
        return self.min_seats, self.max_seats

    def new_state(self, num_seats: int, chance: Chance, options: Mapping[str, str]) -> GharatState:
        if not self.min_seats <= num_seats <= self.max_seats:
            raise GameError(f"gharat is played by 2-4 players, not {num_seats}")
        target = int(options.get("target", "1000"))
        if target < 1:
            raise GameError(f"gharat needs a target of at least 1, not {target}")
        partnerships = options.get("partnerships", "false") == "true"
        if partnerships and num_seats != 4:
            raise GameError(
                f"gharat partnerships are for exactly 4 players (seats 0+2 and 1+3), "
                f"not {num_seats}"
            )
        state = GharatState(num_seats, chance, target, partnerships)
        state.setup()
        return state
