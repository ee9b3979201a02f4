"""Cards, decks and the only source of chance a game may use.

Every physical card has a stable id (0..N-1) so that two-deck games can name
*which* copy moved, and so that logs and replays are unambiguous.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum


class Rank(IntEnum):
    """Card ranks, ordered ace-high; the joker is its own rank above the ace."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]


class Suit(Enum):
    """The four suits; jokers have no suit (None on a Card)."""

    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    SPADES = 4

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


_RANK_SYMBOLS = {
    **{Rank(n): str(n) for n in range(2, 11)},
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.JOKER: "Jo",
}
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}

STANDARD_RANKS: tuple[Rank, ...] = tuple(r for r in Rank if r is not Rank.JOKER)


@dataclass(frozen=True, order=True)
class Card:
    """One physical card. Equality includes the id: two copies of 7♠ differ."""

    id: int
    rank: Rank
    suit: Suit | None

    def __post_init__(self) -> None:
        if (self.rank is Rank.JOKER) != (self.suit is None):
            raise ValueError(f"card {self.id}: jokers, and only jokers, have no suit")

    def __hash__(self) -> int:
        # Ids are unique within a game; hashing by id alone keeps dict and set use cheap.
        return self.id

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    @property
    def face(self) -> str:
        """The card as printed, without its id: '10♥', 'A♠', 'Jo'."""
        if self.suit is None:
            return self.rank.symbol
        return f"{self.rank.symbol}{self.suit.symbol}"

    def __str__(self) -> str:
        return self.face


def make_deck(
    decks: int = 1,
    jokers: int = 0,
    ranks: Sequence[Rank] = STANDARD_RANKS,
) -> tuple[Card, ...]:
    """A fresh deck in a fixed order, ids 0..N-1: each deck by suit and rank, then jokers."""
    cards: list[Card] = []
    for _ in range(decks):
        for suit in Suit:
            for rank in ranks:
                cards.append(Card(len(cards), rank, suit))
    for _ in range(jokers):
        cards.append(Card(len(cards), Rank.JOKER, None))
    return tuple(cards)


def parse_cards(text: str, deck: Sequence[Card]) -> list[Card]:
    """Pick cards from `deck` by face, e.g. '7♠ 7♥ Jo A♣' or '7s 7h jo ac'.

    Each face takes the lowest-id copy not yet taken, so tests can write exact
    deck orders for two-deck games without naming ids.
    """
    suit_letters = {"c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES}
    suit_letters.update({s.symbol: s for s in Suit})
    rank_names = {r.symbol.lower(): r for r in Rank}
    taken: set[int] = set()
    result: list[Card] = []
    for token in text.split():
        low = token.lower()
        if low == "jo":
            rank, suit = Rank.JOKER, None
        else:
            rank_part, suit_part = low[:-1], low[-1]
            if rank_part not in rank_names or suit_part not in suit_letters:
                raise ValueError(f"cannot read card {token!r}: write it like '10h', 'As' or 'Jo'")
            rank, suit = rank_names[rank_part], suit_letters[suit_part]
        for card in deck:
            if card.id not in taken and card.rank is rank and card.suit is suit:
                taken.add(card.id)
                result.append(card)
                break
        else:
            raise ValueError(f"no card {token!r} left in the deck")
    return result


def stack_deck(deck: Sequence[Card], top: str) -> list[Card]:
    """A deck order for tests: the cards named in `top` first (top of the stock
    is index 0), then every other card of `deck` in id order."""
    chosen = parse_cards(top, deck)
    chosen_ids = {c.id for c in chosen}
    return chosen + [c for c in deck if c.id not in chosen_ids]


class Chance:
    """All randomness of one game: a seeded RNG, or explicit deck orders.

    A game asks `shuffled(cards)` whenever the rules shuffle. With explicit
    orders (tests, replays of a recorded deal), each shuffle returns the next
    given order, index 0 being the top of the deck; once they run out, or
    without them, the seeded RNG shuffles. Other random draws the rules give
    to the referee (a random card from a hand, breaking ties) use `choice`.
    """

    def __init__(self, seed: int, orders: Iterable[Sequence[Card]] = ()) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self._orders: list[list[Card]] = [list(o) for o in orders]

    def shuffled(self, cards: Iterable[Card]) -> list[Card]:
        pool = list(cards)
        if self._orders:
            order = self._orders.pop(0)
            if sorted(c.id for c in order) != sorted(c.id for c in pool):
                raise ValueError(
                    "an explicit deck order must hold exactly the cards being shuffled"
                )
            return order
        self._rng.shuffle(pool)
        return pool

    def choice(self, n: int) -> int:
        """A uniformly random index in range(n)."""
        if n <= 0:
            raise ValueError("choice needs at least one option")
        return self._rng.randrange(n)
