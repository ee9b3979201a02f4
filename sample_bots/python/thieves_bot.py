"""A Thieves bot that plans whole runs of takes over the visible tableau.

Run by the referee:  referee play thieves --bot "python sample_bots/python/thieves_bot.py"

The whole tableau is face up and the stock's contents are known (only its order
is hidden), so everything up to the next draw is known exactly. The bot:

1. Searches every sequence of takes from the current stack card (depth-first,
   memoised on the column heights and the stack card, so a joker's wide
   branching costs little). A run is worth its points, plus 15 and the value of
   a fresh level if it clears the tableau, plus an estimate of what the tableau
   it leaves behind is still worth. Stopping (drawing) is a choice at every
   step, so the search may stop early when taking on would spoil more than it
   gains.
2. Looks one draw deeper before committing: for "draw now" and for the best run
   after each possible first take (stopping after any of its prefixes), it
   averages, over the cards the stock may turn up next (weighted by how many of
   each rank it holds), the best run that card would start. It makes the first
   take of the best of these, or draws.

The estimate of a tableau left behind credits each remaining card with its
points plus a bonus for each neighbouring rank still about (in the stock or the
tableau: a card with neighbours can be taken later, a king with no queen left
is dead weight), scaled down by the cards covering it and by how little of the
stock is left. With the stock empty, stopping ends the game, so a run is just
its points. The weights were tuned on deals other than those the tests use.

The bot is deterministic: a pure function of the observation. It never undoes.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.sdk import Bot, run
from referee.v1 import cards_pb2, thieves_pb2
from referee.v1 import referee_pb2 as pb

Kind = thieves_pb2.ThievesActionKind
R = cards_pb2
JOKER = R.RANK_JOKER

POINTS: dict[int, int] = {
    R.RANK_ACE: 8,
    R.RANK_TWO: 6,
    R.RANK_THREE: 6,
    R.RANK_FOUR: 4,
    R.RANK_FIVE: 4,
    R.RANK_SIX: 2,
    R.RANK_SEVEN: 2,
    R.RANK_EIGHT: 2,
    R.RANK_NINE: 4,
    R.RANK_TEN: 4,
    R.RANK_JACK: 6,
    R.RANK_QUEEN: 6,
    R.RANK_KING: 8,
    R.RANK_JOKER: 0,
}
CLEAR_BONUS = 15
# What a fresh level is worth to this bot, roughly its mean score per level
# (a clear outweighs any run either way, so the exact figure matters little).
LEVEL_VALUE = 120.0
# The share of a remaining card's points credited when nothing covers it and
# the stock is full; each covering card and each missing stock card lowers it.
BASE_SHARE = 1.0
COVER_DECAY = 0.75
FULL_STOCK = 19
# Extra worth of a remaining card per neighbouring rank still to come.
BRIDGE = 2.0
# Search budget per decision (memoised states); far above what deals need.
MAX_NODES = 200_000


def step(rank: int) -> int:
    """A rank's place in A 2 ... K (ace low); the joker has none (0)."""
    if rank == JOKER:
        return 0
    return 1 if rank == R.RANK_ACE else int(rank)


def adjacent(a: int, b: int) -> bool:
    """Whether a card of rank `a` takes one of rank `b` (or the reverse)."""
    if a == JOKER or b == JOKER:
        return True
    return abs(step(a) - step(b)) == 1


class Planner:
    """One decision's search over the tableau; ranks are proto Rank numbers."""

    def __init__(self, columns: Sequence[Sequence[int]], stack: int, stock: Sequence[int]) -> None:
        self.columns = [tuple(col) for col in columns]
        self.stack = stack
        self.stock_size = len(stock)
        self.stock_share = min(1.0, self.stock_size / FULL_STOCK)
        # Ranks about are a bitmask of steps (bit 0: a joker).
        self.stock_mask = 0
        for rank in stock:
            if rank != JOKER:
                self.stock_mask |= 1 << step(rank)
        self.stock_jokers = any(rank == JOKER for rank in stock)
        self.steps = [tuple(step(rank) for rank in col) for col in self.columns]
        self.nodes = 0
        self.memo: dict[tuple[tuple[int, ...], int], tuple[float, int]] = {}
        self.leftover: dict[tuple[int, ...], float] = {}
        # Per column and height: the steps present, the points part of the
        # estimate, and (share, step) of each card for the bridges part.
        self.masks: list[list[int]] = []
        self.bases: list[list[float]] = []
        self.cards: list[list[tuple[tuple[float, int], ...]]] = []
        for col in self.columns:
            masks: list[int] = [0]
            bases: list[float] = [0.0]
            cards: list[tuple[tuple[float, int], ...]] = [()]
            for h in range(1, len(col) + 1):
                left = list(reversed(col[:h]))  # available card first
                mask = 0
                for rank in left:
                    mask |= 1 << step(rank)
                shares = [BASE_SHARE * COVER_DECAY**depth for depth in range(h)]
                masks.append(mask)
                bases.append(sum(sh * POINTS.get(r, 0) for sh, r in zip(shares, left, strict=True)))
                cards.append(tuple((sh, step(r)) for sh, r in zip(shares, left, strict=True)))
            self.masks.append(masks)
            self.bases.append(bases)
            self.cards.append(cards)

    def leftover_value(self, heights: tuple[int, ...]) -> float:
        """What the tableau left behind is still worth, roughly (see the module doc)."""
        if self.stock_size == 0:
            return 0.0
        known = self.leftover.get(heights)
        if known is not None:
            return known
        about = self.stock_mask
        for masks, h in zip(self.masks, heights, strict=False):
            about |= masks[h]
        base = 0.0
        bridged = 0.0
        for index, h in enumerate(heights):
            base += self.bases[index][h]
            for share, s in self.cards[index][h]:
                if s == 0:
                    bridges = 1
                else:
                    bridges = (about >> (s - 1)) & 1
                    if s != 13:
                        bridges += (about >> (s + 1)) & 1
                    if self.stock_jokers and not bridges:
                        bridges = 1
                bridged += share * bridges
        total = self.stock_share * (base + BRIDGE * bridged)
        self.leftover[heights] = total
        return total

    def best(self, heights: tuple[int, ...], stack: int) -> tuple[float, int]:
        """The best value from here and the column to take first (-1: stop and draw)."""
        key = (heights, stack)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        value, move = self.leftover_value(heights), -1
        if self.nodes > MAX_NODES:
            return value, move
        here = step(stack)
        for index, h in enumerate(heights):
            if h == 0:
                continue
            card = self.columns[index][h - 1]
            there = self.steps[index][h - 1]
            if here and there and abs(here - there) != 1:
                continue
            after = (*heights[:index], h - 1, *heights[index + 1 :])
            gain = float(POINTS.get(card, 0))
            if not any(after):
                total = gain + CLEAR_BONUS + LEVEL_VALUE
            else:
                total = gain + self.best(after, card)[0]
            if total > value + 1e-9:
                value, move = total, index
        self.memo[key] = (value, move)
        return value, move

    def after_draw(self, heights: tuple[int, ...], stock: Sequence[int]) -> float:
        """The expected value of stopping here: the best run after each possible draw."""
        counts: dict[int, int] = {}
        for rank in stock:
            counts[rank] = counts.get(rank, 0) + 1
        total = sum(counts.values())
        return sum(n * self.best(heights, rank)[0] for rank, n in counts.items()) / total

    def choose_with_lookahead(
        self, heights: tuple[int, ...], stack: int, stock: Sequence[int]
    ) -> int:
        """Compare stopping now with the best run after each first take, each judged
        by what the next draw is expected to bring (one draw deeper than `best`)."""
        best_value, best_move = self.after_draw(heights, stock), -1
        for index, (col, h) in enumerate(zip(self.columns, heights, strict=False)):
            if h == 0 or not adjacent(stack, col[h - 1]):
                continue
            value = self.line_value(index, heights, stock)
            if value > best_value + 1e-9:
                best_value, best_move = value, index
        return best_move

    def line_value(self, first: int, heights: tuple[int, ...], stock: Sequence[int]) -> float:
        """The best of stopping after each prefix of the best run that starts by
        taking from column `first`, each stop judged one draw deeper."""
        points, best_value = 0.0, -1e18
        move = first
        while True:
            stack = self.columns[move][heights[move] - 1]
            points += POINTS.get(stack, 0)
            heights = (*heights[:move], heights[move] - 1, *heights[move + 1 :])
            if not any(heights):
                return max(best_value, points + CLEAR_BONUS + LEVEL_VALUE)
            best_value = max(best_value, points + self.after_draw(heights, stock))
            _, move = self.best(heights, stack)
            if move < 0:
                return best_value


def choose_action(observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
    """The index of the first take of the best run, or of the draw (a pure function)."""
    obs = observation.thieves
    takes: dict[int, int] = {}
    draw = -1
    for index, action in enumerate(actions):
        move = action.thieves
        if move.kind == Kind.THIEVES_ACTION_KIND_TAKE:
            takes[move.column] = index
        elif move.kind == Kind.THIEVES_ACTION_KIND_DRAW:
            draw = index
    if not takes:
        return draw if draw >= 0 else 0
    columns = [[c.rank for c in col.cards] for col in obs.columns]
    stock = [c.rank for c in obs.stock_cards]
    planner = Planner(columns, obs.stack_card.rank, stock)
    heights = tuple(len(col) for col in columns)
    if stock:
        column = planner.choose_with_lookahead(heights, obs.stack_card.rank, stock)
    else:
        _, column = planner.best(heights, obs.stack_card.rank)
    if column in takes:
        return takes[column]
    return draw if draw >= 0 else min(takes.values())


class ThievesBot(Bot):
    name = "thieves-planner"

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return choose_action(observation, actions)


if __name__ == "__main__":
    run(ThievesBot())
