"""A Ghârat bot with a real heuristic: it counts cards and weighs every play.

Run by the referee:  referee play gharat --bot "python sample_bots/python/gharat_bot.py" ...

The bot scores each legal action in "relative points": points its side gains
minus points the other side gains. With partnerships its partner's points count
as its own; otherwise the leading opponent counts fully and the others by half
(in a 2-seat game that is the zero-sum margin). It plays the best action; ties
go to the first in the referee's order, so the choice is a pure function of the
observation.

What goes into a score, and why:

- Capture value. A capture moves the played card and the taken run (the top
  card and every further card of that rank on top) onto the bot's pile; a loot
  also takes those points from the victim, so looting the leader is worth most
  and looting one's partner only adds the played card.
- Exposure. Whatever rank ends on top of the bot's pile can be looted, whole
  run at once, by any opponent holding a card of that rank before the bot's
  next turn. The bot counts every card it can see (its hand, the play pile as
  far as it is known, all capture piles) to know how many cards of each rank
  are still hidden, and from the opponents' hand sizes the chance that one of
  them holds such a card. A run holding every card of its rank is safe.
- The drop. A card that matches nothing goes on top of the play pile, where
  the next players take it with a card of its rank. The bot drops the card
  that is least likely to be taken and worth least (dead ranks, low points).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.sdk import Bot, run
from referee.v1 import cards_pb2, gharat_pb2
from referee.v1 import referee_pb2 as pb

Kind = gharat_pb2.GharatActionKind
TAKE = Kind.GHARAT_ACTION_KIND_TAKE_PLAY_PILE
LOOT = Kind.GHARAT_ACTION_KIND_LOOT
ADD_OWN = Kind.GHARAT_ACTION_KIND_ADD_OWN
DROP = Kind.GHARAT_ACTION_KIND_DROP

COPIES_PER_RANK = 4
# Weight of points taken from / given to an opponent who is not the leader
# (without partnerships, with 3 or 4 players).
NON_LEADER_WEIGHT = 0.5
# The chance an opponent who can loot the bot's run does (a match is
# compulsory, but a player may hold several matching choices).
LOOT_PROPENSITY = 0.9


def card_points(rank: int) -> int:
    """What a captured card of `rank` scores."""
    if rank == cards_pb2.RANK_ACE:
        return 20
    if rank >= cards_pb2.RANK_JACK:
        return 10
    return 5


def points(cards: Iterable[cards_pb2.Card]) -> int:
    return sum(card_points(c.rank) for c in cards)


def top_run(cards: Sequence[cards_pb2.Card]) -> list[cards_pb2.Card]:
    """The cards of the top card's rank at the top of a pile (all taken together)."""
    run_: list[cards_pb2.Card] = []
    for card in reversed(cards):
        if run_ and card.rank != run_[0].rank:
            break
        run_.append(card)
    return run_


def chance_any(matching: int, unseen: int, drawn: int) -> float:
    """Chance that `drawn` cards taken at random from `unseen` cards include at
    least one of `matching` (hypergeometric): the cards the bot cannot see (other
    hands, the stock, the buried play-pile cards) look alike to it."""
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

    obs: gharat_pb2.GharatObservation
    hidden: Counter[int]
    hidden_total: int
    standing: tuple[int, ...]

    @classmethod
    def of(cls, obs: gharat_pb2.GharatObservation) -> View:
        seen: Counter[int] = Counter(c.rank for c in obs.hand)
        seen.update(c.rank for c in obs.play_pile)
        for pile in obs.piles:
            seen.update(c.rank for c in pile.cards)
        hidden: Counter[int] = Counter()
        for rank in range(cards_pb2.RANK_TWO, cards_pb2.RANK_ACE + 1):
            hidden[rank] = max(0, COPIES_PER_RANK - seen[rank])
        totals = list(obs.totals) or [0] * obs.seats
        values = list(obs.pile_values) or [0] * obs.seats
        own = [t + v for t, v in zip(totals, values, strict=False)]
        if obs.partnerships and obs.seats == 4:
            own = [own[s] + own[(s + 2) % 4] for s in range(4)]
        return cls(obs, hidden, sum(hidden.values()), tuple(own))

    @property
    def me(self) -> int:
        return self.obs.seat

    def is_partner(self, seat: int) -> bool:
        return bool(self.obs.partnerships) and seat != self.me and (seat - self.me) % 2 == 0

    @property
    def opponents(self) -> list[int]:
        return [s for s in range(self.obs.seats) if s != self.me and not self.is_partner(s)]

    def value(self, seat: int) -> float:
        """How much a point on `seat`'s pile is worth to the bot."""
        if seat == self.me or self.is_partner(seat):
            return 1.0
        opponents = self.opponents
        if self.obs.partnerships or len(opponents) <= 1:
            return -1.0
        leader = max(opponents, key=lambda s: (self.standing[s], -s))
        return -1.0 if seat == leader else -NON_LEADER_WEIGHT

    def mean_opponent_weight(self) -> float:
        opponents = self.opponents
        return -sum(self.value(s) for s in opponents) / max(1, len(opponents))

    def opponent_cards(self) -> int:
        """Cards the opponents hold: each plays one of them before the bot's next turn."""
        sizes = self.obs.hand_sizes
        return sum(sizes[s] for s in self.opponents if s < len(sizes))

    def pile(self, seat: int) -> list[cards_pb2.Card]:
        if seat >= len(self.obs.piles):
            return []
        return list(self.obs.piles[seat].cards)


def take_run(view: View, rank: int) -> list[cards_pb2.Card]:
    """The known cards a card of `rank` takes from the play pile now."""
    run_ = top_run(list(view.obs.play_pile))
    return run_ if run_ and run_[0].rank == rank else []


def chance_opponent_holds(view: View, rank: int) -> float:
    """The chance some opponent holds a card of `rank` now."""
    return chance_any(view.hidden[rank], view.hidden_total, view.opponent_cards())


def exposure(view: View, run_: Sequence[cards_pb2.Card]) -> float:
    """The expected relative loss of leaving `run_` on top of the bot's pile."""
    if not run_:
        return 0.0
    p = LOOT_PROPENSITY * chance_opponent_holds(view, run_[0].rank)
    return p * points(run_) * (1.0 + view.mean_opponent_weight())


def score_action(view: View, action: gharat_pb2.GharatAction) -> float:
    """The relative-points score of one legal action: the capture's gain minus the
    exposure of the run it leaves on top of the bot's pile (or, for a drop, the
    chance of handing the card to the next players)."""
    card = action.card
    mine = view.pile(view.me)
    if action.kind == DROP:
        p_taken = chance_opponent_holds(view, card.rank)
        gift = p_taken * 2.0 * card_points(card.rank) * view.mean_opponent_weight()
        return -gift - exposure(view, top_run(mine))
    if action.kind == TAKE:
        taken = take_run(view, card.rank)
        gain = float(card_points(card.rank) + points(taken))
        return gain - exposure(view, top_run([*mine, *taken, card]))
    if action.kind == LOOT:
        taken = top_run(view.pile(action.target))
        gain = card_points(card.rank) + points(taken) * (1.0 - view.value(action.target))
        return gain - exposure(view, top_run([*mine, *taken, card]))
    if action.kind == ADD_OWN:
        return card_points(card.rank) - exposure(view, top_run([*mine, card]))
    return -math.inf


def choose_action(observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
    """The index of the best-scoring action; ties go to the earliest.

    A pure function of its arguments, so tests and tools can call it in-process."""
    if len(actions) <= 1 or not observation.HasField("gharat"):
        return 0
    view = View.of(observation.gharat)
    best_index, best_score = 0, -math.inf
    for index, action in enumerate(actions):
        score = score_action(view, action.gharat)
        if score > best_score + 1e-9:
            best_index, best_score = index, score
    return best_index


class GharatBot(Bot):
    name = "gharat-heuristic"

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return choose_action(observation, actions)


if __name__ == "__main__":
    run(GharatBot())
