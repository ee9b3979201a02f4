"""The heuristic Indian Chief sample bot: unit checks of its judgement, and an
in-process tournament against random players that it must clearly win.

The games run in-process (no gRPC): the engine's observation and legal actions
go through `referee.wire`, exactly as the referee would send them, and the
bot's pure `choose_action` picks an index. Every seat that must decide in a
round decides (melds are simultaneous). Seeds are fixed, so the results are
deterministic; the thresholds leave a wide margin below what the bot achieves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.v1 import cards_pb2, indian_chief_pb2
from referee.v1 import referee_pb2 as pb
from tests import botkit
from tests.botkit import Record, play_game

Policy = Callable[[pb.Observation, Sequence[pb.Action]], int]
Meld = indian_chief_pb2.IndianChiefMeld
Kind = indian_chief_pb2.IndianChiefActionKind


bot = botkit.load_bot("indian_chief_bot")
R = cards_pb2


# --------------------------------------------------------------------------- helpers


def card(
    card_id: int, rank: cards_pb2.Rank.ValueType, suit: cards_pb2.Suit.ValueType
) -> cards_pb2.Card:
    return cards_pb2.Card(id=card_id, rank=rank, suit=suit)


def observation(
    hand: Sequence[cards_pb2.Card],
    made: Sequence[indian_chief_pb2.IndianChiefMeld.ValueType] = (),
    seats: int = 3,
    tables: Sequence[Sequence[cards_pb2.Card]] = (),
) -> pb.Observation:
    players = []
    for seat in range(seats):
        table = list(tables[seat]) if seat < len(tables) else []
        players.append(
            indian_chief_pb2.IndianChiefPlayer(
                total=0,
                hand_size=8,
                melds_made=list(made) if seat == 0 else [],
                meld_scores=[0] * len(made) if seat == 0 else [],
                table=table,
            )
        )
    obs = indian_chief_pb2.IndianChiefObservation(
        seat=0,
        seats=seats,
        round=len(made) + 1,
        rounds_total=7,
        decks=1,
        phase=indian_chief_pb2.INDIAN_CHIEF_PHASE_MELD,
        hand=list(hand),
        stock_size=20,
        players=players,
    )
    return pb.Observation(indian_chief=obs)


def meld(kind: Meld.ValueType, cards: Sequence[cards_pb2.Card]) -> pb.Action:
    move = indian_chief_pb2.IndianChiefAction(
        kind=Kind.INDIAN_CHIEF_ACTION_KIND_MELD, meld=kind, cards=list(cards)
    )
    return pb.Action(label=f"{kind}", indian_chief=move)


def steal(c: cards_pb2.Card, target: int) -> pb.Action:
    move = indian_chief_pb2.IndianChiefAction(
        kind=Kind.INDIAN_CHIEF_ACTION_KIND_STEAL, cards=[c], target=target
    )
    return pb.Action(label="steal", indian_chief=move)


NO_STEAL = pb.Action(
    label="no steal",
    indian_chief=indian_chief_pb2.IndianChiefAction(kind=Kind.INDIAN_CHIEF_ACTION_KIND_NO_STEAL),
)

HAND = [
    card(1, R.RANK_KING, R.SUIT_CLUBS),
    card(2, R.RANK_QUEEN, R.SUIT_DIAMONDS),
    card(3, R.RANK_FOUR, R.SUIT_HEARTS),
    card(4, R.RANK_ACE, R.SUIT_SPADES),
    card(5, R.RANK_TWO, R.SUIT_CLUBS),
    card(6, R.RANK_THREE, R.SUIT_DIAMONDS),
    card(7, R.RANK_NINE, R.SUIT_SPADES),
    card(8, R.RANK_SEVEN, R.SUIT_SPADES),
]


# --------------------------------------------------------------------------- judgement


def test_scoring_follows_the_rules() -> None:
    assert bot.value(card(0, R.RANK_ACE, R.SUIT_CLUBS)) == 1
    assert bot.value(card(0, R.RANK_KING, R.SUIT_CLUBS)) == 10
    five = [card(i, R.Rank.ValueType(r), R.SUIT_SPADES) for i, r in enumerate(range(5, 10))]
    assert bot.five_card_points(five) == 45
    seven = [*five, card(9, R.RANK_KING, R.SUIT_HEARTS), card(10, R.RANK_NINE, R.SUIT_DIAMONDS)]
    assert bot.chief_points(seven) == 54
    assert bot.fixed_points(Meld.INDIAN_CHIEF_MELD_LAWYER, [*HAND[:3], HAND[4]]) == 0.0  # 26
    lawyer = [HAND[0], HAND[1], HAND[2], HAND[3]]  # 10 + 10 + 4 + 1 = 25
    assert bot.fixed_points(Meld.INDIAN_CHIEF_MELD_LAWYER, lawyer) == 25.0


def test_a_lawyer_of_exactly_25_is_made_at_once() -> None:
    lawyer = [HAND[0], HAND[1], HAND[2], HAND[3]]
    miss = [HAND[0], HAND[1], HAND[2], HAND[4]]
    actions = [
        meld(Meld.INDIAN_CHIEF_MELD_LAWYER, miss),
        meld(Meld.INDIAN_CHIEF_MELD_LAWYER, lawyer),
        meld(Meld.INDIAN_CHIEF_MELD_RICH_MAN, HAND[3:8]),
    ]
    assert bot.choose_action(observation(HAND), actions) == 1


def test_a_rich_man_takes_the_lowest_cards() -> None:
    low = [HAND[3], HAND[4], HAND[5], HAND[2], HAND[7]]  # A 2 3 4 7: -17
    high = [HAND[0], HAND[1], HAND[6], HAND[7], HAND[2]]
    actions = [
        meld(Meld.INDIAN_CHIEF_MELD_RICH_MAN, high),
        meld(Meld.INDIAN_CHIEF_MELD_RICH_MAN, low),
    ]
    assert bot.choose_action(observation(HAND), actions) == 1


def test_a_poor_man_takes_the_spades() -> None:
    spades = [HAND[3], HAND[6], HAND[7]]
    other = [HAND[0], HAND[1], HAND[6]]
    made = [m for m in bot.ALL_MELDS if m != Meld.INDIAN_CHIEF_MELD_POOR_MAN]
    actions = [
        meld(Meld.INDIAN_CHIEF_MELD_POOR_MAN, other),
        meld(Meld.INDIAN_CHIEF_MELD_POOR_MAN, spades),
    ]
    assert bot.choose_action(observation(HAND, made=made), actions) == 1


def test_a_thief_steals_the_card_it_needs() -> None:
    # The Doctor is still to come and the bot holds no ace: it takes the ace.
    hand = [c for c in HAND if c.rank != R.RANK_ACE]
    ace = card(40, R.RANK_ACE, R.SUIT_HEARTS)
    five = card(41, R.RANK_FIVE, R.SUIT_CLUBS)
    made = [Meld.INDIAN_CHIEF_MELD_THIEF]
    obs = observation(hand, made=made, tables=[[], [five, ace]])
    actions = [steal(five, 1), steal(ace, 1), NO_STEAL]
    assert bot.choose_action(obs, actions) == 1


def test_the_choice_is_a_pure_function_of_the_observation() -> None:
    actions = [meld(Meld.INDIAN_CHIEF_MELD_THIEF, [c]) for c in HAND]
    first = bot.IndianChiefBot().choose(observation(HAND), actions)
    assert all(bot.IndianChiefBot().choose(observation(HAND), actions) == first for _ in range(3))
    assert bot.IndianChiefBot.name == "indian-chief-heuristic"


# --------------------------------------------------------------------------- tournament


def tournament(ruleset_id: str, num_seats: int, seeds: range, policy: Policy) -> Record:
    """`policy` in every seat in turn against random players, over the same seeds."""
    record = Record()
    for seed in seeds:
        for seat in range(num_seats):
            policies: list[Policy | None] = [None] * num_seats
            policies[seat] = policy
            scores, places = play_game(ruleset_id, num_seats, seed, policies)
            others = [s for i, s in enumerate(scores) if i != seat]
            record.games += 1
            record.wins += places[seat] == 1 and places.count(1) == 1
            record.place_sum += places[seat]
            record.margin_sum += scores[seat] - sum(others) / len(others)
    return record


def test_beats_two_random_players_in_three_seat_games() -> None:
    # 10 seeds x 3 seats = 30 games. Random expectation: 33% wins, mean place 2.
    record = tournament("indian-chief", 3, range(100, 110), bot.choose_action)
    assert record.games == 30
    assert record.win_rate >= 0.7, record
    assert record.mean_place <= 1.4, record
    assert record.mean_margin > 40, record


def test_beats_random_players_with_two_decks() -> None:
    # 4 seeds x 5 seats = 20 games. Random expectation: 20% wins, mean place 3.
    record = tournament("indian-chief?double_deck", 5, range(200, 204), bot.choose_action)
    assert record.games == 20
    assert record.win_rate >= 0.6, record
    assert record.mean_place <= 1.6, record
