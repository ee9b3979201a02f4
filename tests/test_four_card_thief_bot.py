"""The heuristic Four Card Thief sample bot: unit checks of its judgement, and an
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

from referee.v1 import cards_pb2
from referee.v1 import four_card_thief_pb2 as fct_pb2
from referee.v1 import referee_pb2 as pb
from tests import botkit
from tests.botkit import Record

Policy = Callable[[pb.Observation, Sequence[pb.Action]], int]
Kind = fct_pb2.FourCardThiefActionKind
R = cards_pb2  # ranks, e.g. R.RANK_KING


bot = botkit.load_bot("four_card_thief_bot")


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
    layout: Sequence[cards_pb2.Card] = (),
    stock: int = 30,
) -> pb.Observation:
    """An observation for seat 0 with the given hand, piles and layout."""
    seats = len(piles)
    obs = fct_pb2.FourCardThiefObservation(
        seat=0,
        seats=seats,
        hand_number=1,
        hands_total=seats,
        dealer=seats - 1,
        turn=0,
        hand=list(hand),
        hand_sizes=[len(hand)] + [4] * (seats - 1),
        piles=[
            fct_pb2.FourCardThiefPile(
                sets=[fct_pb2.FourCardThiefSet(cards=list(s)) for s in pile],
                top_locked=bool(pile) and bot.is_locked(list(pile[-1])),
            )
            for pile in piles
        ],
        layout=list(layout),
        stock_size=stock,
        totals=[0] * seats,
        pile_values=[sum(bot.set_points(s) for s in pile) for pile in piles],
    )
    return pb.Observation(four_card_thief=obs)


def action(
    kind: fct_pb2.FourCardThiefActionKind.ValueType,
    cards: Sequence[cards_pb2.Card] = (),
    target: int = 0,
    taken: cards_pb2.Card | None = None,
) -> pb.Action:
    inner = fct_pb2.FourCardThiefAction(kind=kind, cards=list(cards), target=target)
    if taken is not None:
        inner.taken.CopyFrom(taken)
    return pb.Action(label=f"{kind}", four_card_thief=inner)


PAIR = Kind.FOUR_CARD_THIEF_ACTION_KIND_PAIR
LAYOUT_MATCH = Kind.FOUR_CARD_THIEF_ACTION_KIND_LAYOUT_MATCH
STEAL = Kind.FOUR_CARD_THIEF_ACTION_KIND_STEAL
DISCARD = Kind.FOUR_CARD_THIEF_ACTION_KIND_DISCARD


# --------------------------------------------------------------------------- judgement


def test_card_points_follow_the_rules() -> None:
    assert [bot.card_points(r) for r in (R.RANK_TWO, R.RANK_NINE, R.RANK_TEN)] == [1, 1, 1]
    assert [bot.card_points(r) for r in (R.RANK_JACK, R.RANK_KING, R.RANK_ACE)] == [10, 10, 10]
    assert bot.card_points(R.RANK_JOKER) == 25


def test_a_set_of_four_naturals_is_locked() -> None:
    assert bot.is_locked([card(i, R.RANK_SEVEN) for i in range(4)])
    assert not bot.is_locked([card(i, R.RANK_SEVEN) for i in range(3)])
    assert not bot.is_locked([*(card(i, R.RANK_SEVEN) for i in range(3)), card(9, R.RANK_JOKER)])


def test_chance_any_is_a_hypergeometric_tail() -> None:
    assert bot.chance_any(0, 50, 3) == 0.0
    assert bot.chance_any(50, 50, 1) == 1.0
    assert bot.chance_any(1, 10, 3) == pytest.approx(0.3)


def test_steals_the_big_set_rather_than_pairing() -> None:
    big = [card(10, R.RANK_KING), card(11, R.RANK_KING)]
    five, five2, king = (
        card(1, R.RANK_FIVE),
        card(2, R.RANK_FIVE, R.SUIT_HEARTS),
        card(3, R.RANK_KING),
    )
    obs = observation(hand=[five, five2, king, card(4, R.RANK_NINE)], piles=[[], [big]])
    actions = [action(PAIR, [five, five2]), action(STEAL, [king], target=1)]
    assert bot.choose_action(obs, actions) == 1


def test_takes_the_big_capture_first_and_leaves_the_cheap_one_for_cover() -> None:
    three, three2 = card(1, R.RANK_THREE), card(2, R.RANK_THREE, R.SUIT_HEARTS)
    ace, layout_ace = card(3, R.RANK_ACE), card(20, R.RANK_ACE, R.SUIT_CLUBS)
    obs = observation(
        hand=[three, three2, ace, card(4, R.RANK_NINE), card(5, R.RANK_SIX)],
        piles=[[], []],
        layout=[layout_ace, card(21, R.RANK_EIGHT)],
    )
    actions = [action(PAIR, [three, three2]), action(LAYOUT_MATCH, [ace], taken=layout_ace)]
    assert bot.choose_action(obs, actions) == 1


def test_covers_a_big_top_set_rather_than_ending_the_turn() -> None:
    aces = [card(20, R.RANK_ACE, R.SUIT_CLUBS), card(21, R.RANK_ACE)]
    three, three2 = card(1, R.RANK_THREE), card(2, R.RANK_THREE, R.SUIT_HEARTS)
    eight, nine = card(3, R.RANK_EIGHT), card(4, R.RANK_NINE)
    obs = observation(hand=[three, three2, eight, nine], piles=[[aces], []])
    actions = [
        action(PAIR, [three, three2]),
        action(DISCARD, [three]),
        action(DISCARD, [eight]),
        action(DISCARD, [nine]),
    ]
    assert bot.choose_action(obs, actions) == 0


def test_discard_keeps_the_joker_and_sheds_a_dead_low_rank() -> None:
    # Three of the four 4s are in sight (two in the layout, one on a pile).
    joker, four, king = card(1, R.RANK_JOKER), card(2, R.RANK_FOUR), card(3, R.RANK_KING)
    obs = observation(
        hand=[four, king, joker, card(4, R.RANK_NINE)],
        piles=[[[card(30, R.RANK_FOUR, R.SUIT_CLUBS), card(31, R.RANK_TEN)]], []],
        layout=[card(32, R.RANK_FOUR, R.SUIT_HEARTS), card(33, R.RANK_FOUR, R.SUIT_DIAMONDS)],
    )
    actions = [
        action(DISCARD, [four]),
        action(DISCARD, [card(4, R.RANK_NINE)]),
        action(DISCARD, [king]),
        action(DISCARD, [joker]),
    ]
    assert bot.choose_action(obs, actions) == 0


def test_the_choice_is_a_pure_function_of_the_observation() -> None:
    big = [card(10, R.RANK_KING), card(11, R.RANK_KING)]
    king, joker = card(3, R.RANK_KING), card(4, R.RANK_JOKER)
    obs = observation(hand=[king, joker], piles=[[], [big]])
    actions = [action(STEAL, [king], target=1), action(STEAL, [joker], target=1)]
    first = bot.FourCardThiefBot().choose(obs, actions)
    assert all(bot.FourCardThiefBot().choose(obs, actions) == first for _ in range(5))
    assert bot.FourCardThiefBot.name == "four-card-thief-heuristic"
    assert bot.choose_action(obs, actions[:1]) == 0


# --------------------------------------------------------------------------- tournament


def play_game(
    num_seats: int, seed: int, policies: Sequence[Policy | None]
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    return botkit.play_game("four-card-thief", num_seats, seed, policies)


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


def test_beats_a_random_player_in_two_seat_games() -> None:
    # 15 seeds x 2 seats = 30 games. Random expectation: 50% wins, mean place 1.5.
    # The bot wins every game here (by about 350 points); 80% leaves a wide margin.
    record = tournament(2, range(200, 215), bot.choose_action)
    assert record.games == 30
    assert record.win_rate >= 0.8, record
    assert record.mean_place <= 1.2, record
    assert record.mean_margin > 100, record


def test_beats_three_random_players_in_four_seat_games() -> None:
    # 6 seeds x 4 seats = 24 games. Random expectation: 25% wins, mean place 2.5.
    # The bot wins every game here (by about 400 points); 70% leaves a wide margin.
    record = tournament(4, range(100, 106), bot.choose_action)
    assert record.games == 24
    assert record.win_rate >= 0.7, record
    assert record.mean_place <= 1.5, record
    assert record.mean_margin > 100, record
