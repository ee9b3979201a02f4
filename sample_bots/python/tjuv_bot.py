"""A Tjuv bot that plays each candidate card out many times over sampled hidden cards.

Run by the referee:  referee play tjuv --bot "python sample_bots/python/tjuv_bot.py" ...

Tjuv hides little: the table and every pile are face up, so the only unknowns are
the opponents' hands and the talon's order. The bot counts every card it has seen
(its hand, the table, all piles) to know exactly which cards are unseen, then:

1. Deals the unseen cards at random into the opponents' hands (by their sizes) and
   the talon, keeping the cards the dealer put under the talon at its bottom. It
   does this SAMPLES times.
2. For every legal card and every such deal, plays the game out to the end: its
   own card first, then every player (itself included) by a quick rule: make the
   capture that takes most cards (table cards plus stolen piles), else play the
   lowest card; lay the lowest card when refilling the table (rules=1922).
3. Scores each playout by its own count minus the opponents' (half the best
   opponent, half their mean: in a two-player game simply the margin), and plays
   the card with the best total. Every card is tried on the same deals, so luck
   of the sampling largely cancels out.

Why this works in Tjuv: whether a capture is worth making depends on what it
exposes (a pile topped by a low card is stolen by any higher card of its suit),
on what it leaves on the table as bait, and on who will be last to play; the
playouts weigh all of that at once, where a one-move rule sees only the capture.

At the deal (every player puts out a card of its lowest rank, a simultaneous
choice; without a tie the only choice) there is nothing to play out yet: of tied
lowest cards the bot puts out the one of the suit in which it keeps the highest
other card, so that it may capture its own card back.

The random numbers come from a seed made of the observation, so the choice is a
pure function of what the bot is shown: the same observation, the same card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee.sdk import Bot, run
from referee.v1 import cards_pb2, tjuv_pb2
from referee.v1 import referee_pb2 as pb

Kind = tjuv_pb2.TjuvActionKind
RANKS = range(cards_pb2.RANK_SIX, cards_pb2.RANK_ACE + 1)
SUITS = (
    cards_pb2.SUIT_CLUBS,
    cards_pb2.SUIT_DIAMONDS,
    cards_pb2.SUIT_HEARTS,
    cards_pb2.SUIT_SPADES,
)
TABLE_SIZE = 3
# Playouts per candidate card. 32 keeps a decision around 30 ms in a 3-player game.
SAMPLES = 32
# How the playout score weighs the best opponent against the opponents' mean.
BEST_OPPONENT_SHARE = 0.5

# A card is one int, rank + 16 * suit: the rank is `card & 15`, the suit `card >> 4`.
Card = int
# A pile, as a playout needs it: its top card and its size.
Pile = tuple[Card, int]


def encode(card: cards_pb2.Card) -> Card:
    return card.rank + 16 * card.suit


class Playout:
    """One sampled deal played to the end; mutable lists, discarded afterwards."""

    def __init__(
        self,
        hands: list[list[Card]],
        table: list[Card],
        piles: list[list[Pile]],
        talon: list[Card],
        refill_from_hand: bool,
    ) -> None:
        self.hands = hands
        self.table = table
        self.piles = piles
        self.talon = talon
        self.refill_from_hand = refill_from_hand
        self.last = -1

    def gain(self, seat: int, card: Card) -> int:
        """How many cards `card` would capture now (0: none), itself included."""
        rank, suit = card & 15, card >> 4
        lower = 0
        for t in self.table:
            if t >> 4 == suit and t & 15 < rank:
                lower += 1
        if not lower:
            return 0
        total = lower + 1
        for victim, store in enumerate(self.piles):
            if victim != seat:
                for top, size in store:
                    if top >> 4 == suit and top & 15 < rank:
                        total += size
        return total

    def play(self, seat: int, card: Card) -> None:
        """Step 1 and the draw of step 2."""
        self.hands[seat].remove(card)
        self.last = seat
        rank, suit = card & 15, card >> 4
        kept = [t for t in self.table if not (t >> 4 == suit and t & 15 < rank)]
        if len(kept) < len(self.table):
            size = len(self.table) - len(kept) + 1
            for victim, store in enumerate(self.piles):
                if victim == seat:
                    continue
                keep: list[Pile] = []
                for top, pile_size in store:
                    if top >> 4 == suit and top & 15 < rank:
                        size += pile_size
                    else:
                        keep.append((top, pile_size))
                self.piles[victim] = keep
            self.piles[seat].append((card, size))
            self.table = kept
        else:
            self.table.append(card)
        if self.talon:
            self.hands[seat].append(self.talon.pop())

    def refill(self, seat: int, first: Card | None = None) -> None:
        """Step 3: bring the table back to three while the talon lasts."""
        while len(self.table) < TABLE_SIZE and self.talon:
            if self.refill_from_hand:
                hand = self.hands[seat]
                card = first if first is not None else min(hand, key=lambda c: c & 15)
                first = None
                hand.remove(card)
                self.table.append(card)
                hand.append(self.talon.pop())
            else:
                self.table.append(self.talon.pop())

    def quick_choice(self, seat: int) -> Card:
        """The playout rule: the biggest capture, else the lowest card."""
        best, best_gain = -1, -1
        for card in self.hands[seat]:
            g = self.gain(seat, card)
            if g > best_gain or (g == best_gain == 0 and card & 15 < best & 15):
                best, best_gain = card, g
        return best

    def finish(self, seat: int) -> list[int]:
        """Play on from `seat`'s completed turn to the end; the captured counts."""
        n = len(self.hands)
        while True:
            for k in range(1, n + 1):
                if self.hands[(seat + k) % n]:
                    seat = (seat + k) % n
                    break
            else:
                break
            self.play(seat, self.quick_choice(seat))
            self.refill(seat)
        if self.table and self.last >= 0:
            self.piles[self.last].append((self.table[-1], len(self.table)))
        return [sum(size for _, size in store) for store in self.piles]


def utility(counts: Sequence[int], me: int) -> float:
    others = [c for seat, c in enumerate(counts) if seat != me]
    mean = sum(others) / len(others)
    return counts[me] - BEST_OPPONENT_SHARE * max(others) - (1 - BEST_OPPONENT_SHARE) * mean


def unseen_cards(obs: tjuv_pb2.TjuvObservation) -> list[Card]:
    seen = {encode(c) for c in obs.hand} | {encode(c) for c in obs.table}
    for store in obs.stores:
        for pile in store.piles:
            seen.update(encode(c) for c in pile.cards)
    return [r + 16 * s for s in SUITS for r in RANKS if r + 16 * s not in seen]


def put_out_choice(obs: tjuv_pb2.TjuvObservation, actions: Sequence[pb.Action]) -> int:
    """Of tied lowest cards, the one whose suit the bot holds highest otherwise."""

    def strength(index: int) -> tuple[int, int]:
        card = actions[index].tjuv.card
        others = [c.rank for c in obs.hand if c.suit == card.suit and c.id != card.id]
        return (max(others, default=0), -index)

    return max(range(len(actions)), key=strength)


def choose_action(observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
    """The index of the card with the best playout total (a pure function)."""
    if len(actions) <= 1 or not observation.HasField("tjuv"):
        return 0
    obs = observation.tjuv
    if actions[0].tjuv.kind == Kind.TJUV_ACTION_KIND_PUT_OUT:
        return put_out_choice(obs, actions)
    me, seats = obs.seat, obs.seats
    hand = [encode(c) for c in obs.hand]
    table = [encode(c) for c in obs.table]
    piles = [[(encode(p.cards[-1]), len(p.cards)) for p in s.piles] for s in obs.stores]
    unseen = unseen_cards(obs)
    bottom_ids = {encode(c) for c in obs.talon_bottom}
    bottom = [c for c in unseen if c in bottom_ids]
    rest = [c for c in unseen if c not in bottom_ids]
    candidates = [encode(a.tjuv.card) for a in actions]
    laying = actions[0].tjuv.kind == Kind.TJUV_ACTION_KIND_LAY
    refill_from_hand = obs.rules != "1988"
    rng = random.Random(hash((tuple(hand), tuple(table), tuple(unseen), obs.talon_size, me)))
    totals = [0.0] * len(candidates)
    for _ in range(SAMPLES):
        rng.shuffle(bottom)
        rng.shuffle(rest)
        # The removed cards still unseen lie at the talon's bottom (index 0).
        in_bottom = min(len(bottom), obs.talon_size)
        talon = bottom[:in_bottom] + rest[: obs.talon_size - in_bottom]
        pool = bottom[in_bottom:] + rest[obs.talon_size - in_bottom :]
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        pos = 0
        for seat in range(seats):
            if seat == me:
                hands.append(hand)
            else:
                size = obs.hand_sizes[seat]
                hands.append(pool[pos : pos + size])
                pos += size
        for index, card in enumerate(candidates):
            game = Playout(
                [list(h) for h in hands],
                list(table),
                [list(s) for s in piles],
                list(talon),
                refill_from_hand,
            )
            if laying:
                game.refill(me, first=card)
            else:
                game.play(me, card)
                game.refill(me)
            totals[index] += utility(game.finish(me), me)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return best


class TjuvBot(Bot):
    name = "tjuv-playouts"

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return choose_action(observation, actions)


if __name__ == "__main__":
    run(TjuvBot())
