"""A Life bot with a real heuristic: it weighs every choice in "relative points".

Run by the referee:  referee play life --bot "python sample_bots/python/life_bot.py" ...

A choice is worth the points it brings the bot minus the points it brings the
opponents, the leader among them counted fully and the others at 60%. The bot
plays the best choice; ties go to the first in the referee's order, so the
choice is a pure function of the observation.

- A card in front of a player scores for them: their suit double, spades
  minus, others plain (a player who chose spades: their spades at half).
- Face-up cards are at risk: a steal must take a face-up card, and a joker
  sends every face-up card back into the deck. Banked (face-down) cards are
  safe. So the bot counts a face-up card at RISK_KEEP of its value and a banked
  card fully; laying enough to bank also earns a steal.
- Laying: the referee asks for a lay one card at a time (PICK a card, then LAY
  the cards picked; the observation lists the picks so far). At each step the
  bot scores every lay it can still reach (the picks plus any of its other
  cards of the suit) and either picks a card of the best one or, once the
  picks are the best lay, lays them. It lays the cards of the turned suit that
  score for it, and prefers reaching the 10-point bank. An ace laid takes the
  whole suit from every hand and row: the bot counts its gain and what the
  owners of face-up cards lose. Laying its last card ends the hand: good when
  the bot leads this hand's scores, bad when it trails.
- Steals: a face-up card is worth what its owner loses plus what the card is
  worth in the bot's hand (a spade in hand is a liability: the next turned spade
  forces it down). A random hand card is a small gain, safer after a spade bank
  (the victim has just laid all their spades), and it ends the hand if it is the
  victim's last card. Declining is worth nothing.
- Jokers: playing one reshuffles every face-up card and every hand; the bot does
  it when the opponents' face-up cards are worth clearly more than its own, or
  its hand is poor, since it can keep the joker for later otherwise.
- Suits are chosen before the deal, blind: the bot never takes spades and
  spreads its choice over hearts, diamonds and clubs by seat and hand.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from referee.sdk import Bot, run
from referee.v1 import cards_pb2, life_pb2
from referee.v1 import referee_pb2 as pb

Kind = life_pb2.LifeActionKind
Phase = life_pb2.LifePhase
Card = cards_pb2.Card

SPADES = cards_pb2.SUIT_SPADES
ACE = cards_pb2.RANK_ACE
JOKER = cards_pb2.RANK_JOKER
SUIT_OF_CHOICE: dict[int, int] = {
    life_pb2.LIFE_SUIT_CHOICE_HEARTS: cards_pb2.SUIT_HEARTS,
    life_pb2.LIFE_SUIT_CHOICE_DIAMONDS: cards_pb2.SUIT_DIAMONDS,
    life_pb2.LIFE_SUIT_CHOICE_CLUBS: cards_pb2.SUIT_CLUBS,
    life_pb2.LIFE_SUIT_CHOICE_SPADES: cards_pb2.SUIT_SPADES,
}
BANK_AT = 10

# The share of a face-up card's value the bot expects to keep (steals, jokers).
RISK_KEEP = 0.65
# What the steal earned by a bank is worth when there is nothing in sight to take.
STEAL_BASE = 2.0
# A random card from a hand: small gain; safe after a spade bank.
RANDOM_CARD = 1.0
RANDOM_CARD_SAFE = 2.0
# Drawing a card when laying nothing.
DRAW_VALUE = 0.5
# Weight of points of an opponent who is not the leader.
NON_LEADER_WEIGHT = 0.6
# How much of this hand's lead counts when the bot ends the hand (or lets it end).
END_WEIGHT = 0.8
# Keeping the joker for later is worth this much.
HOLD_JOKER = 8.0
# The most lays the bot scores at one step; beyond, the lowest and highest few.
LAY_CANDIDATES_MAX = 4096


def value(card: Card) -> int:
    """2-10 their number; J Q K A 10."""
    if card.rank == JOKER:
        return 0
    return min(int(card.rank), 10)


def points(card: Card, choice: int) -> float:
    """What `card` scores in front of a player who chose `choice`."""
    v = value(card)
    if card.suit == SPADES:
        return -v / 2 if choice == life_pb2.LIFE_SUIT_CHOICE_SPADES else -float(v)
    if SUIT_OF_CHOICE.get(choice) == card.suit:
        return 2.0 * v
    return float(v)


def in_hand_value(card: Card, choice: int) -> float:
    """What a card is worth in the bot's hand: material for later banks, or for a
    spade a liability (a turned spade forces it down)."""
    if card.rank == JOKER:
        return HOLD_JOKER
    if card.suit == SPADES:
        return -0.7 * value(card)
    return 0.4 * points(card, choice)


@dataclass(frozen=True)
class View:
    obs: life_pb2.LifeObservation

    @property
    def me(self) -> int:
        return self.obs.seat

    @property
    def opponents(self) -> list[int]:
        return [s for s in range(self.obs.seats) if s != self.me]

    def choice(self, seat: int) -> int:
        return int(self.obs.players[seat].suit)

    def standing(self, seat: int) -> float:
        p = self.obs.players[seat]
        return p.total + p.hand_score

    def weight(self, seat: int) -> float:
        """The leader among the opponents counts fully, the others less."""
        others = self.opponents
        if len(others) <= 1:
            return 1.0
        leader = max(others, key=lambda s: (self.standing(s), -s))
        return 1.0 if seat == leader else NON_LEADER_WEIGHT

    def lead_this_hand(self, extra_me: float = 0.0, extra: dict[int, float] | None = None) -> float:
        """The bot's hand score minus the best weighted opponent's, after changes."""
        extra = extra or {}
        mine = self.obs.players[self.me].hand_score + extra_me
        best = max(self.obs.players[s].hand_score + extra.get(s, 0.0) for s in self.opponents)
        return mine - best

    def row_value(self, seat: int) -> float:
        return sum(points(c, self.choice(seat)) for c in self.obs.players[seat].face_up)


def hand_quality(cards: Iterable[Card], choice: int) -> float:
    return sum(in_hand_value(c, choice) for c in cards if c.rank != JOKER)


# --------------------------------------------------------------------------- scoring


def best_steal(view: View, victims: Sequence[int], safe: bool) -> float:
    """The value of the best steal from `victims` (0 if none pays)."""
    best = 0.0
    me = view.choice(view.me)
    for seat in victims:
        p = view.obs.players[seat]
        if p.face_up:
            for card in p.face_up:
                loss = points(card, view.choice(seat)) * view.weight(seat)
                best = max(best, loss + in_hand_value(card, me))
        else:
            best = max(best, RANDOM_CARD_SAFE if safe else RANDOM_CARD)
    return best


def score_lay(view: View, cards: Sequence[Card]) -> float:
    obs = view.obs
    me = view.me
    choice = view.choice(me)
    if not cards:
        return DRAW_VALUE
    suit = obs.turned.suit if obs.HasField("turned") else cards[0].suit
    laid = list(cards)
    captured_value = 0.0
    opponent_loss: dict[int, float] = {}
    if any(c.rank == ACE for c in cards):
        laid = [c for c in obs.hand if c.suit == suit]
        for seat in view.opponents:
            p = obs.players[seat]
            row = [c for c in p.face_up if c.suit == suit]
            captured_value += sum(points(c, choice) for c in row)
            loss = sum(points(c, view.choice(seat)) for c in row)
            opponent_loss[seat] = -loss
            captured_value += view.weight(seat) * loss
        # Cards of the suit in the opponents' hands come too; count an average.
        hidden = max(0, 13 * max(1, obs.decks) - len(laid))
        unseen = max(1, obs.deck_size + sum(obs.players[s].hand_size for s in view.opponents))
        in_hands = sum(obs.players[s].hand_size for s in view.opponents) * hidden / unseen / 4
        captured_value += in_hands * 7.0 * (2.0 if SUIT_OF_CHOICE.get(choice) == suit else 1.0)
    gain = sum(points(c, choice) for c in laid)
    up_before = [c for c in obs.players[me].face_up if c.suit == suit]
    row_total = sum(value(c) for c in up_before) + sum(value(c) for c in laid)
    kept_cost = sum(in_hand_value(c, choice) for c in laid)
    if any(c.rank == ACE for c in cards) or row_total >= BANK_AT:
        secured = (1.0 - RISK_KEEP) * sum(points(c, choice) for c in up_before)
        score = gain + captured_value + secured + best_steal(view, view.opponents, False)
    else:
        score = RISK_KEEP * (gain + captured_value)
    score -= kept_cost
    left = len(obs.hand) - len(laid)
    if left == 0:
        # The hand ends at once: all face-up cards count; weigh this hand's lead.
        score += END_WEIGHT * view.lead_this_hand(gain + captured_value, opponent_loss)
    return score


def reachable_lays(view: View) -> list[list[Card]]:
    """Every lay still reachable without an ace: the picks so far plus any choice
    of the bot's other cards of the suit, by value (10 J Q K alike), the picks
    alone first. A long suit: the picks plus the lowest or highest m others."""
    obs = view.obs
    picked = list(obs.picked)
    taken = {c.id for c in picked}
    free = [
        c
        for c in obs.hand
        if c.suit == obs.turned.suit and c.id not in taken and c.rank not in (ACE, JOKER)
    ]
    free.sort(key=value)
    groups: list[list[Card]] = []
    for c in free:
        if groups and value(groups[-1][0]) == value(c):
            groups[-1].append(c)
        else:
            groups.append([c])
    count = math.prod(len(g) + 1 for g in groups)
    if count <= LAY_CANDIDATES_MAX:
        return [
            picked + [c for g, t in zip(groups, takes) for c in g[:t]]
            for takes in itertools.product(*(range(len(g) + 1) for g in groups))
        ]
    lays = [picked]
    for m in range(1, len(free) + 1):
        lays += [picked + free[:m], picked + free[-m:]]
    return lays


def choose_lay(view: View, actions: Sequence[pb.Action]) -> int:
    """The best reachable lay: lay the picks if they are it, else pick its next card
    (or lay an ace at once if that is best)."""
    best_lay: list[Card] = []
    best_score = -math.inf
    for lay in reachable_lays(view):
        score = score_lay(view, lay)
        if score > best_score + 1e-9:
            best_lay, best_score = lay, score
    done = 0
    for index, action in enumerate(actions):
        move = action.life
        if move.kind == Kind.LIFE_ACTION_KIND_LAY and any(c.rank == ACE for c in move.cards):
            if score_lay(view, list(move.cards)) > best_score + 1e-9:
                return index
        elif move.kind == Kind.LIFE_ACTION_KIND_LAY:
            done = index
    picked = {c.id for c in view.obs.picked}
    wanted = sorted(value(c) for c in best_lay if c.id not in picked)
    if not wanted:
        return done
    for index, action in enumerate(actions):
        move = action.life
        if move.kind == Kind.LIFE_ACTION_KIND_PICK and value(move.cards[0]) == wanted[0]:
            return index
    return done


def score_steal(view: View, action: life_pb2.LifeAction, safe: bool) -> float:
    if action.kind != Kind.LIFE_ACTION_KIND_STEAL:
        return 0.0
    me = view.choice(view.me)
    seat = action.target
    victim = view.obs.players[seat]
    if action.cards:
        card = action.cards[0]
        loss = points(card, view.choice(seat))
        return loss * view.weight(seat) + in_hand_value(card, me)
    score = RANDOM_CARD_SAFE if safe else RANDOM_CARD
    if victim.hand_size == 1:
        # Their last card: the hand ends now.
        score += END_WEIGHT * view.lead_this_hand()
    return score


def score_joker(view: View) -> float:
    """The gain of playing a joker now over turning a card."""
    obs = view.obs
    others = sum(view.weight(s) * max(0.0, view.row_value(s)) for s in view.opponents)
    mine = view.row_value(view.me)
    quality = hand_quality(obs.hand, view.choice(view.me))
    # A fresh hand of 7 is about neutral; a poor hand is worth replacing.
    return others - mine - quality - HOLD_JOKER


def choose_suit(view: View, actions: Sequence[pb.Action]) -> int:
    wanted = (view.me + view.obs.hand_number) % 3
    order = [
        life_pb2.LIFE_SUIT_CHOICE_HEARTS,
        life_pb2.LIFE_SUIT_CHOICE_DIAMONDS,
        life_pb2.LIFE_SUIT_CHOICE_CLUBS,
    ]
    for index, action in enumerate(actions):
        if action.life.suit == order[wanted]:
            return index
    return 0


def choose_action(observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
    """The index of the best-scoring action; ties go to the earliest."""
    if len(actions) <= 1 or not observation.HasField("life"):
        return 0
    view = View(observation.life)
    phase = view.obs.phase
    if phase == Phase.LIFE_PHASE_CHOOSE_SUIT:
        return choose_suit(view, actions)
    if phase == Phase.LIFE_PHASE_TURN:
        play = score_joker(view) > 0
        wanted = Kind.LIFE_ACTION_KIND_PLAY_JOKER if play else Kind.LIFE_ACTION_KIND_TURN_CARD
        return next((i for i, a in enumerate(actions) if a.life.kind == wanted), 0)
    if phase == Phase.LIFE_PHASE_LAY:
        return choose_lay(view, actions)
    safe = phase == Phase.LIFE_PHASE_SPADE_STEAL
    best_index, best_score = 0, -math.inf
    for index, action in enumerate(actions):
        score = score_steal(view, action.life, safe)
        if score > best_score + 1e-9:
            best_index, best_score = index, score
    return best_index


class LifeBot(Bot):
    name = "life-heuristic"

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return choose_action(observation, actions)


if __name__ == "__main__":
    run(LifeBot())
