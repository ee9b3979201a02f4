"""Thieves: a one-player solitaire; take tableau cards one rank above or below the stack card.

The rule text is thieves-solitaire.txt (the help page of a computer game); the
rulings file next to the rule texts settles its gaps and outranks it. Seven columns
of five cards lie face up; the last card of each column is available. The stack
card takes an available card one rank above or below it (a joker takes and is taken
by anything), and the taken card becomes the stack card. Turning the next stock card
onto the stack is always allowed. Clearing the tableau scores 15 and deals the next
level; the game ends when the stock is empty and no take is open.

Rulings
-------
From the rulings file, common to all games:
- Every physical card has a stable id; chance comes only from the game's Chance.
- Every decision is one choice from an enumerated list.

From the rulings file, Thieves:
- One player. Tableau of 7 columns of 5 face-up cards; the last card of each column
  is available. One card starts the stack; the rest is the stock.
- Level 1: 52 cards + 3 jokers, one joker at a random place in the tableau and two
  in the stock. Clearing the tableau gives +15, raises the level and deals anew
  (score kept): level 2 has one joker in the tableau and one in the stock; level 3
  and up one joker, in the tableau.
- Take: an available card one rank above or below the stack card (A-2 ... Q-K; K
  and A are not adjacent); a joker takes or is taken by anything. The taken card
  becomes the stack card and scores A 8, 2 6, 3 6, 4 4, 5 4, 6-8 2, 9 4, 10 4,
  J 6, Q 6, K 8, joker 0.
- Draw: turning the next stock card onto the stack is legal at any time.
- Undo (takes since the last draw, in reverse) is an option for human play, off in
  tournaments.
- The game ends when the stock is empty and no take is open. Option `level_cap`
  (default 50) caps the levels so a game always ends.

Decisions of this engine where both texts are silent:
- Every level deals from a fresh shuffle of its cards: the 52 naturals plus the
  level's jokers (3, 2, then 1); jokers not in play that level are set aside. The
  shuffle is read as the 35 tableau cards (row by row: the first 7 are the covered
  top row of columns 0-6, the last 7 the available cards), then the stack card,
  then the stock from its top. A shuffle with the wrong number of jokers in the
  tableau, or a joker as the first stack card (the text puts jokers only in the
  tableau and the stock), is shuffled again, so each allowed layout is equally
  likely.
- The first stack card of a level is a natural card, dealt like the text's "next
  card"; the old stack does not carry over to the next level.
- Clearing the tableau at level `level_cap` scores its 15 and ends the game.
- A draw is always a decision, even when it is the only choice (the player clicks
  the stack); an empty stock offers no draw.
- The game ends as soon as the stock is empty and no take is open, whether or not
  an undo would be possible.
- Option `undo` (flag, default off; for human play only, and left off in
  tournaments, since it lets a player search the tableau by trial): UNDO takes back
  the most recent take since the last draw, putting the card back on its column and
  its points off the score; repeating it goes back, one take at a time, to the last
  draw. A new level's deal, like a draw, cannot be undone, so the clearing take
  cannot be either. Undo can take a game round in circles; the referee's own time
  limits bound a game with it.
- The whole tableau is face up and shown whole. The stock's order is hidden; its
  contents are known by elimination, so the observation lists them (sorted by id).
- Every take, draw and undo is public (there is only one player); at every deal a
  referee-only event records the stock's order for the full log.
- A hidden-information resample shuffles the stock and gives the copy a freshly
  seeded chance, so later levels' deals are unknown too.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
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
    private,
    public,
)
from referee.games.parts import CardGameState, by_id, faces

DECK: tuple[Card, ...] = make_deck(jokers=3)
NATURALS: tuple[Card, ...] = tuple(c for c in DECK if not c.is_joker)
JOKERS: tuple[Card, ...] = tuple(c for c in DECK if c.is_joker)
COLUMNS = 7
DEPTH = 5
TABLEAU = COLUMNS * DEPTH
CLEAR_BONUS = 15
DEFAULT_LEVEL_CAP = 50
POINTS: dict[Rank, int] = {
    Rank.ACE: 8,
    Rank.TWO: 6,
    Rank.THREE: 6,
    Rank.FOUR: 4,
    Rank.FIVE: 4,
    Rank.SIX: 2,
    Rank.SEVEN: 2,
    Rank.EIGHT: 2,
    Rank.NINE: 4,
    Rank.TEN: 4,
    Rank.JACK: 6,
    Rank.QUEEN: 6,
    Rank.KING: 8,
    Rank.JOKER: 0,
}


def card_points(card: Card) -> int:
    """What taking `card` from the tableau scores."""
    return POINTS[card.rank]


def stock_jokers(level: int) -> int:
    """Jokers in the stock at a level: two, then one, then none."""
    return max(0, 3 - level)


def step(rank: Rank) -> int:
    """A rank's place in the sequence A 2 3 ... K (the ace is low, and not next to the king)."""
    return 1 if rank is Rank.ACE else int(rank)


def can_take(stack_card: Card, card: Card) -> bool:
    """Whether the stack card takes `card`: one rank apart, or either is a joker."""
    if stack_card.is_joker or card.is_joker:
        return True
    return abs(step(stack_card.rank) - step(card.rank)) == 1


# --------------------------------------------------------------------------- wire types


class ThievesActionKind(Enum):
    """Mirrors the proto enum ThievesActionKind (without its prefix)."""

    TAKE = 1
    DRAW = 2
    UNDO = 3


@dataclass(frozen=True)
class ThievesAction(Action):
    """One choice. TAKE names the `column` and its available `card`; UNDO names
    the stack card that goes back to `column`; DRAW has neither (the card is hidden)."""

    kind: ThievesActionKind
    column: int = 0
    card: Card | None = None

    @property
    def label(self) -> str:
        if self.kind is ThievesActionKind.TAKE:
            assert self.card is not None
            return f"take {self.card.face} from column {self.column}"
        if self.kind is ThievesActionKind.UNDO:
            assert self.card is not None
            return f"undo taking {self.card.face}"
        return "draw"


DRAW = ThievesAction(ThievesActionKind.DRAW)


@dataclass(frozen=True)
class ThievesColumn:
    """One tableau column, top (most covered) first; the last card is available."""

    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ThievesObservation:
    """Everything the player may know; field names mirror the proto ThievesObservation."""

    level: int
    level_cap: int
    score: int
    columns: tuple[ThievesColumn, ...]
    stack_card: Card
    stock_size: int
    stock_cards: tuple[Card, ...]
    undo_enabled: bool
    undoable: int


# --------------------------------------------------------------------------- state


class ThievesState(CardGameState):
    """A game of Thieves in progress. The stock list keeps its top card LAST."""

    def __init__(self, chance: Chance, level_cap: int, undo: bool) -> None:
        self.num_seats = 1
        self.chance = chance
        self.level_cap = level_cap
        self.undo_enabled = undo
        self.level = 0
        self.score = 0
        self.columns: list[list[Card]] = [[] for _ in range(COLUMNS)]
        self.stack: list[Card] = []
        self.stock: list[Card] = list(DECK)
        self.aside: list[Card] = []
        self.history: list[tuple[int, int]] = []  # (column, points) of takes since the last draw
        self.over = False
        self._opening: list[Event] = []

    # ------------------------------------------------------------------ levels

    def setup(self) -> None:
        events: list[Event] = []
        self._deal(events)
        self._check_end(events)
        self._opening = events

    def _deal(self, events: list[Event]) -> None:
        """Gather every card and deal the next level."""
        self.level += 1
        in_play = 1 + stock_jokers(self.level)
        cards = [c for col in self.columns for c in col] + self.stack + self.stock + self.aside
        pool = sorted((c for c in cards if c in NATURALS or c in JOKERS[:in_play]), key=by_id)
        self.aside = sorted((c for c in cards if c not in pool), key=by_id)
        while True:
            order = self.chance.shuffled(pool)
            jokers_in_tableau = sum(1 for c in order[:TABLEAU] if c.is_joker)
            if jokers_in_tableau == 1 and not order[TABLEAU].is_joker:
                break
        self.columns = [[order[r * COLUMNS + c] for r in range(DEPTH)] for c in range(COLUMNS)]
        self.stack = [order[TABLEAU]]
        self.stock = order[TABLEAU + 1 :][::-1]
        self.history = []
        jokers = stock_jokers(self.level)
        in_stock = f"{jokers} of them jokers" if jokers != 1 else "1 of them a joker"
        events.append(
            public(
                "level",
                f"level {self.level}: 7 columns of 5 are dealt face up; the stack starts with "
                f"{self.stack[0].face}; the stock holds {len(self.stock)} cards, {in_stock}",
                0,
                self.stack,
            )
        )
        for index, column in enumerate(self.columns):
            text = f"column {index}: {faces(column)} ({column[-1].face} available)"
            events.append(public("column", text, 0, column))
        top_first = self.stock[::-1]
        events.append(
            private([], "stock_order", f"the stock, top first: {faces(top_first)}", 0, top_first)
        )

    # ------------------------------------------------------------------ GameState

    def deciders(self) -> tuple[int, ...]:
        return () if self.over else (0,)

    def in_turn(self) -> int | None:
        return None if self.over else 0

    def _takes(self) -> list[ThievesAction]:
        top = self.stack[-1]
        return [
            ThievesAction(ThievesActionKind.TAKE, index, column[-1])
            for index, column in enumerate(self.columns)
            if column and can_take(top, column[-1])
        ]

    def decision_kinds(self) -> dict[int, DecisionKind]:
        return {} if self.over else {0: DecisionKind.IN_TURN}

    def _legal_actions(self, seat: int) -> tuple[ThievesAction, ...]:
        actions = self._takes()
        if self.stock:
            actions.append(DRAW)
        if self.undo_enabled and self.history:
            actions.append(
                ThievesAction(ThievesActionKind.UNDO, self.history[-1][0], self.stack[-1])
            )
        return tuple(actions)

    def _apply(self, choices: Mapping[int, Action]) -> list[Event]:
        action = cast(ThievesAction, choices[0])
        events: list[Event] = []
        if action.kind is ThievesActionKind.TAKE:
            self._take(action.column, events)
        elif action.kind is ThievesActionKind.DRAW:
            self._draw(events)
        else:
            self._undo(events)
        if not self.over:
            self._check_end(events)
        return events

    # ------------------------------------------------------------------ moves

    def _take(self, index: int, events: list[Event]) -> None:
        card = self.columns[index].pop()
        points = card_points(card)
        self.stack.append(card)
        self.score += points
        self.history.append((index, points))
        events.append(
            public(
                "take",
                f"seat 0 takes {card.face} from column {index}: +{points}, score {self.score}",
                0,
                (card,),
            )
        )
        if any(self.columns):
            return
        self.score += CLEAR_BONUS
        text = f"the tableau is clear: +{CLEAR_BONUS}, score {self.score}"
        events.append(public("clear", text, 0))
        if self.level >= self.level_cap:
            self.over = True
            self.history = []
            text = f"level {self.level} is the last (level_cap): game over with {self.score} points"
            events.append(public("game_end", text, 0))
            return
        self._deal(events)

    def _draw(self, events: list[Event]) -> None:
        card = self.stock.pop()
        self.stack.append(card)
        self.history = []
        left = f"{len(self.stock)} left"
        events.append(
            public("draw", f"seat 0 draws {card.face} from the stock ({left})", 0, (card,))
        )

    def _undo(self, events: list[Event]) -> None:
        index, points = self.history.pop()
        card = self.stack.pop()
        self.columns[index].append(card)
        self.score -= points
        text = f"seat 0 undoes taking {card.face}: back to column {index}, score {self.score}"
        events.append(public("undo", text, 0, (card,)))

    def _check_end(self, events: list[Event]) -> None:
        if self.stock or self._takes():
            return
        self.over = True
        self.history = []
        text = (
            f"the stock is empty and no take is open: game over at level {self.level} "
            f"with {self.score} points"
        )
        events.append(public("game_end", text, 0))

    # ------------------------------------------------------------------ views

    def observe(self, seat: int) -> ThievesObservation:
        return ThievesObservation(
            level=self.level,
            level_cap=self.level_cap,
            score=self.score,
            columns=tuple(ThievesColumn(tuple(col)) for col in self.columns),
            stack_card=self.stack[-1],
            stock_size=len(self.stock),
            stock_cards=tuple(sorted(self.stock, key=by_id)),
            undo_enabled=self.undo_enabled,
            undoable=len(self.history) if self.undo_enabled else 0,
        )

    @property
    def is_over(self) -> bool:
        return self.over

    def result(self) -> Result:
        if not self.over:
            raise GameError("the game is not over yet")
        return Result(scores=(float(self.score),), places=(1,))

    def all_cards(self) -> list[Card]:
        cards = [c for col in self.columns for c in col]
        cards.extend(self.stack)
        cards.extend(self.stock)
        cards.extend(self.aside)
        return cards

    # ------------------------------------------------------------------ copies

    def clone(self) -> ThievesState:
        """A fast exact copy (cards are immutable and shared)."""
        new = self._copy_shell()
        new.columns = [list(col) for col in self.columns]
        new.stack = list(self.stack)
        new.stock = list(self.stock)
        new.aside = list(self.aside)
        new.history = list(self.history)
        return new

    def resample_hidden(self, seat: int, rng: random.Random) -> ThievesState:
        new = self.clone()
        new.chance = Chance(rng.getrandbits(64))
        rng.shuffle(new.stock)
        return new


# --------------------------------------------------------------------------- game


class Thieves(Game):
    """Thieves, the one-player solitaire; see the module docstring for the rulings."""

    name = "thieves"
    title = "Thieves (solitaire)"
    wire_name = "thieves"
    min_seats = 1
    max_seats = 1
    one_player = True
    simultaneous = False
    options = (
        OptionSpec(
            "level_cap",
            str(DEFAULT_LEVEL_CAP),
            "the last level: clearing its tableau ends the game",
            is_int=True,
        ),
        OptionSpec(
            "undo",
            "false",
            "allow UNDO of the takes since the last draw (for human play; off in tournaments)",
            choices=("false", "true"),
        ),
    )
    summary = (
        "One player; 52 cards and 3 jokers. Seven columns of five cards lie face up; the\n"
        "last card of each column is available. One card starts the stack; the rest is\n"
        "the stock, order hidden.\n"
        "Take an available card one rank above or below the stack card (A-2 ... Q-K; K\n"
        "and A are not next to each other); a joker takes or is taken by anything. The\n"
        "taken card becomes the stack card and scores A 8, 2 6, 3 6, 4 4, 5 4, 6-8 2,\n"
        "9 4, 10 4, J 6, Q 6, K 8, joker 0. You may always turn the next stock card\n"
        "onto the stack instead.\n"
        "Clearing the tableau scores 15 and deals the next level (level 1: one joker in\n"
        "the tableau, two in the stock; level 2: one and one; then one, in the tableau).\n"
        "The game ends when the stock is empty and no take is open (or level_cap is\n"
        "cleared). Option undo (human play): take back the takes since the last draw."
    )

    def new_state(self, num_seats: int, chance: Chance, options: Mapping[str, str]) -> ThievesState:
        if num_seats != 1:
            raise GameError(f"thieves is played by exactly 1 player, not {num_seats}")
        level_cap = int(options.get("level_cap", str(DEFAULT_LEVEL_CAP)))
        if level_cap < 1:
            raise GameError(f"level_cap must be at least 1, not {level_cap}")
        state = ThievesState(chance, level_cap, options.get("undo", "false") == "true")
        state.setup()
        return state
