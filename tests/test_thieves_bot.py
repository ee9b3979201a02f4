"""The Thieves sample bots: unit checks of the planner's judgement, and the same
fixed deals played in-process by a random player, the greedy bot and the planner,
whose mean scores must rank planner > greedy > random with a wide margin.

The games run in-process (no gRPC): observations and legal actions go through
`referee.wire` exactly as the referee would send them, and each bot's pure
`choose_action` picks an index. Seeds are fixed, so the results are deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from referee import wire
from referee.games import parse_ruleset
from referee.v1 import cards_pb2, thieves_pb2
from referee.v1 import referee_pb2 as pb
from tests import botkit

Policy = Callable[[pb.Observation, Sequence[pb.Action]], int]
Kind = thieves_pb2.ThievesActionKind
R = cards_pb2


planner = botkit.load_bot("thieves_bot")
greedy = botkit.load_bot("thieves_greedy_bot")


# --------------------------------------------------------------------------- helpers

SUIT = {"c": R.SUIT_CLUBS, "d": R.SUIT_DIAMONDS, "h": R.SUIT_HEARTS, "s": R.SUIT_SPADES}
RANK = {
    "A": R.RANK_ACE,
    "J": R.RANK_JACK,
    "Q": R.RANK_QUEEN,
    "K": R.RANK_KING,
    **{str(n): cards_pb2.Rank.ValueType(n) for n in range(2, 11)},
}


def card(face: str, card_id: int) -> cards_pb2.Card:
    if face == "Jo":
        return cards_pb2.Card(id=card_id, rank=R.RANK_JOKER, suit=R.SUIT_UNSPECIFIED)
    return cards_pb2.Card(id=card_id, rank=RANK[face[:-1]], suit=SUIT[face[-1]])


def situation(
    columns: Sequence[str], stack: str, stock: str
) -> tuple[pb.Observation, list[pb.Action]]:
    """An observation and its legal actions (takes in column order, then draw)."""
    ids = iter(range(100))
    cols = [[card(f, next(ids)) for f in c.split()] for c in columns]
    top = card(stack, next(ids))
    stock_cards = [card(f, next(ids)) for f in stock.split()]
    obs = thieves_pb2.ThievesObservation(
        level=1,
        level_cap=50,
        score=0,
        columns=[thieves_pb2.ThievesColumn(cards=c) for c in cols],
        stack_card=top,
        stock_size=len(stock_cards),
        stock_cards=stock_cards,
        undo_enabled=False,
        undoable=0,
    )
    actions = []
    for index, col in enumerate(cols):
        if col and (
            col[-1].rank == R.RANK_JOKER
            or top.rank == R.RANK_JOKER
            or abs(planner.step(col[-1].rank) - planner.step(top.rank)) == 1
        ):
            move = thieves_pb2.ThievesAction(kind=Kind.THIEVES_ACTION_KIND_TAKE, column=index)
            move.card.CopyFrom(col[-1])
            actions.append(pb.Action(label=f"take column {index}", thieves=move))
    if stock_cards:
        draw = thieves_pb2.ThievesAction(kind=Kind.THIEVES_ACTION_KIND_DRAW)
        actions.append(pb.Action(label="draw", thieves=draw))
    return pb.Observation(thieves=obs), actions


def chosen(policy: Policy, columns: Sequence[str], stack: str, stock: str = "5c 9d") -> str:
    observation, actions = situation(columns, stack, stock)
    return actions[policy(observation, actions)].label


# --------------------------------------------------------------------------- judgement


def test_the_planner_takes_the_long_run_not_the_big_card() -> None:
    # Q♠ on the stack: K♦ (8 points) leads nowhere; J♥ opens J 10 9 8 7 (18 points).
    columns = ["4c Kd", "7h 8c 9s 10d Jh", "2s", "2h", "", "", ""]
    assert chosen(greedy.choose_action, columns, "Qs") == "take column 0"
    assert chosen(planner.choose_action, columns, "Qs") == "take column 1"


def test_the_planner_finds_the_order_that_clears_the_tableau() -> None:
    # 6♠ on the stack: 7♣, 6♦, 5♥ clears; the greedy 5♥ first (4 points) strands the rest.
    columns = ["5h", "6d 7c", "", "", "", "", ""]
    assert chosen(greedy.choose_action, columns, "6s") == "take column 0"
    assert chosen(planner.choose_action, columns, "6s") == "take column 1"
    columns = ["", "", "6d 7c", "", "", "", "5h"]
    assert chosen(planner.choose_action, columns, "6s") == "take column 2"


def test_both_bots_draw_when_no_take_is_open() -> None:
    columns = ["4c Kd", "9s", "", "", "", "", ""]
    assert chosen(planner.choose_action, columns, "6s") == "draw"
    assert chosen(greedy.choose_action, columns, "6s") == "draw"


def test_with_the_stock_empty_the_planner_takes_all_it_can() -> None:
    columns = ["3c Kd", "9s", "", "", "", "", ""]
    assert chosen(planner.choose_action, columns, "Qs", stock="") == "take column 0"


def test_the_choice_is_a_pure_function_of_the_observation() -> None:
    columns = ["4c Kd", "7h 8c 9s 10d Jh", "2s Jo", "2h", "", "", ""]
    observation, actions = situation(columns, "Qs", "5c 9d Ah")
    first = planner.ThievesBot().choose(observation, actions)
    assert all(planner.ThievesBot().choose(observation, actions) == first for _ in range(3))
    assert planner.ThievesBot.name == "thieves-planner"
    assert greedy.ThievesGreedyBot.name == "thieves-greedy"


# --------------------------------------------------------------------------- the same deals


def play(seed: int, policy: Policy | None) -> float:
    """One whole game in-process; None plays uniformly at random (seeded by the deal)."""
    ruleset = parse_ruleset("thieves")
    state = ruleset.new_state(1, seed)
    rng = random.Random(seed)
    for _ in range(10_000):
        if state.is_over:
            break
        legal = state.legal_actions(0)
        if policy is None:
            index = rng.randrange(len(legal))
        else:
            observation = wire.observation_message(ruleset.game, state.observe(0))
            index = policy(observation, wire.action_messages(ruleset.game, legal))
            assert 0 <= index < len(legal)
        state.apply({0: legal[index]})
    assert state.is_over
    return state.result().scores[0]


def test_planner_beats_greedy_beats_random_on_the_same_deals() -> None:
    # 40 deals. Measured here: random 73, greedy 226, planner 280 (the planner
    # scores more on 28 deals, less on 8). Over deals 0-199: 73 / 195 / 264.
    deals = range(300, 340)
    random_scores = [play(seed, None) for seed in deals]
    greedy_scores = [play(seed, greedy.choose_action) for seed in deals]
    planner_scores = [play(seed, planner.choose_action) for seed in deals]

    def mean(scores: list[float]) -> float:
        return sum(scores) / len(scores)

    assert mean(greedy_scores) >= mean(random_scores) + 80, (random_scores, greedy_scores)
    assert mean(planner_scores) >= mean(greedy_scores) + 25, (greedy_scores, planner_scores)
    better = sum(p > g for p, g in zip(planner_scores, greedy_scores, strict=True))
    worse = sum(p < g for p, g in zip(planner_scores, greedy_scores, strict=True))
    assert better >= 2 * worse, (better, worse)
