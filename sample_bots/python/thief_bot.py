"""A Thief bot with a real heuristic: it counts cards and weighs every capture.

Run by the referee:  referee play thief --bot "python sample_bots/python/thief_bot.py" ...

The bot scores each legal action in "relative points": points it gains minus
points its opponents gain, weighting the current leader among the opponents
fully and the others by half (in a 2-seat game that is the zero-sum margin).
It then plays the best one; ties go to the first in the referee's order, so
the choice is a pure function of the observation.

What goes into a score, and why:

- Capture value. Every card that lands on the bot's pile scores for it
  (3-9 5, 10-K 10, A 15, 2 25, joker 50). A steal also takes the set away
  from the victim, so it counts twice against the leader.
- Re-capture risk. A stolen set can be taken straight back by the victim
  with a natural of the set's rank or any wild. The bot counts every card it
  can see (its hand, all piles, the discard pile) to know how many such cards
  are still hidden, and from that the chance the victim's hand holds one.
  If the victim takes it back, the bot's capturing card goes with the set.
- Holding wilds. 2s and jokers can steal anything and take sets back, so
  spending one costs an "option value" on top of the card itself; the cost
  fades as the stock runs out (cards left in hand score nothing). Where a
  natural can make the same steal or re-capture, the wild is kept: it will
  still score its points later, on another set.
- Exposure. Only the top set of a pile can be stolen, and every capture
  covers the previous one. When a capture will probably be the last of the
  turn, the bot counts how likely the opponents are to steal the set it
  would leave on top, and prefers to finish on a small set that covers a big
  one. Exposure orders captures but is no reason to stop early: a capture put
  off is no safer later, so the turn ends only when no capture pays at all.
- Forced discard. The bot discards the card whose rank has the fewest copies
  still hidden (the next players are least likely to match it, and the bot
  least likely to pair it), of low value, never a wild if it can help it, and
  not one that guards its own top set or could steal an opponent's next turn.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.sdk import Bot, run
from referee.v1 import cards_pb2, thief_pb2
from referee.v1 import referee_pb2 as pb

Kind = thief_pb2.ThiefActionKind

TWO = cards_pb2.RANK_TWO
JOKER = cards_pb2.RANK_JOKER
WILD_RANKS = frozenset({TWO, JOKER})

# Two 52-card decks plus four jokers: 8 of each rank, 4 jokers, 108 cards.
COPIES_PER_RANK = 8
JOKERS_IN_DECK = 4

# Option value of a wild kept in hand (it can steal anything, or take a set
# back), at full stock; it shrinks as the stock runs out.
HOLD_JOKER = 22.0
HOLD_TWO = 12.0
# Stock size at and above which holding a card is worth its full option value.
HOLD_FULL_STOCK = 30
# How much of a steal's value the bot keeps in mind for a natural that could
# steal an opponent's top set next turn, when choosing what to discard.
STEAL_THREAT_SHARE = 0.3
# How much a natural that could take back the bot's own top set is worth.
GUARD_SHARE = 0.3
# Share of a theft's cost that remains when the bot holds a card to take the
# set straight back (the thief may still answer, and the card goes with it).
GUARDED_LOSS_SHARE = 0.35
# Weight of points taken from / given to an opponent who is not the leader.
NON_LEADER_WEIGHT = 0.5
# The chance an opponent who can steal a set actually does (not everyone
# spends a wild on everything).
STEAL_PROPENSITY = 0.8


def card_points(rank: int) -> int:
    """What a card of `rank` scores in a capture pile."""
    if rank == JOKER:
        return 50
    if rank == TWO:
        return 25
    if rank == cards_pb2.RANK_ACE:
        return 15
    if rank >= cards_pb2.RANK_TEN:
        return 10
    return 5


def is_wild(rank: int) -> bool:
    return rank in WILD_RANKS


def set_points(cards: Iterable[cards_pb2.Card]) -> int:
    return sum(card_points(c.rank) for c in cards)


def set_rank(cards: Sequence[cards_pb2.Card]) -> int:
    """The rank a card needs to take a set back: that of its bottom card (every
    set starts as two cards of one rank, a pair or a discard match)."""
    return cards[0].rank if cards else JOKER


def chance_any(matching: int, unseen: int, drawn: int) -> float:
    """Chance that `drawn` cards taken at random from `unseen` cards include at
    least one of `matching` (hypergeometric); the cards a bot cannot see are
    the stock and the other hands, which look alike to it."""
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

    obs: thief_pb2.ThiefObservation
    # Copies of each rank the bot cannot see (in the stock or other hands).
    hidden: Counter[int]
    hidden_total: int
    # Each seat's standing: totals of past hands plus this hand's pile.
    standing: tuple[int, ...]

    @classmethod
    def of(cls, obs: thief_pb2.ThiefObservation) -> View:
        seen: Counter[int] = Counter(c.rank for c in obs.hand)
        seen.update(c.rank for c in obs.discard_pile)
        for pile in obs.piles:
            for s in pile.sets:
                seen.update(c.rank for c in s.cards)
        # A disputed set lies on its holder's pile, so it is counted already.
        hidden: Counter[int] = Counter()
        for rank in range(cards_pb2.RANK_TWO, cards_pb2.RANK_ACE + 1):
            hidden[rank] = max(0, COPIES_PER_RANK - seen[rank])
        hidden[JOKER] = max(0, JOKERS_IN_DECK - seen[JOKER])
        total = sum(hidden.values())
        totals = list(obs.totals) or [0] * obs.seats
        values = list(obs.pile_values) or [0] * obs.seats
        standing = tuple(t + v for t, v in zip(totals, values, strict=False))
        return cls(obs, hidden, total, standing)

    @property
    def me(self) -> int:
        return self.obs.seat

    @property
    def opponents(self) -> list[int]:
        return [s for s in range(self.obs.seats) if s != self.me]

    @property
    def hidden_wilds(self) -> int:
        return self.hidden[TWO] + self.hidden[JOKER]

    def weight(self, seat: int) -> float:
        """How much a point of `seat`'s counts against the bot: the opponent
        most dangerous to the bot's place fully, the others by half."""
        opponents = self.opponents
        if len(opponents) <= 1:
            return 1.0
        leader = max(opponents, key=lambda s: (self.standing[s], -s))
        return 1.0 if seat == leader else NON_LEADER_WEIGHT

    def mean_weight(self) -> float:
        opponents = self.opponents
        return sum(self.weight(s) for s in opponents) / max(1, len(opponents))

    def hand_size(self, seat: int) -> int:
        sizes = self.obs.hand_sizes
        return sizes[seat] if seat < len(sizes) else 3

    def stock_factor(self) -> float:
        """1 with a full stock, falling to 0 when it is empty: holding a card
        for later is worth less the fewer turns are left."""
        return min(1.0, self.obs.stock_size / HOLD_FULL_STOCK)

    def takers(self, rank: int) -> int:
        """Hidden cards that could take a set whose relevant rank is `rank`:
        naturals of that rank plus every wild."""
        if is_wild(rank):
            return self.hidden_wilds
        return self.hidden[rank] + self.hidden_wilds

    def top_set(self, seat: int) -> list[cards_pb2.Card]:
        pile = self.obs.piles[seat] if seat < len(self.obs.piles) else None
        if pile is None or not pile.sets:
            return []
        return list(pile.sets[-1].cards)


def hold_value(view: View, card: cards_pb2.Card, hand: Sequence[cards_pb2.Card]) -> float:
    """The option value of keeping `card` in hand rather than playing it now.

    Wilds are worth keeping for a bigger steal or a re-capture; a natural is
    worth keeping when it is the only card that could take back the bot's own
    top set if that is stolen."""
    factor = view.stock_factor()
    if factor <= 0.0:
        return 0.0
    if card.rank == JOKER:
        return HOLD_JOKER * factor
    if card.rank == TWO:
        return HOLD_TWO * factor
    mine = view.top_set(view.me)
    if not mine or set_rank(mine) != card.rank:
        return 0.0
    others = [c for c in hand if c.id != card.id and can_guard([c], card.rank)]
    return 0.0 if others else GUARD_SHARE * set_points(mine) * factor


def threat_value(view: View, card: cards_pb2.Card) -> float:
    """What a natural in hand is worth as a steal next turn: the best
    opponent top set whose top card has its rank (it may be covered or
    stolen by then, hence only a share)."""
    best = 0.0
    for seat in view.opponents:
        top = view.top_set(seat)
        if top and top[-1].rank == card.rank:
            best = max(best, set_points(top) * (1.0 + view.weight(seat)))
    return STEAL_THREAT_SHARE * best * view.stock_factor()


def steal_risk(view: View, top_card_rank: int, spared: Iterable[int] = ()) -> float:
    """The chance that some opponent steals a set whose top card has rank
    `top_card_rank` before the bot's next turn. Jokers and 2s on top can only
    be taken by wilds. Seats in `spared` have just shown they hold no taker
    (they lost or declined an exchange over this set) and are left out."""
    if view.obs.stock_size == 0:
        return 0.0  # the hand ends with this turn
    matching = view.takers(top_card_rank)
    skip = set(spared)
    keep = 1.0
    for seat in view.opponents:
        if seat in skip:
            continue
        p = chance_any(matching, view.hidden_total, view.hand_size(seat))
        keep *= 1.0 - STEAL_PROPENSITY * p
    return 1.0 - keep


def exposure(
    view: View, cards: Sequence[cards_pb2.Card], guards: bool, spared: Iterable[int] = ()
) -> float:
    """The expected relative loss of leaving the set `cards` on top of the
    bot's pile at the end of its turn. `guards` says the bot's remaining hand
    could take it back, which makes a theft much less costly."""
    if not cards:
        return 0.0
    p = steal_risk(view, cards[-1].rank, spared)
    if guards:
        p *= GUARDED_LOSS_SHARE
    return p * set_points(cards) * (1.0 + view.mean_weight())


def can_guard(hand: Iterable[cards_pb2.Card], rank: int) -> bool:
    return any(is_wild(c.rank) or c.rank == rank for c in hand)


def remaining_hand(
    hand: Sequence[cards_pb2.Card], used: Iterable[cards_pb2.Card]
) -> list[cards_pb2.Card]:
    used_ids = {c.id for c in used}
    return [c for c in hand if c.id not in used_ids]


def captured_set(view: View, action: thief_pb2.ThiefAction) -> list[cards_pb2.Card]:
    """The set a capture would put on top of the bot's pile (capturing card last)."""
    obs = view.obs
    if action.kind == Kind.THIEF_ACTION_KIND_PAIR:
        return list(action.cards)
    if action.kind == Kind.THIEF_ACTION_KIND_DISCARD_MATCH:
        top = [obs.discard_pile[-1]] if obs.discard_pile else []
        return top + list(action.cards)
    if action.kind == Kind.THIEF_ACTION_KIND_STEAL:
        return view.top_set(action.target) + list(action.cards)
    if action.kind == Kind.THIEF_ACTION_KIND_RECAPTURE and obs.HasField("dispute"):
        return list(obs.dispute.set.cards) + list(action.cards)
    return []


def fight_value(
    view: View,
    prize: float,
    my_card: cards_pb2.Card,
    rival: int,
    rank: int,
    hand_after: Sequence[cards_pb2.Card],
) -> float:
    """Expected relative gain of putting `my_card` on a contested set worth
    `prize` (before the card) that `rival` may take back with a natural of
    `rank` or a wild.

    Kept: the bot gains prize + its card, the rival loses the prize (what it
    had of it). Taken back: the bot's card goes to the rival. If the bot still
    holds a card that could answer, it will probably win the exchange back."""
    w = view.weight(rival)
    card = card_points(my_card.rank)
    kept = prize + card + w * prize
    lost = -w * (card + 5.0)
    p_back = chance_any(view.takers(rank), view.hidden_total, view.hand_size(rival))
    if can_guard(hand_after, rank):
        # The bot answers; the rival needs yet another matching card.
        p_back *= chance_any(
            max(0, view.takers(rank) - 1), view.hidden_total, view.hand_size(rival)
        )
    return (1.0 - p_back) * kept + p_back * lost


def capture_gain(view: View, action: thief_pb2.ThiefAction) -> float:
    """Relative points of a capture, before exposure at the end of the turn."""
    obs = view.obs
    hand = list(obs.hand)
    used = list(action.cards)
    after = remaining_hand(hand, used)
    cost = sum(hold_value(view, c, hand) for c in used)
    kind = action.kind
    if kind in (Kind.THIEF_ACTION_KIND_PAIR, Kind.THIEF_ACTION_KIND_DISCARD_MATCH):
        return set_points(captured_set(view, action)) - cost
    if kind == Kind.THIEF_ACTION_KIND_STEAL:
        stolen = view.top_set(action.target)
        rank = set_rank(stolen) if stolen else JOKER
        card = used[0] if used else cards_pb2.Card(rank=JOKER)
        return fight_value(view, set_points(stolen), card, action.target, rank, after) - cost
    if kind == Kind.THIEF_ACTION_KIND_RECAPTURE and obs.HasField("dispute"):
        dispute = obs.dispute
        card = used[0] if used else cards_pb2.Card(rank=JOKER)
        prize = float(set_points(dispute.set.cards))
        return fight_value(view, prize, card, dispute.holder, dispute.rank, after) - cost
    return 0.0


def conflicts(a: thief_pb2.ThiefAction, b: thief_pb2.ThiefAction) -> bool:
    """Whether two captures cannot both be made (shared card or same target)."""
    if {c.id for c in a.cards} & {c.id for c in b.cards}:
        return True
    if a.kind == b.kind == Kind.THIEF_ACTION_KIND_DISCARD_MATCH:
        return True
    return a.kind == b.kind == Kind.THIEF_ACTION_KIND_STEAL and a.target == b.target


CAPTURES = frozenset(
    {
        Kind.THIEF_ACTION_KIND_PAIR,
        Kind.THIEF_ACTION_KIND_DISCARD_MATCH,
        Kind.THIEF_ACTION_KIND_STEAL,
    }
)


def wasted_wild(
    view: View, action: thief_pb2.ThiefAction, others: Sequence[thief_pb2.ThiefAction]
) -> float:
    """The cost of spending a wild where a natural would do the same job (the
    same steal, or the same re-capture): the natural is only good here, while
    the wild would still score its points later, on top of another set."""
    if not action.cards or not is_wild(action.cards[0].rank):
        return 0.0
    same_job = any(
        other.kind == action.kind
        and other.target == action.target
        and other.cards
        and not is_wild(other.cards[0].rank)
        for other in others
    )
    return card_points(action.cards[0].rank) * view.stock_factor() if same_job else 0.0


def top_exposure(view: View) -> float:
    """The exposure of the bot's current top set, which any capture would cover."""
    old_set = view.top_set(view.me)
    if not old_set:
        return 0.0
    return exposure(view, old_set, can_guard(view.obs.hand, set_rank(old_set)))


def score_capture(
    view: View, action: thief_pb2.ThiefAction, others: Sequence[thief_pb2.ThiefAction]
) -> float:
    """A capture's gain plus, when it will likely end the turn, the change in
    exposure from covering the current top set with the new one. This ranks
    captures against each other: the last one should leave a small set on top."""
    gain = capture_gain(view, action) - wasted_wild(view, action, others)
    follow_up = any(
        not conflicts(action, other) and capture_gain(view, other) > 0
        for other in others
        if other is not action
    )
    if follow_up:
        return gain  # another capture will cover this set; exposure is decided later
    hand_after = remaining_hand(list(view.obs.hand), action.cards)
    new_set = captured_set(view, action)
    # A steal's victim just had its chance to take the set back.
    spared = [action.target] if action.kind == Kind.THIEF_ACTION_KIND_STEAL else []
    after = exposure(view, new_set, can_guard(hand_after, set_rank(new_set)), spared)
    return gain + top_exposure(view) - after


def score_end_turn(view: View, captures: Sequence[thief_pb2.ThiefAction]) -> float:
    """0 (nothing changes) when no capture pays, else minus infinity.

    The exposure of the set a capture would leave on top is no reason to stop:
    putting the capture off does not make it safer (a pair stays in hand to be
    laid later; a discard top or an opponent's set may go to someone else),
    while the capture covers the current top set at once. So the turn ends
    only when no capture gains anything even counting that cover."""
    cover = top_exposure(view)
    if any(capture_gain(view, c) + cover > 0 for c in captures):
        return -math.inf
    return 0.0


def score_discard(view: View, card: cards_pb2.Card) -> float:
    """Minus the cost of throwing `card` on the discard pile.

    The next players take it with a natural of its rank, gaining it and their
    card; the fewer copies are hidden, the less likely. The bot also loses
    the card's option value (wilds, guards, steal threats) and its chance of
    pairing with a draw."""
    hand = list(view.obs.hand)
    if is_wild(card.rank):
        # A wild on the discard pile is a gift and a lost weapon.
        return -(card_points(card.rank) * 2.0 + hold_value(view, card, hand) + 100.0)
    hidden = view.hidden[card.rank]
    p_taken = 1.0 - (1.0 - chance_any(hidden, view.hidden_total, 3)) ** max(1, len(view.opponents))
    gift = p_taken * (card_points(card.rank) + 5.0) * view.mean_weight()
    pairing = chance_any(hidden, view.hidden_total, 1) * 2.0 * card_points(card.rank)
    return -(gift + pairing + hold_value(view, card, hand) + threat_value(view, card))


def score_action(
    view: View, action: thief_pb2.ThiefAction, others: Sequence[thief_pb2.ThiefAction]
) -> float:
    """The relative-points score of one legal action."""
    kind = action.kind
    captures = [o for o in others if o.kind in CAPTURES]
    if kind in CAPTURES:
        return score_capture(view, action, captures)
    if kind == Kind.THIEF_ACTION_KIND_END_TURN:
        return score_end_turn(view, captures)
    if kind == Kind.THIEF_ACTION_KIND_RECAPTURE:
        return capture_gain(view, action) - wasted_wild(view, action, others)
    if kind == Kind.THIEF_ACTION_KIND_DISCARD and action.cards:
        return score_discard(view, action.cards[0])
    # DECLINE and anything unknown: the status quo.
    return 0.0


def choose_action(observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
    """The index of the best-scoring action; ties go to the earliest.

    A pure function of its arguments, so tests and tools can call it in-process."""
    if len(actions) <= 1 or not observation.HasField("thief"):
        return 0
    view = View.of(observation.thief)
    moves = [a.thief for a in actions]
    best_index, best_score = 0, -math.inf
    for index, move in enumerate(moves):
        score = score_action(view, move, moves)
        if score > best_score + 1e-9:
            best_index, best_score = index, score
    return best_index


class ThiefBot(Bot):
    name = "thief-heuristic"

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return choose_action(observation, actions)


if __name__ == "__main__":
    run(ThiefBot())
