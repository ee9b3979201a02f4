"""The heuristic Thief sample bot: unit checks of its judgement, and an
in-process tournament against random players that it must clearly win.

The games run in-process (no gRPC): the engine's observation and legal
actions go through `referee.wire`, exactly as the referee would send them,
and the bot's pure `choose_action` picks an index. Seeds are fixed, so the
results are deterministic; the thresholds still leave a wide margin below
what the bot achieves (see the comments at each assertion).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from referee.v1 import cards_pb2, thief_pb2
from referee.v1 import referee_pb2 as pb
from tests import botkit
from tests.botkit import Record

Policy = Callable[[pb.Observation, Sequence[pb.Action]], int]
Kind = thief_pb2.ThiefActionKind


bot = botkit.load_bot("thief_bot")


# --------------------------------------------------------------------------- helpers


def card(
    card_id: int,
    rank: cards_pb2.Rank.ValueType,
    suit: cards_pb2.Suit.ValueType = cards_pb2.SUIT_SPADES,
) -> cards_pb2.Card:
    if rank == cards_pb2.RANK_JOKER:
        suit = cards_pb2.SUIT_UNSPECIFIED
    return cards_pb2.Card(id=card_id, rank=rank, suit=suit)


def observation(
    hand: Sequence[cards_pb2.Card],
    piles: Sequence[Sequence[Sequence[cards_pb2.Card]]],
    discard: Sequence[cards_pb2.Card] = (),
    stock: int = 60,
    dispute: thief_pb2.ThiefDispute | None = None,
) -> pb.Observation:
    """A 2-seat observation for seat 0 with the given hand and piles."""
    seats = len(piles)
    obs = thief_pb2.ThiefObservation(
        seat=0,
        seats=seats,
        hand_number=1,
        hands_total=seats,
        dealer=seats - 1,
        turn=0,
        hand=list(hand),
        hand_sizes=[len(hand)] + [3] * (seats - 1),
        piles=[
            thief_pb2.ThiefPile(sets=[thief_pb2.ThiefSet(cards=list(s)) for s in pile])
            for pile in piles
        ],
        discard_pile=list(discard),
        stock_size=stock,
        totals=[0] * seats,
        pile_values=[sum(bot.set_points(s) for s in pile) for pile in piles],
    )
    if dispute is not None:
        obs.dispute.CopyFrom(dispute)
    return pb.Observation(thief=obs)


def action(
    kind: thief_pb2.ThiefActionKind.ValueType, cards: Sequence[cards_pb2.Card] = (), target: int = 0
) -> pb.Action:
    return pb.Action(
        label=f"{kind}", thief=thief_pb2.ThiefAction(kind=kind, cards=list(cards), target=target)
    )


R = cards_pb2  # ranks, e.g. R.RANK_KING


# --------------------------------------------------------------------------- judgement


def test_card_points_follow_the_rules() -> None:
    assert [bot.card_points(r) for r in (R.RANK_THREE, R.RANK_NINE, R.RANK_TEN, R.RANK_KING)] == [
        5,
        5,
        10,
        10,
    ]
    assert bot.card_points(R.RANK_ACE) == 15
    assert bot.card_points(R.RANK_TWO) == 25
    assert bot.card_points(R.RANK_JOKER) == 50


def test_chance_any_is_a_hypergeometric_tail() -> None:
    assert bot.chance_any(0, 50, 3) == 0.0
    assert bot.chance_any(50, 50, 1) == 1.0
    # one matching card among 10, drawing 3: 3/10
    assert bot.chance_any(1, 10, 3) == pytest.approx(0.3)


def test_steals_the_big_set_rather_than_pairing() -> None:
    big = [card(10, R.RANK_KING), card(11, R.RANK_KING), card(12, R.RANK_JOKER)]
    obs = observation(
        hand=[card(1, R.RANK_FIVE), card(2, R.RANK_FIVE), card(3, R.RANK_TWO)],
        piles=[[], [big]],
    )
    actions = [
        action(Kind.THIEF_ACTION_KIND_PAIR, [card(1, R.RANK_FIVE), card(2, R.RANK_FIVE)]),
        action(Kind.THIEF_ACTION_KIND_STEAL, [card(3, R.RANK_TWO)], target=1),
    ]
    assert bot.choose_action(obs, actions) == 1


def test_prefers_a_natural_to_a_joker_for_the_same_steal() -> None:
    small = [card(10, R.RANK_SEVEN), card(11, R.RANK_SEVEN)]
    obs = observation(
        hand=[card(1, R.RANK_SEVEN), card(2, R.RANK_JOKER), card(3, R.RANK_NINE)],
        piles=[[], [small]],
    )
    actions = [
        action(Kind.THIEF_ACTION_KIND_STEAL, [card(2, R.RANK_JOKER)], target=1),
        action(Kind.THIEF_ACTION_KIND_STEAL, [card(1, R.RANK_SEVEN)], target=1),
    ]
    assert bot.choose_action(obs, actions) == 1


def test_takes_a_big_set_back() -> None:
    contested = [
        card(10, R.RANK_ACE),
        card(11, R.RANK_ACE),
        card(12, R.RANK_JOKER),
        card(13, R.RANK_ACE),
    ]
    dispute = thief_pb2.ThiefDispute(
        set=thief_pb2.ThiefSet(cards=contested), rank=R.RANK_ACE, holder=1, challenger=0
    )
    obs = observation(
        hand=[card(1, R.RANK_ACE), card(2, R.RANK_FOUR), card(3, R.RANK_SIX)],
        piles=[[], [contested]],
        dispute=dispute,
    )
    actions = [
        action(Kind.THIEF_ACTION_KIND_RECAPTURE, [card(1, R.RANK_ACE)]),
        action(Kind.THIEF_ACTION_KIND_DECLINE),
    ]
    assert bot.choose_action(obs, actions) == 0


def test_forced_discard_keeps_wilds_and_sheds_a_dead_rank() -> None:
    # Six of the eight 4s lie in the discard pile, so the next player is
    # unlikely to match a 4, and neither pile's top set is of 4s or 9s.
    fours = [card(20 + i, R.RANK_FOUR) for i in range(6)]
    obs = observation(
        hand=[card(1, R.RANK_JOKER), card(2, R.RANK_FOUR), card(3, R.RANK_NINE)],
        piles=[[[card(40, R.RANK_TEN), card(41, R.RANK_TEN)]], [[card(42, R.RANK_SIX)] * 2]],
        discard=[*fours, card(30, R.RANK_KING)],
    )
    actions = [
        action(Kind.THIEF_ACTION_KIND_DISCARD, [c])
        for c in (card(1, R.RANK_JOKER), card(2, R.RANK_FOUR), card(3, R.RANK_NINE))
    ]
    assert bot.choose_action(obs, actions) == 1


def test_covers_a_big_set_with_a_small_capture_before_ending_the_turn() -> None:
    big = [card(10, R.RANK_ACE), card(11, R.RANK_ACE), card(12, R.RANK_JOKER)]
    obs = observation(
        hand=[card(1, R.RANK_SIX), card(2, R.RANK_SIX), card(3, R.RANK_NINE)],
        piles=[[big], [[card(20, R.RANK_EIGHT), card(21, R.RANK_EIGHT)]]],
    )
    actions = [
        action(Kind.THIEF_ACTION_KIND_PAIR, [card(1, R.RANK_SIX), card(2, R.RANK_SIX)]),
        action(Kind.THIEF_ACTION_KIND_END_TURN),
    ]
    assert bot.choose_action(obs, actions) == 0


def test_the_choice_is_a_pure_function_of_the_observation() -> None:
    small = [card(10, R.RANK_SEVEN), card(11, R.RANK_SEVEN)]
    obs = observation(
        hand=[card(1, R.RANK_SEVEN), card(2, R.RANK_JOKER), card(3, R.RANK_NINE)],
        piles=[[], [small]],
    )
    actions = [
        action(Kind.THIEF_ACTION_KIND_STEAL, [card(1, R.RANK_SEVEN)], target=1),
        action(Kind.THIEF_ACTION_KIND_STEAL, [card(2, R.RANK_JOKER)], target=1),
    ]
    first = bot.ThiefBot().choose(obs, actions)
    assert all(bot.ThiefBot().choose(obs, actions) == first for _ in range(5))
    assert bot.ThiefBot.name == "thief-heuristic"


# --------------------------------------------------------------------------- tournament


def play_game(
    num_seats: int, seed: int, policies: Sequence[Policy | None]
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    return botkit.play_game("thief", num_seats, seed, policies)


def tournament(num_seats: int, seeds: range, policy: Policy) -> Record:
    """`policy` in every seat in turn against random players, over the same seeds."""
    record = Record()
    for seed in seeds:
        for seat in range(num_seats):
            policies: list[Policy | None] = [None] * num_seats
            policies[seat] = policy
            scores, places = play_game(num_seats, seed, policies)
            others = [s for i, s in enumerate(scores) if i != seat]
            record.games += 1
            record.wins += places[seat] == 1 and places.count(1) == 1
            record.place_sum += places[seat]
            record.margin_sum += scores[seat] - sum(others) / len(others)
    return record


def test_beats_two_random_players_in_three_seat_games() -> None:
    # 20 seeds x 3 seats = 60 games. Random expectation: 33% wins, mean place 2.
    # The bot wins 51 of these 60 (85%, mean place 1.2); 50% leaves a wide margin.
    record = tournament(3, range(100, 120), bot.choose_action)
    assert record.games == 60
    assert record.win_rate >= 0.5, record
    assert record.mean_place <= 1.6, record
    assert record.mean_margin > 0, record


def test_beats_a_random_player_in_two_seat_games() -> None:
    # 20 seeds x 2 seats = 40 games. Random expectation: 50% wins, mean place 1.5.
    # The bot wins 34 of these 40 (85%, mean place 1.15); 65% leaves a wide margin.
    record = tournament(2, range(200, 220), bot.choose_action)
    assert record.games == 40
    assert record.win_rate >= 0.65, record
    assert record.mean_place <= 1.35, record
    assert record.mean_margin > 0, record
