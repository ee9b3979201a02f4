"""A Four Card Thief bot with a real heuristic: it counts cards and weighs every play.

Run by the referee:
    referee play four-card-thief --bot "python sample_bots/python/four_card_thief_bot.py" ...

The bot scores each legal action in "relative points": points it gains minus
points its opponents gain, weighting the current leader among the opponents
fully and the others by half (in a 2-seat game that is the zero-sum margin).
It plays the best one; ties go to the first in the referee's order, so the
choice is a pure function of the observation.

What goes into a score, and why:

- Capture value. Every card that lands on the bot's pile scores for it (joker
  25, J Q K A 10, 2-10 1) and cards left in hand at the end score nothing, so
  captures are almost always worth making. A steal also takes the set away
  from its victim, which counts against that opponent.
- Exposure. Only the top set of a pile can be stolen, by a card of its top
  card's rank or a joker, and there is no re-capture. The bot counts every card
  it can see (its hand, the layout, all piles) to know how many such cards are
  still hidden, and from that the chance that an opponent holds one before the
  bot's next turn. When a capture will probably be the last of the turn, the
  bot prefers to leave a small set on top, covering a big one; a set of four
  natural cards of one rank is locked and safe. Captures that will be followed
  by others are taken biggest first, the cheap cover comes last.
- Jokers. A joker steals any unlocked top set and is worth 25 on a pile, but
  only once: spending it costs an option value that fades as the stock runs out.
- The discard. It goes face up into the layout, where the next players take it
  with a card of its rank. The bot discards the card whose rank has the fewest
  copies still hidden and that is worth least to keep (low points, no steal
  threat against an opponent's top set, never a joker if it can help it).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.sdk import Bot, run
from referee.v1 import cards_pb2
from referee.v1 import four_card_thief_pb2 as fct_pb2
from referee.v1 import referee_pb2 as pb

Kind = fct_pb2.FourCardThiefActionKind
PAIR = Kind.FOUR_CARD_THIEF_ACTION_KIND_PAIR
LAYOUT_MATCH = Kind.FOUR_CARD_THIEF_ACTION_KIND_LAYOUT_MATCH
STEAL = Kind.FOUR_CARD_THIEF_ACTION_KIND_STEAL
DISCARD = Kind.FOUR_CARD_THIEF_ACTION_KIND_DISCARD
CAPTURES = frozenset({PAIR, LAYOUT_MATCH, STEAL})

JOKER = cards_pb2.RANK_JOKER
# One deck and three jokers: 4 of each rank, 55 cards.
COPIES_PER_RANK = 4
JOKERS_IN_DECK = 3

# Share of its own 25 points a joker kept in hand is worth: it will score later,
# maybe on a bigger steal, but the sets it could take now may be gone by then.
# (Measured against a greedy player: higher shares hoard jokers and lose.)
JOKER_KEEP = 0.5
# Stock size at and above which holding a card is worth its full option value.
HOLD_FULL_STOCK = 25
# Weight of points taken from / given to an opponent who is not the leader.
NON_LEADER_WEIGHT = 0.5
# The chance an opponent who can steal a set actually does (it may prefer other
# captures, and the set may be covered by a later player's capture first).
STEAL_PROPENSITY = 0.5
# Share of a steal's value kept in mind for a natural that threatens an
# opponent's top set next turn, when choosing what to discard.
THREAT_SHARE = 0.3
# Share of its own points a natural is worth kept in hand (it may pair or
# match later and then scores).
KEEP_SHARE = 0.4


def card_points(rank: int) -> int:
    """What a card of `rank` scores on a capture pile."""
    if rank == JOKER:
        return 25
    if rank >= cards_pb2.RANK_JACK:
        return 10
    return 1


def set_points(cards: Iterable[cards_pb2.Card]) -> int:
    return sum(card_points(c.rank) for c in cards)


def is_locked(cards: Sequence[cards_pb2.Card]) -> bool:
    """Exactly four natural cards of one rank: such a set can never be stolen."""
    return (
        len(cards) == 4 and cards[0].rank != JOKER and all(c.rank == cards[0].rank for c in cards)
    )


def chance_any(matching: int, unseen: int, drawn: int) -> float:
    """Chance that `drawn` cards taken at random from `unseen` cards include at
    least one of `matching` (hypergeometric)."""
    if matching <= 0 or drawn <= 0 or unseen <= 0:
        return 0.0
    if drawn > unseen - matching:
        return 1.0
    miss = 1.0
    for i in range(drawn):
        miss *= (unseen - matching - i) / (unseen - i)
    return 1.0 - miss


@dataclass(frozen=True)
class View:
    """What the bot reads from one observation, with the card count done."""

    obs: fct_pb2.FourCardThiefObservation
    hidden: Counter[int]
    hidden_total: int
    standing: tuple[int, ...]

    @classmethod
    def of(cls, obs: fct_pb2.FourCardThiefObservation) -> View:
        seen: Counter[int] = Counter(c.rank for c in obs.hand)
        seen.update(c.rank for c in obs.layout)
        for pile in obs.piles:
            for s in pile.sets:
                seen.update(c.rank for c in s.cards)
        hidden: Counter[int] = Counter()
        for rank in range(cards_pb2.RANK_TWO, cards_pb2.RANK_ACE + 1):
            hidden[rank] = max(0, COPIES_PER_RANK - seen[rank])
        hidden[JOKER] = max(0, JOKERS_IN_DECK - seen[JOKER])
        totals = list(obs.totals) or [0] * obs.seats
        values = list(obs.pile_values) or [0] * obs.seats
        standing = tuple(t + v for t, v in zip(totals, values, strict=False))
        return cls(obs, hidden, sum(hidden.values()), standing)

    @property
    def me(self) -> int:
        return self.obs.seat

    @property
    def opponents(self) -> list[int]:
        return [s for s in range(self.obs.seats) if s != self.me]

    def weight(self, seat: int) -> float:
        opponents = self.opponents
        if len(opponents) <= 1:
            return 1.0
        leader = max(opponents, key=lambda s: (self.standing[s], -s))
        return 1.0 if seat == leader else NON_LEADER_WEIGHT

    def mean_weight(self) -> float:
        opponents = self.opponents
        return sum(self.weight(s) for s in opponents) / max(1, len(opponents))

    def stock_factor(self) -> float:
        return min(1.0, self.obs.stock_size / HOLD_FULL_STOCK)

    def top_set(self, seat: int) -> list[cards_pb2.Card]:
        if seat >= len(self.obs.piles) or not self.obs.piles[seat].sets:
            return []
        return list(self.obs.piles[seat].sets[-1].cards)

    def takers(self, top_rank: int) -> int:
        """Hidden cards that could steal a set whose top card has `top_rank`."""
        if top_rank == JOKER:
            return self.hidden[JOKER]
        return self.hidden[top_rank] + self.hidden[JOKER]


def exposure(view: View, cards: Sequence[cards_pb2.Card]) -> float:
    """The expected relative loss of leaving the set `cards` on top of the bot's
    pile at the end of its turn: the chance some opponent steals it before the
    bot's next turn, times what the bot loses and the thief gains."""
    if not cards or is_locked(cards) or view.obs.stock_size == 0:
        return 0.0
    matching = view.takers(cards[-1].rank)
    keep = 1.0
    for _ in view.opponents:
        # An opponent sees its 4 cards, its opening draw and refills.
        p = chance_any(matching, view.hidden_total, 6)
        keep *= 1.0 - STEAL_PROPENSITY * p
    return (1.0 - keep) * set_points(cards) * (1.0 + view.mean_weight())


def hold_value(view: View, card: cards_pb2.Card) -> float:
    """What keeping `card` for later is worth: a joker will probably score its 25
    later (it steals any unlocked set); a natural scores only if it pairs or
    matches later. Worth less as the stock runs out (cards left in hand score
    nothing)."""
    if card.rank == JOKER:
        return JOKER_KEEP * card_points(JOKER) * view.stock_factor()
    pairing = chance_any(view.hidden[card.rank], 1 + view.hidden_total, 3)
    return KEEP_SHARE * card_points(card.rank) * pairing * view.stock_factor()


def captured_set(view: View, action: fct_pb2.FourCardThiefAction) -> list[cards_pb2.Card]:
    """The set a capture puts on top of the bot's pile (capturing card last)."""
    if action.kind == PAIR:
        return list(action.cards)
    if action.kind == LAYOUT_MATCH:
        return [action.taken, *action.cards]
    if action.kind == STEAL:
        return view.top_set(action.target) + list(action.cards)
    return []


def capture_gain(view: View, action: fct_pb2.FourCardThiefAction) -> float:
    """Relative points of a capture, before exposure at the end of the turn."""
    gain = float(set_points(captured_set(view, action)))
    if action.kind == STEAL:
        gain += view.weight(action.target) * set_points(view.top_set(action.target))
    # Spending a joker spends its option on a later, maybe bigger, steal.
    return gain - sum(hold_value(view, c) for c in action.cards if c.rank == JOKER)


def conflicts(a: fct_pb2.FourCardThiefAction, b: fct_pb2.FourCardThiefAction) -> bool:
    """Whether two captures cannot both be made (a shared card, the same layout
    card, or the same victim's top set)."""
    if {c.id for c in a.cards} & {c.id for c in b.cards}:
        return True
    if a.kind == b.kind == LAYOUT_MATCH and a.taken.rank == b.taken.rank:
        return True
    return a.kind == b.kind == STEAL and a.target == b.target


def score_capture(
    view: View, action: fct_pb2.FourCardThiefAction, others: Sequence[fct_pb2.FourCardThiefAction]
) -> float:
    """A capture's gain plus, when it will likely end the run of captures, the
    change in exposure from covering the current top set with the new one."""
    gain = capture_gain(view, action)
    follow_up = any(
        not conflicts(action, other) and capture_gain(view, other) > 0
        for other in others
        if other is not action
    )
    if follow_up:
        return gain
    old = exposure(view, view.top_set(view.me))
    return gain + old - exposure(view, captured_set(view, action))


def threat_value(view: View, card: cards_pb2.Card) -> float:
    """What a natural in hand is worth as a steal next turn: the best unlocked
    opponent top set whose top card has its rank."""
    best = 0.0
    for seat in view.opponents:
        top = view.top_set(seat)
        if top and not is_locked(top) and top[-1].rank == card.rank:
            best = max(best, set_points(top) * (1.0 + view.weight(seat)))
    return THREAT_SHARE * best * view.stock_factor()


def score_discard(view: View, card: cards_pb2.Card) -> float:
    """Minus the cost of putting `card` into the layout (and ending the turn,
    which leaves the bot's top set exposed: the same for every discard)."""
    opponents = len(view.opponents)
    p_taken = 1.0 - (1.0 - chance_any(view.hidden[card.rank], view.hidden_total, 6)) ** max(
        1, opponents
    )
    gift = p_taken * 2.0 * card_points(card.rank) * view.mean_weight()
    cost = gift + hold_value(view, card) + threat_value(view, card)
    return -cost - exposure(view, view.top_set(view.me))


def score_action(
    view: View, action: fct_pb2.FourCardThiefAction, others: Sequence[fct_pb2.FourCardThiefAction]
) -> float:
    if action.kind in CAPTURES:
        captures = [o for o in others if o.kind in CAPTURES]
        return score_capture(view, action, captures)
    if action.kind == DISCARD and action.cards:
        return score_discard(view, action.cards[0])
    return -math.inf


def choose_action(observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
    """The index of the best-scoring action; ties go to the earliest.

    A pure function of its arguments, so tests and tools can call it in-process."""
    if len(actions) <= 1 or not observation.HasField("four_card_thief"):
        return 0
    view = View.of(observation.four_card_thief)
    moves = [a.four_card_thief for a in actions]
    best_index, best_score = 0, -math.inf
    for index, move in enumerate(moves):
        score = score_action(view, move, moves)
        if score > best_score + 1e-9:
            best_index, best_score = index, score
    return best_index


class FourCardThiefBot(Bot):
    name = "four-card-thief-heuristic"

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return choose_action(observation, actions)


if __name__ == "__main__":
    run(FourCardThiefBot())
