"""The Tjuv sample bot: unit checks of its judgement, and an in-process tournament
against random players that it must clearly win, under both rule sets.

The games run in-process (no gRPC): the engine's observation and legal actions go
through `referee.wire`, exactly as the referee would send them, and the bot's pure
`choose_action` picks an index. Seeds are fixed, so the results are deterministic;
the thresholds leave a wide margin below what the bot achieves (see each assertion).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from referee.v1 import cards_pb2, tjuv_pb2
from referee.v1 import referee_pb2 as pb
from tests import botkit
from tests.botkit import Record, play_game

Policy = Callable[[pb.Observation, Sequence[pb.Action]], int]
Kind = tjuv_pb2.TjuvActionKind
R = cards_pb2


bot = botkit.load_bot("tjuv_bot")

# --------------------------------------------------------------------------- helpers

SUIT = {"c": R.SUIT_CLUBS, "d": R.SUIT_DIAMONDS, "h": R.SUIT_HEARTS, "s": R.SUIT_SPADES}
RANK = {
    "A": R.RANK_ACE,
    "K": R.RANK_KING,
    "Q": R.RANK_QUEEN,
    "J": R.RANK_JACK,
    **{str(n): cards_pb2.Rank.ValueType(n) for n in range(6, 11)},
}
ORDER = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def card(face: str) -> cards_pb2.Card:
    """A card with the engine's id: suits in order, ranks 6..A."""
    rank, suit = face[:-1], face[-1]
    card_id = 9 * (list(SUIT).index(suit)) + ORDER.index(rank)
    return cards_pb2.Card(id=card_id, rank=RANK[rank], suit=SUIT[suit])


def cards(text: str) -> list[cards_pb2.Card]:
    return [card(f) for f in text.split()]


def observation(
    hand: str,
    table: str,
    stores: Sequence[Sequence[str]],
    talon: int = 10,
    hand_sizes: Sequence[int] | None = None,
    phase: tjuv_pb2.TjuvPhase.ValueType = tjuv_pb2.TJUV_PHASE_PLAY,
) -> pb.Observation:
    seats = len(stores)
    mine = cards(hand)
    sizes = list(hand_sizes) if hand_sizes is not None else [len(mine)] + [3] * (seats - 1)
    obs = tjuv_pb2.TjuvObservation(
        seat=0,
        seats=seats,
        rules="1922",
        dealer=seats - 1,
        phase=phase,
        hand=mine,
        hand_sizes=sizes,
        table=cards(table),
        stores=[
            tjuv_pb2.TjuvStore(piles=[tjuv_pb2.TjuvPile(cards=cards(p)) for p in store])
            for store in stores
        ],
        captured=[sum(len(p.split()) for p in store) for store in stores],
        talon_size=talon,
    )
    obs.turn = 0
    return pb.Observation(tjuv=obs)


def actions(
    hand: str, kind: tjuv_pb2.TjuvActionKind.ValueType = Kind.TJUV_ACTION_KIND_PLAY
) -> list[pb.Action]:
    return [
        pb.Action(label=f"{kind} {f}", tjuv=tjuv_pb2.TjuvAction(kind=kind, card=card(f)))
        for f in hand.split()
    ]


def choice(
    observation: pb.Observation,
    hand: str,
    kind: tjuv_pb2.TjuvActionKind.ValueType = Kind.TJUV_ACTION_KIND_PLAY,
) -> str:
    index: int = bot.choose_action(observation, actions(hand, kind))
    return hand.split()[index]


# --------------------------------------------------------------------------- judgement


def test_steals_the_big_pile() -> None:
    obs = observation("Kh 7c 9s", "6h 8d 10c", [[], ["6s 7s 8s 9h 10h Jh 6d Qh"]], talon=12)
    assert choice(obs, "Kh 7c 9s") == "Kh"


def test_does_not_lay_bait_under_its_own_big_pile() -> None:
    # The bot's pile of 10 is topped by 9♥. A 6♥ on the table would let any higher
    # heart capture it and steal the pile with it; the K♣ or the 7♠ risk nothing.
    pile = "6c 8c 9c Jc 6d 7d 9d 10d 7h 9h"
    obs = observation("6h Kc 7s", "7c 8d 10s", [[pile], []], talon=17)
    assert choice(obs, "6h Kc 7s") != "6h"


def test_puts_out_the_tied_card_it_can_take_back() -> None:
    obs = observation("7c 7d Ad", "", [[], []], phase=tjuv_pb2.TJUV_PHASE_PUT_OUT)
    assert choice(obs, "7c 7d", Kind.TJUV_ACTION_KIND_PUT_OUT) == "7d"


def test_the_choice_is_a_pure_function_of_the_observation() -> None:
    obs = observation("Kh 7c 9s", "6h 8d 10c", [[], ["6s 7s"], ["8s 9d"]])
    first = bot.TjuvBot().choose(obs, actions("Kh 7c 9s"))
    assert all(bot.TjuvBot().choose(obs, actions("Kh 7c 9s")) == first for _ in range(3))
    assert bot.TjuvBot.name == "tjuv-playouts"


# --------------------------------------------------------------------------- tournament


def tournament(ruleset_id: str, num_seats: int, seeds: range) -> Record:
    """The bot in every seat in turn against random players, over the same deals."""
    record = Record()
    for seed in seeds:
        for seat in range(num_seats):
            policies: list[Policy | None] = [None] * num_seats
            policies[seat] = bot.choose_action
            scores, places = play_game(ruleset_id, num_seats, seed, policies)
            others = [s for i, s in enumerate(scores) if i != seat]
            record.games += 1
            record.wins += places[seat] == 1 and places.count(1) == 1
            record.place_sum += places[seat]
            record.margin_sum += scores[seat] - sum(others) / len(others)
    return record


@pytest.mark.parametrize("ruleset_id", ["tjuv", "tjuv?rules=1988"])
def test_beats_a_random_player_in_two_seat_games(ruleset_id: str) -> None:
    # 20 deals x 2 seats. Random expectation: 50% wins (less, with ties), place 1.5,
    # margin 0. Here the bot wins 83% (1922) and 73% (1988) of its games, at a mean
    # place of 1.18 and 1.23, leading by 12.6 and 9.2 of the 36 cards.
    record = tournament(ruleset_id, 2, range(100, 120))
    assert record.games == 40
    assert record.win_rate >= 0.6, record
    assert record.mean_place <= 1.3, record
    assert record.mean_margin >= 5, record


@pytest.mark.parametrize("ruleset_id", ["tjuv", "tjuv?rules=1988"])
def test_beats_random_players_in_four_seat_games(ruleset_id: str) -> None:
    # 8 deals x 4 seats. Random expectation: 25% wins, place 2.5, margin 0.
    # Here the bot wins 44% (1922) and 59% (1988), at a mean place of 1.94 and 1.72,
    # with 5.5 and 6.9 cards more than the others' mean.
    record = tournament(ruleset_id, 4, range(200, 208))
    assert record.games == 32
    assert record.win_rate >= 0.35, record
    assert record.mean_place <= 2.1, record
    assert record.mean_margin >= 2.5, record
