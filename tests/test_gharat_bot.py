"""The heuristic Ghârat sample bot: unit checks of its judgement, and an
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

from referee.v1 import cards_pb2, gharat_pb2
from referee.v1 import referee_pb2 as pb
from tests import botkit
from tests.botkit import Record, play_game

Policy = Callable[[pb.Observation, Sequence[pb.Action]], int]
Kind = gharat_pb2.GharatActionKind
R = cards_pb2  # ranks and suits, e.g. R.RANK_KING, R.SUIT_HEARTS
TAKE = Kind.GHARAT_ACTION_KIND_TAKE_PLAY_PILE
LOOT = Kind.GHARAT_ACTION_KIND_LOOT
ADD_OWN = Kind.GHARAT_ACTION_KIND_ADD_OWN
DROP = Kind.GHARAT_ACTION_KIND_DROP


bot = botkit.load_bot("gharat_bot")


# --------------------------------------------------------------------------- helpers

_SUITS = (R.SUIT_CLUBS, R.SUIT_DIAMONDS, R.SUIT_HEARTS, R.SUIT_SPADES)


def card(rank: cards_pb2.Rank.ValueType, suit: int = 0) -> cards_pb2.Card:
    """The card of `rank` in the suit numbered `suit` (0 clubs .. 3 spades), with
    the id the engine gives it."""
    return cards_pb2.Card(id=13 * suit + rank - 2, rank=rank, suit=_SUITS[suit])


def observation(
    hand: Sequence[cards_pb2.Card],
    piles: Sequence[Sequence[cards_pb2.Card]],
    play_pile: Sequence[cards_pb2.Card] = (),
    buried: int = 0,
    stock: int = 20,
    partnerships: bool = False,
) -> pb.Observation:
    """An observation for seat 0, on turn, with the given hand and piles."""
    seats = len(piles)
    obs = gharat_pb2.GharatObservation(
        seat=0,
        seats=seats,
        hand_number=1,
        dealer=1,
        turn=0,
        target=1000,
        partnerships=partnerships,
        hand=list(hand),
        hand_sizes=[len(hand)] + [len(hand)] * (seats - 1),
        play_pile=list(play_pile),
        buried=buried,
        piles=[gharat_pb2.GharatPile(cards=list(p)) for p in piles],
        stock_size=stock,
        totals=[0] * seats,
        pile_values=[bot.points(p) for p in piles],
    )
    return pb.Observation(gharat=obs)


def action(
    kind: gharat_pb2.GharatActionKind.ValueType, played: cards_pb2.Card, target: int = 0
) -> pb.Action:
    return pb.Action(
        label=f"{kind}", gharat=gharat_pb2.GharatAction(kind=kind, card=played, target=target)
    )


# --------------------------------------------------------------------------- judgement


def test_card_points_follow_the_rules() -> None:
    assert [bot.card_points(r) for r in (R.RANK_TWO, R.RANK_NINE, R.RANK_TEN)] == [5, 5, 5]
    assert [bot.card_points(r) for r in (R.RANK_JACK, R.RANK_KING)] == [10, 10]
    assert bot.card_points(R.RANK_ACE) == 20


def test_top_run_is_the_top_card_and_its_rank_below_it() -> None:
    pile = [card(R.RANK_FIVE), card(R.RANK_SEVEN), card(R.RANK_SEVEN, 1)]
    assert bot.top_run(pile) == [card(R.RANK_SEVEN, 1), card(R.RANK_SEVEN)]
    assert bot.top_run([]) == []


def test_chance_any_is_a_hypergeometric_tail() -> None:
    assert bot.chance_any(0, 50, 3) == 0.0
    assert bot.chance_any(1, 10, 3) == pytest.approx(0.3)


def test_loots_a_big_run_rather_than_taking_a_small_card() -> None:
    aces = [card(R.RANK_FIVE, 1), card(R.RANK_ACE, 1), card(R.RANK_ACE, 2)]
    ace, three = card(R.RANK_ACE), card(R.RANK_THREE)
    obs = observation(
        hand=[three, ace, card(R.RANK_NINE)],
        piles=[[], aces],
        play_pile=[card(R.RANK_THREE, 1)],
    )
    actions = [action(TAKE, three), action(LOOT, ace, 1), action(DROP, card(R.RANK_NINE))]
    assert bot.choose_action(obs, actions) == 1


def test_loots_the_opponent_and_not_the_partner() -> None:
    king = card(R.RANK_KING)
    piles = [[], [card(R.RANK_KING, 1)], [card(R.RANK_KING, 2)], []]
    obs = observation(hand=[king, card(R.RANK_FOUR)], piles=piles, partnerships=True)
    actions = [action(LOOT, king, 1), action(LOOT, king, 2)]
    assert bot.choose_action(obs, actions) == 0
    assert bot.choose_action(obs, actions[::-1]) == 1


def test_prefers_the_capture_that_leaves_a_run_nobody_can_loot() -> None:
    # Equal gains (10): taking the 7 leaves 7 7 on top with two 7s hidden; looting
    # the 6 leaves 6 6 on top while the other two 6s lie in sight in the play pile.
    seven, six = card(R.RANK_SEVEN), card(R.RANK_SIX)
    obs = observation(
        hand=[six, seven, card(R.RANK_TWO)],
        piles=[[], [card(R.RANK_SIX, 1)]],
        play_pile=[card(R.RANK_SIX, 2), card(R.RANK_SIX, 3), card(R.RANK_SEVEN, 1)],
    )
    actions = [action(TAKE, seven), action(LOOT, six, 1)]
    assert bot.choose_action(obs, actions) == 1


def test_drops_a_dead_low_card_rather_than_a_live_ace() -> None:
    # The other three 4s are in sight; three aces are still hidden.
    four, ace = card(R.RANK_FOUR), card(R.RANK_ACE)
    obs = observation(
        hand=[four, ace],
        piles=[[card(R.RANK_FOUR, 1)], [card(R.RANK_FOUR, 2), card(R.RANK_NINE)]],
        play_pile=[card(R.RANK_FOUR, 3), card(R.RANK_TEN)],
    )
    actions = [action(DROP, ace), action(DROP, four)]
    assert bot.choose_action(obs, actions) == 1


def test_the_choice_is_a_pure_function_of_the_observation() -> None:
    king = card(R.RANK_KING)
    obs = observation(hand=[king], piles=[[], [card(R.RANK_KING, 1)]])
    actions = [action(LOOT, king, 1), action(ADD_OWN, king)]
    first = bot.GharatBot().choose(obs, actions)
    assert all(bot.GharatBot().choose(obs, actions) == first for _ in range(5))
    assert bot.GharatBot.name == "gharat-heuristic"
    assert bot.choose_action(obs, actions[:1]) == 0


# --------------------------------------------------------------------------- tournament


def tournament(ruleset_id: str, num_seats: int, seeds: range, policy: Policy) -> Record:
    """`policy` in every seat in turn against random players, over the same seeds
    (with partnerships, its partner plays at random too)."""
    record = Record()
    teams = "partnerships" in ruleset_id
    for seed in seeds:
        for seat in range(num_seats):
            policies: list[Policy | None] = [None] * num_seats
            policies[seat] = policy
            scores, places = play_game(ruleset_id, num_seats, seed, policies)
            if teams:
                opponents = [s for i, s in enumerate(scores) if (i - seat) % 2]
            else:
                opponents = [s for i, s in enumerate(scores) if i != seat]
            record.games += 1
            record.wins += places[seat] == 1 and places.count(1) == (2 if teams else 1)
            record.place_sum += places[seat]
            record.margin_sum += scores[seat] - sum(opponents) / len(opponents)
    return record


def test_beats_a_random_player_in_two_seat_games() -> None:
    # 6 seeds x 2 seats = 12 games. Random expectation: 50% wins, mean place 1.5.
    # The bot wins every game here (by about 500 points); 80% leaves a wide margin.
    record = tournament("gharat", 2, range(200, 206), bot.choose_action)
    assert record.games == 12
    assert record.win_rate >= 0.8, record
    assert record.mean_place <= 1.2, record
    assert record.mean_margin > 200, record


def test_beats_two_random_players_in_three_seat_games() -> None:
    # 3 seeds x 3 seats = 9 games. Random expectation: 33% wins, mean place 2.
    # The bot wins every game here (by about 450 points); 66% leaves a wide margin.
    record = tournament("gharat", 3, range(100, 103), bot.choose_action)
    assert record.games == 9
    assert record.win_rate >= 0.66, record
    assert record.mean_place <= 1.4, record
    assert record.mean_margin > 150, record


def test_carries_a_random_partner_against_two_random_players() -> None:
    # 3 seeds x 4 seats = 12 games, the bot's partner playing at random. Random
    # expectation: 50% wins. The bot's team wins about 90% here; 70% leaves a margin.
    record = tournament("gharat?partnerships", 4, range(300, 303), bot.choose_action)
    assert record.games == 12
    assert record.win_rate >= 0.7, record
    assert record.mean_margin > 50, record
