"""Indian Chief: seven rounds of secret melds, one of each type, and thieves who rob the table.

The rule text is indian-chief-partial.txt, which lacks its start; the rulings file
next to the rule texts supplies the start, settles the gaps and outranks the text.
Every round all players at once choose a meld type they have not made yet and the
cards for it (the number of cards names the type); the melds are revealed and scored
together, then the thieves steal from the table, hands are refilled to 8 and the
melded cards go back into the stock. After seven rounds every player has made each
meld once, and the highest total wins.

Rulings
-------
From the rulings file, common to all games:
- Every physical card has a stable id; chance comes only from the game's Chance
  (a shuffle "and cut" is one shuffle).
- Every decision is one choice from an enumerated list; where the text says "may",
  declining is one of the choices (a thief may keep their hand: NO_STEAL).

From the rulings file, Indian Chief:
- 2-3 players with one 52-card deck; the option `double_deck` plays with two decks
  (104 cards), which is how 4-8 players play; five of a kind exists only then.
- Deal 8 cards each. The game is seven rounds. Each round every player at once
  chooses one meld type not yet made (1 Thief, 2 Beggar Man, 3 Poor Man, 4 Lawyer,
  5 Rich Man, 6 Doctor, 7 Indian Chief) and its cards; all are revealed together.
  Nobody passes.
- Card values: A 1, 2-10 their number, J Q K 10.
- Thief: the card's value. Beggar Man: 2 points per card of the same rank as one of
  its cards among the OTHER players' melds of this round; two cards of one rank
  count each such card once. Poor Man: the sum of the values of its spades. Lawyer:
  25 if the four values total exactly 25, else 0. Rich Man: minus the total of its
  five values. Doctor: with at least one ace, at least one heart and six different
  ranks, 10 per card of the suit with the most cards in the meld, else 0.
- Indian Chief: the referee scores the best split into 2 + 5 cards (a bot names
  only the 7 cards). Two cards: the last digit of their value total. Five cards, the
  best that applies: five of a kind 50, straight flush 45, four of a kind (four
  cards of one rank) 40, full house 35, flush 30, straight 25, three of a kind 20,
  two pairs 15, one pair 10, anything else 5. Aces are high or low in straights
  (10-J-Q-K-A and A-2-3-4-5; K-A-2 does not wrap).
- Thieves steal after scoring, lowest thief card first (A lowest, then 2..10, J, Q,
  K): each may take one card from another player's meld into their hand, and gets
  no refill this round. Thieves whose cards have one rank pick at the same time
  and in secret; distinct picks all happen, but if any picks collide no thief of
  that rank steals. Scores are not recomputed.
- Refill every hand to 8 from the stock, then shuffle the melded cards into the
  stock; if the stock holds too few cards for the refills, the melded cards are
  shuffled into it first. Highest total after seven rounds wins; equal totals
  share a place.

Decisions of this engine where both texts are silent:
- Seats. `indian-chief` (one deck) is played by 2-3 players and
  `indian-chief?double_deck` (two decks) by 4-8, as the rulings say; any other
  count is refused, so results under each ruleset id mean one thing.
- The deal: one shuffle, 8 cards to each seat one at a time starting at seat 0.
  Refills go seat by seat from seat 0. No seat decides before another, so the
  dealer has no other role. Index 0 of a shuffle is the top of the stock.
- Action lists: a meld is offered for every distinct set of cards of its size,
  every unused type, sorted by type and then by the hand's order (hands are
  sorted by rank, then suit). With two decks, choices that differ only in which
  copy of a card they use are truly identical and offered once, naming the
  lowest-id copies. A full hand offers at most 8+28+56+70+56+28+8 = 254 melds.
- A steal is offered once per (player's meld, face): copies of one face in one
  meld are identical. Tied thieves collide only if more of them pick a face from
  a meld than that meld holds copies of it; otherwise each gets a copy (lowest id
  first, in seat order).
- A thief steals even if their own thief card was taken by an earlier thief
  (they still played the thief). A thief with no other player's card left on the
  table is not asked. Thieves' melds are other players' melds too: a thief may
  take another thief's card.
- After the seventh round nothing is stolen or refilled: a steal would change no
  score, and the game is over.
- Everyone sees which card a thief took: the stolen card stays known to all
  (shown in the thief's `known_hand`) until it is melded. A hidden-information
  resample permutes the other players' unknown hand cards and the stock.
- Beggar Man: a meld of two cards of one rank counts each other card of that rank
  once ("only scores once for each card of the exact same rank"); ranks, not
  values, match (a K does not match a Q).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations
from operator import itemgetter
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
from referee.games.parts import CardGameState, announce_deal, deal_round_robin

HAND_SIZE = 8
ROUNDS = 7
ONE_DECK_MAX_SEATS = 3
DECK_1: tuple[Card, ...] = make_deck(decks=1)
DECK_2: tuple[Card, ...] = make_deck(decks=2)
_COMBOS: dict[int, tuple[tuple[int, ...], ...]] = {
    k: tuple(combinations(range(HAND_SIZE), k)) for k in range(1, HAND_SIZE)
}
_Picker = Callable[[Sequence[Card]], tuple[Card, ...]]


def _picker(indices: tuple[int, ...]) -> _Picker:
    if len(indices) == 1:
        (only,) = indices
        return lambda cards: (cards[only],)
    return itemgetter(*indices)


# For each meld size, one getter per subset of a full hand: getter(hand) is the tuple
# of the subset's cards (listing a few hundred melds a round must be cheap).
_PICKERS: dict[int, tuple[_Picker, ...]] = {
    k: tuple(_picker(c) for c in combos) for k, combos in _COMBOS.items()
}


def card_value(card: Card) -> int:
    """A 1, 2-10 their number, J Q K 10."""
    if card.rank is Rank.ACE:
        return 1
    return min(int(card.rank), 10)


_FACES: tuple[str, ...] = tuple(c.face for c in DECK_2)  # DECK_1 is DECK_2's first half


def faces(cards: Iterable[Card]) -> str:
    """Cards as printed, e.g. '7♠ K♥' (faces of the game's cards are cached: labels
    of a few hundred melds are built every round)."""
    return " ".join([_FACES[c.id] for c in cards])


def _thief_order(card: Card) -> int:
    """The order thieves steal in: A lowest, then 2..10, J, Q, K."""
    return 1 if card.rank is Rank.ACE else int(card.rank)


def _hand_key(card: Card) -> tuple[int, int, int]:
    """Hands and melds are shown ace low (as this game counts it), then by suit."""
    suit = card.suit.value if card.suit else 0
    return (_thief_order(card), suit, card.id)


# --------------------------------------------------------------------------- wire types


class IndianChiefMeld(Enum):
    """Mirrors the proto enum IndianChiefMeld; the value is the number of cards."""

    THIEF = 1
    BEGGAR_MAN = 2
    POOR_MAN = 3
    LAWYER = 4
    RICH_MAN = 5
    DOCTOR = 6
    INDIAN_CHIEF = 7

    @property
    def title(self) -> str:
        return _MELD_TITLES[self.value]

    @property
    def size(self) -> int:
        return self.value


_MELD_TITLES = {m.value: m.name.replace("_", " ").title() for m in IndianChiefMeld}


class IndianChiefActionKind(Enum):
    """Mirrors the proto enum IndianChiefActionKind (without its prefix)."""

    MELD = 1
    STEAL = 2
    NO_STEAL = 3


class IndianChiefPhase(Enum):
    """Mirrors the proto enum IndianChiefPhase (without its prefix)."""

    MELD = 1
    STEAL = 2
    OVER = 3


@dataclass(frozen=True)
class IndianChiefAction(Action):
    """A meld (`meld` and its `cards`), a steal (`cards` holds the card taken from
    `target`'s meld) or declining to steal."""

    kind: IndianChiefActionKind
    meld: IndianChiefMeld | None = None
    cards: tuple[Card, ...] = ()
    target: int = 0

    @property
    def label(self) -> str:
        if self.kind is IndianChiefActionKind.MELD:
            assert self.meld is not None
            return f"{self.meld.title}: {faces(self.cards)}"
        if self.kind is IndianChiefActionKind.STEAL:
            return f"steal {self.cards[0].face} from seat {self.target}"
        return "no steal"


NO_STEAL = IndianChiefAction(IndianChiefActionKind.NO_STEAL)


@dataclass(frozen=True)
class IndianChiefPlayer:
    """What everyone knows of one seat."""

    total: int
    hand_size: int
    melds_made: tuple[IndianChiefMeld, ...]
    meld_scores: tuple[int, ...]
    meld: IndianChiefMeld | None
    table: tuple[Card, ...]
    known_hand: tuple[Card, ...]


@dataclass(frozen=True)
class IndianChiefObservation:
    """Everything one seat may know; field names mirror the proto IndianChiefObservation."""

    seat: int
    seats: int
    round: int
    rounds_total: int
    decks: int
    phase: IndianChiefPhase
    hand: tuple[Card, ...]
    stock_size: int
    players: tuple[IndianChiefPlayer, ...]
    thieves_deciding: tuple[int, ...]
    thieves_waiting: tuple[int, ...]


# --------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class MeldScore:
    """The points of one meld and how they came about."""

    points: int
    why: str


def score_thief(cards: Sequence[Card]) -> MeldScore:
    (card,) = cards
    return MeldScore(card_value(card), f"{card.face} is worth {card_value(card)}")


def score_beggar_man(cards: Sequence[Card], others: Sequence[Card]) -> MeldScore:
    """2 per card of the other melds sharing a rank with this meld; a pair of one
    rank counts each such card once."""
    ranks = sorted({c.rank for c in cards}, key=lambda r: 1 if r is Rank.ACE else int(r))
    counts = Counter(c.rank for c in others)
    parts = [f"{counts[r]} × {r.symbol}" for r in ranks]
    matches = sum(counts[r] for r in ranks)
    return MeldScore(2 * matches, f"the other melds hold {' and '.join(parts)}, 2 points each")


def score_poor_man(cards: Sequence[Card]) -> MeldScore:
    spades = [c for c in cards if c.suit is Suit.SPADES]
    points = sum(card_value(c) for c in spades)
    if not spades:
        return MeldScore(0, "no spades")
    return MeldScore(points, f"spades {faces(spades)}")


def score_lawyer(cards: Sequence[Card]) -> MeldScore:
    total = sum(card_value(c) for c in cards)
    if total == 25:
        return MeldScore(25, "the values total exactly 25")
    return MeldScore(0, f"the values total {total}, not 25")


def score_rich_man(cards: Sequence[Card]) -> MeldScore:
    total = sum(card_value(c) for c in cards)
    return MeldScore(-total, f"the values total {total}, subtracted")


def score_doctor(cards: Sequence[Card]) -> MeldScore:
    if not any(c.rank is Rank.ACE for c in cards):
        return MeldScore(0, "no ace")
    if not any(c.suit is Suit.HEARTS for c in cards):
        return MeldScore(0, "no heart")
    if len({c.rank for c in cards}) != len(cards):
        return MeldScore(0, "two cards share a rank")
    suits = Counter(c.suit for c in cards)
    most = max(suits.values())
    return MeldScore(10 * most, f"{most} cards of its longest suit, 10 each")


FIVE_CARD_HANDS: tuple[tuple[str, int], ...] = (
    ("five of a kind", 50),
    ("straight flush", 45),
    ("four of a kind", 40),
    ("full house", 35),
    ("flush", 30),
    ("straight", 25),
    ("three of a kind", 20),
    ("two pairs", 15),
    ("one pair", 10),
    ("mixed cards", 5),
)
_FIVE_POINTS = dict(FIVE_CARD_HANDS)


def _is_straight(ranks: Sequence[Rank]) -> bool:
    values = sorted({int(r) for r in ranks})
    if len(values) != 5:
        return False
    if values[-1] - values[0] == 4:
        return True
    return values == [2, 3, 4, 5, 14]  # the ace plays low


def five_card_hand(cards: Sequence[Card]) -> tuple[str, int]:
    """The best combination five cards make, and its points."""
    counts = sorted(Counter(c.rank for c in cards).values(), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    straight = _is_straight([c.rank for c in cards])
    if counts[0] == 5:
        name = "five of a kind"
    elif straight and flush:
        name = "straight flush"
    elif counts[0] == 4:
        name = "four of a kind"
    elif counts[:2] == [3, 2]:
        name = "full house"
    elif flush:
        name = "flush"
    elif straight:
        name = "straight"
    elif counts[0] == 3:
        name = "three of a kind"
    elif counts[:2] == [2, 2]:
        name = "two pairs"
    elif counts[0] == 2:
        name = "one pair"
    else:
        name = "mixed cards"
    return name, _FIVE_POINTS[name]


@dataclass(frozen=True)
class ChiefSplit:
    """The split of an Indian Chief into two and five cards that the referee scores."""

    two: tuple[Card, ...]
    five: tuple[Card, ...]
    two_points: int
    five_name: str
    five_points: int

    @property
    def points(self) -> int:
        return self.two_points + self.five_points


def best_chief_split(cards: Sequence[Card]) -> ChiefSplit:
    """The best of the 21 splits of seven cards into 2 + 5 (the first found on ties)."""
    best: ChiefSplit | None = None
    for pair in combinations(range(len(cards)), 2):
        two = tuple(cards[i] for i in pair)
        five = tuple(c for i, c in enumerate(cards) if i not in pair)
        name, points = five_card_hand(five)
        split = ChiefSplit(two, five, sum(card_value(c) for c in two) % 10, name, points)
        if best is None or split.points > best.points:
            best = split
    assert best is not None
    return best


def score_indian_chief(cards: Sequence[Card]) -> MeldScore:
    s = best_chief_split(cards)
    why = f"{faces(s.two)} make {s.two_points}, {faces(s.five)} {s.five_name} {s.five_points}"
    return MeldScore(s.points, why)


def score_meld(meld: IndianChiefMeld, cards: Sequence[Card], others: Sequence[Card]) -> MeldScore:
    """Score a meld; `others` are the cards of the other players' melds this round."""
    if len(cards) != meld.size:
        raise ValueError(f"a {meld.title} has {meld.size} cards, not {len(cards)}")
    if meld is IndianChiefMeld.THIEF:
        return score_thief(cards)
    if meld is IndianChiefMeld.BEGGAR_MAN:
        return score_beggar_man(cards, others)
    if meld is IndianChiefMeld.POOR_MAN:
        return score_poor_man(cards)
    if meld is IndianChiefMeld.LAWYER:
        return score_lawyer(cards)
    if meld is IndianChiefMeld.RICH_MAN:
        return score_rich_man(cards)
    if meld is IndianChiefMeld.DOCTOR:
        return score_doctor(cards)
    return score_indian_chief(cards)


# --------------------------------------------------------------------------- state


class IndianChiefState(CardGameState):
    """A game of Indian Chief in progress. The stock keeps its top card LAST."""

    def __init__(self, num_seats: int, chance: Chance, decks: int) -> None:
        self.num_seats = num_seats
        self.chance = chance
        self.decks = decks
        self.deck = DECK_2 if decks == 2 else DECK_1
        self.round = 1
        self.phase = IndianChiefPhase.MELD
        self.hands: list[list[Card]] = [[] for _ in range(num_seats)]
        self.stock: list[Card] = []
        self.made: list[list[IndianChiefMeld]] = [[] for _ in range(num_seats)]
        self.scores: list[list[int]] = [[] for _ in range(num_seats)]
        self.totals: list[int] = [0] * num_seats
        self.round_scores: list[tuple[int, ...]] = []
        self.melds: list[IndianChiefMeld | None] = [None] * num_seats
        self.table: list[list[Card]] = [[] for _ in range(num_seats)]
        self.known: list[list[Card]] = [[] for _ in range(num_seats)]
        # Thieves still to steal this round, one group per thief rank, in order.
        self.groups: list[list[int]] = []
        self.deciding: tuple[int, ...] = ()
        self.over = False
        self._opening: list[Event] = []
        self._legal: dict[int, tuple[IndianChiefAction, ...]] = {}

    # ------------------------------------------------------------------ setup

    def setup(self) -> None:
        events: list[Event] = []
        n = self.num_seats
        deck_text = "one deck" if self.decks == 1 else "two decks"
        events.append(public("game_start", f"Indian Chief for {n} players with {deck_text}"))
        order = self.chance.shuffled(self.deck)
        pos = deal_round_robin(order, self.hands, range(n), HAND_SIZE)
        self.stock = order[pos:][::-1]
        announce_deal(self.hands, range(n), _hand_key, events)
        self._start_round(events)
        self._opening = events

    def _start_round(self, events: list[Event]) -> None:
        self.phase = IndianChiefPhase.MELD
        self.deciding = tuple(range(self.num_seats))
        self._legal = {}
        events.append(
            public(
                "round_start",
                f"round {self.round} of {ROUNDS}: every player chooses a meld in secret",
            )
        )

    # ------------------------------------------------------------------ melds

    def _meld_actions(self, seat: int) -> tuple[IndianChiefAction, ...]:
        hand = self.hands[seat]
        used = set(self.made[seat])
        distinct = len({(c.rank, c.suit) for c in hand}) == len(hand)
        actions: list[IndianChiefAction] = []
        kind = IndianChiefActionKind.MELD
        for meld in IndianChiefMeld:
            if meld in used or meld.size > len(hand):
                continue
            pickers = (
                _PICKERS[meld.size]
                if len(hand) == HAND_SIZE
                else tuple(_picker(c) for c in combinations(range(len(hand)), meld.size))
            )
            seen: set[tuple[tuple[Rank, Suit | None], ...]] = set()
            for pick in pickers:
                cards = pick(hand)
                if not distinct:
                    key = tuple((c.rank, c.suit) for c in cards)
                    if key in seen:
                        continue
                    seen.add(key)
                actions.append(IndianChiefAction(kind, meld, cards))
        return tuple(actions)

    def _apply_melds(self, choices: Mapping[int, IndianChiefAction], events: list[Event]) -> None:
        n = self.num_seats
        for seat in range(n):
            action = choices[seat]
            assert action.meld is not None
            hand = self.hands[seat]
            for card in action.cards:
                hand.remove(card)
                if card in self.known[seat]:
                    self.known[seat].remove(card)
            self.melds[seat] = action.meld
            self.table[seat] = list(action.cards)
            self.made[seat].append(action.meld)
        for seat in range(n):
            meld = self.melds[seat]
            assert meld is not None
            cards = self.table[seat]
            text = f"seat {seat} melds {meld.title}: {faces(cards)}"
            events.append(public("reveal", text, seat, cards))
        row: list[int] = []
        for seat in range(n):
            meld = self.melds[seat]
            assert meld is not None
            others = [c for s in range(n) if s != seat for c in self.table[s]]
            score = score_meld(meld, self.table[seat], others)
            row.append(score.points)
            self.scores[seat].append(score.points)
            self.totals[seat] += score.points
            text = (
                f"seat {seat}'s {meld.title} scores {score.points} ({score.why}); "
                f"total {self.totals[seat]}"
            )
            events.append(public("score", text, seat, self.table[seat]))
        self.round_scores.append(tuple(row))
        if self.round >= ROUNDS:
            self._end_game(events)
            return
        thieves = [s for s in range(n) if self.melds[s] is IndianChiefMeld.THIEF]
        thieves.sort(key=lambda s: (_thief_order(self.table[s][0]), s))
        self.groups = []
        last: int | None = None
        for seat in thieves:
            order = _thief_order(self.table[seat][0])
            if order != last:
                self.groups.append([])
                last = order
            self.groups[-1].append(seat)
        if len(thieves) == 1:
            events.append(public("thieves", f"seat {thieves[0]} may steal as the thief"))
        elif thieves:
            listing = ", then ".join(
                " and ".join(f"seat {s}" for s in group) for group in self.groups
            )
            events.append(public("thieves", f"thieves steal in this order: {listing}"))
        self._next_steal(events)

    # ------------------------------------------------------------------ steals

    def _steal_actions(self, seat: int) -> tuple[IndianChiefAction, ...]:
        actions: list[IndianChiefAction] = []
        for victim in range(self.num_seats):
            if victim == seat:
                continue
            seen: set[tuple[Rank, Suit | None]] = set()
            for card in sorted(self.table[victim], key=_hand_key):
                key = (card.rank, card.suit)
                if key in seen:
                    continue
                seen.add(key)
                actions.append(
                    IndianChiefAction(IndianChiefActionKind.STEAL, None, (card,), victim)
                )
        if not actions:
            return ()
        return (*actions, NO_STEAL)

    def _next_steal(self, events: list[Event]) -> None:
        """Ask the next group of thieves, skipping thieves with nothing to take."""
        while self.groups:
            group = self.groups.pop(0)
            able = []
            for seat in group:
                if self._steal_actions(seat):
                    able.append(seat)
                else:
                    text = f"seat {seat} has no card on the table to steal"
                    events.append(public("no_steal", text, seat))
            if able:
                self.phase = IndianChiefPhase.STEAL
                self.deciding = tuple(able)
                self._legal = {}
                if len(able) > 1:
                    tied = " and ".join(f"seat {s}" for s in able)
                    events.append(public("thieves_tied", f"{tied} pick their steals in secret"))
                return
        self._end_round(events)

    def _apply_steals(self, choices: Mapping[int, IndianChiefAction], events: list[Event]) -> None:
        picks = {
            seat: a for seat, a in sorted(choices.items()) if a.kind is IndianChiefActionKind.STEAL
        }
        for seat in sorted(choices):
            if seat not in picks:
                events.append(public("no_steal", f"seat {seat} steals nothing", seat))
        wanted = Counter((a.target, a.cards[0].rank, a.cards[0].suit) for a in picks.values())
        for (victim, rank, suit), count in wanted.items():
            copies = sum(1 for c in self.table[victim] if c.rank is rank and c.suit is suit)
            if count > copies:
                same = [
                    (s, a.cards[0])
                    for s, a in picks.items()
                    if (a.target, a.cards[0].rank, a.cards[0].suit) == (victim, rank, suit)
                ]
                names = " and ".join(f"seat {s}" for s, _ in same)
                text = (
                    f"{names} pick the same card ({same[0][1].face} from seat {victim}): "
                    "no thief of this rank steals"
                )
                events.append(public("steal_collision", text))
                return
        for seat, action in picks.items():
            wanted_card = action.cards[0]
            victim = action.target
            card = min(
                (
                    c
                    for c in self.table[victim]
                    if c.rank is wanted_card.rank and c.suit is wanted_card.suit
                ),
                key=lambda c: c.id,
            )
            self.table[victim].remove(card)
            self.hands[seat].append(card)
            self.hands[seat].sort(key=_hand_key)
            self.known[seat].append(card)
            meld = self.melds[victim]
            assert meld is not None
            text = f"seat {seat} steals {card.face} from seat {victim}'s {meld.title}"
            events.append(public("steal", text, seat, (card,)))

    # ------------------------------------------------------------------ refill

    def _end_round(self, events: list[Event]) -> None:
        n = self.num_seats
        melded = [c for t in self.table for c in t]
        need = sum(HAND_SIZE - len(h) for h in self.hands)
        if need > len(self.stock) and melded:
            text = (
                f"the stock holds {len(self.stock)} cards, too few to refill {need}: "
                f"the {len(melded)} melded cards are shuffled into it first"
            )
            events.append(public("stock_short", text))
            self.stock = self.chance.shuffled([*self.stock[::-1], *melded])[::-1]
            melded = []
        for seat in range(n):
            hand = self.hands[seat]
            count = min(HAND_SIZE - len(hand), len(self.stock))
            if count <= 0:
                continue
            drawn = [self.stock.pop() for _ in range(count)]
            hand.extend(drawn)
            hand.sort(key=_hand_key)
            events.append(private([seat], "draw", f"you draw {faces(drawn)}", seat, drawn))
            what = "a card" if count == 1 else f"{count} cards"
            events.append(public("draw_count", f"seat {seat} draws {what}", seat))
        if melded:
            self.stock = self.chance.shuffled([*self.stock[::-1], *melded])[::-1]
            text = f"the {len(melded)} melded cards are shuffled into the stock"
            events.append(public("shuffle", text))
        self.table = [[] for _ in range(n)]
        self.melds = [None] * n
        self.round += 1
        self._start_round(events)

    def _end_game(self, events: list[Event]) -> None:
        self.over = True
        self.phase = IndianChiefPhase.OVER
        self.deciding = ()
        self.groups = []
        self._legal = {}
        places = places_from_scores(self.totals)
        listing = ", ".join(
            f"seat {s} {t} (place {p})" for s, (t, p) in enumerate(zip(self.totals, places))
        )
        events.append(public("game_end", f"game over after {ROUNDS} rounds: {listing}"))

    # ------------------------------------------------------------------ GameState

    def deciders(self) -> tuple[int, ...]:
        return self.deciding

    def decision_kinds(self) -> dict[int, DecisionKind]:
        # Several thieves tied for a steal pick at once; a lone meld or steal
        # decision is the seat's own turn (the game has no turn order).
        if len(self.deciding) > 1:
            return dict.fromkeys(self.deciding, DecisionKind.SIMULTANEOUS)
        return dict.fromkeys(self.deciding, DecisionKind.IN_TURN)

    def _legal_actions(self, seat: int) -> tuple[IndianChiefAction, ...]:
        actions = self._legal.get(seat)
        if actions is None:
            if self.phase is IndianChiefPhase.MELD:
                actions = self._meld_actions(seat)
            else:
                actions = self._steal_actions(seat)
            self._legal[seat] = actions
        return actions

    def _apply(self, choices: Mapping[int, Action]) -> list[Event]:
        checked = {seat: cast(IndianChiefAction, action) for seat, action in choices.items()}
        events: list[Event] = []
        self._legal = {}
        if self.phase is IndianChiefPhase.MELD:
            self._apply_melds(checked, events)
        else:
            self._apply_steals(checked, events)
            self._next_steal(events)
        return events

    # ------------------------------------------------------------------ views

    def observe(self, seat: int) -> IndianChiefObservation:
        players = tuple(
            IndianChiefPlayer(
                total=self.totals[s],
                hand_size=len(self.hands[s]),
                melds_made=tuple(self.made[s]),
                meld_scores=tuple(self.scores[s]),
                meld=self.melds[s],
                table=tuple(self.table[s]),
                known_hand=tuple(sorted(self.known[s], key=_hand_key)),
            )
            for s in range(self.num_seats)
        )
        waiting = tuple(s for g in self.groups for s in g)
        return IndianChiefObservation(
            seat=seat,
            seats=self.num_seats,
            round=self.round,
            rounds_total=ROUNDS,
            decks=self.decks,
            phase=self.phase,
            hand=tuple(self.hands[seat]),
            stock_size=len(self.stock),
            players=players,
            thieves_deciding=self.deciding if self.phase is IndianChiefPhase.STEAL else (),
            thieves_waiting=waiting,
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
            hand_scores=tuple(self.round_scores),
        )

    def all_cards(self) -> list[Card]:
        cards = [c for h in self.hands for c in h]
        cards.extend(c for t in self.table for c in t)
        cards.extend(self.stock)
        return cards

    # ------------------------------------------------------------------ copies

    def clone(self) -> IndianChiefState:
        """A fast exact copy (cards and actions are immutable and shared)."""
        new = self._copy_shell()
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.made = [list(m) for m in self.made]
        new.scores = [list(s) for s in self.scores]
        new.totals = list(self.totals)
        new.round_scores = list(self.round_scores)
        new.melds = list(self.melds)
        new.table = [list(t) for t in self.table]
        new.known = [list(k) for k in self.known]
        new.groups = [list(g) for g in self.groups]
        new._legal = dict(self._legal)
        return new

    def resample_hidden(self, seat: int, rng: random.Random) -> IndianChiefState:
        """Permute the cards `seat` cannot see (other hands' unknown cards and the
        stock) among those places, keeping sizes; stolen cards stay known."""
        new = self.clone()
        new.chance = Chance(rng.getrandbits(64))
        others = [s for s in range(self.num_seats) if s != seat]
        unknown: dict[int, list[Card]] = {}
        for s in others:
            known = set(new.known[s])
            unknown[s] = [c for c in new.hands[s] if c not in known]
        pool = [c for s in others for c in unknown[s]] + new.stock
        rng.shuffle(pool)
        pos = 0
        for s in others:
            size = len(unknown[s])
            new.hands[s] = sorted([*new.known[s], *pool[pos : pos + size]], key=_hand_key)
            pos += size
        new.stock = pool[pos:]
        new._legal = {s: a for s, a in new._legal.items() if s == seat}
        return new


# --------------------------------------------------------------------------- game


class IndianChief(Game):
    """Indian Chief for 2-8 players; see the module docstring for the rulings."""

    name = "indian-chief"
    title = "Indian Chief"
    wire_name = "indian_chief"
    min_seats = 2
    max_seats = 8
    one_player = False
    simultaneous = True
    options = (
        OptionSpec(
            "double_deck",
            "false",
            "two decks, for 4-8 players (one deck: 2-3); five of a kind scores 50",
            choices=("false", "true"),
        ),
    )
    summary = (
        "2-3 players with one deck; two decks (double_deck) for up to 8 players.\n"
        "Deal 8 each. Seven rounds; each round every player at once secretly melds\n"
        "a type not yet made, named by its card count; all are revealed and scored:\n"
        "  1 Thief: the card's value (A 1, 2-10 their number, J Q K 10).\n"
        "  2 Beggar Man: 2 per card of its ranks in the other players' melds.\n"
        "  3 Poor Man: the values of its spades.  4 Lawyer: 25 if values total 25.\n"
        "  5 Rich Man: minus the values' total.\n"
        "  6 Doctor: with an ace, a heart, six ranks: 10 per card of longest suit.\n"
        "  7 Indian Chief: best split into 2 cards (last digit of their total) and\n"
        "    5 (five of a kind 50, straight flush 45, four of a kind 40, full house\n"
        "    35, flush 30, straight 25, three 20, two pairs 15, pair 10, else 5).\n"
        "Then thieves, lowest card first (A low), may take a card from another\n"
        "meld; tied thieves pick in secret and a collision cancels their steals.\n"
        "Refill to 8 (thieves who stole get none); melds go back into the stock.\n"
        "Highest total after seven rounds wins."
    )

    def seat_range(self, options: Mapping[str, str]) -> tuple[int, int]:
        if options.get("double_deck", "false") == "true":
            return ONE_DECK_MAX_SEATS + 1, self.max_seats
        return self.min_seats, ONE_DECK_MAX_SEATS

    def new_state(
        self, num_seats: int, chance: Chance, options: Mapping[str, str]
    ) -> IndianChiefState:
        low, high = self.seat_range(options)
        if not low <= num_seats <= high:
            deck = "two decks" if low > self.min_seats else "one deck"
            raise GameError(f"indian-chief with {deck} is played by {low}-{high} players")
        double = options.get("double_deck", "false") == "true"
        decks = 2 if double else 1
        state = IndianChiefState(num_seats, chance, decks)
        state.setup()
        return state
