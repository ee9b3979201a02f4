"""A greedy Thieves bot, the yardstick for the planning bot (thieves_bot.py).

Run by the referee:  referee play thieves --bot "python sample_bots/python/thieves_greedy_bot.py"

It looks one take ahead and no further: of the takes open it makes the one worth
the most points (ties: the deepest column, which uncovers most; then the lowest
column number); with no take open it draws. It never undoes.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.sdk import Bot, run
from referee.v1 import cards_pb2, thieves_pb2
from referee.v1 import referee_pb2 as pb

Kind = thieves_pb2.ThievesActionKind
R = cards_pb2

POINTS = {
    R.RANK_ACE: 8,
    R.RANK_TWO: 6,
    R.RANK_THREE: 6,
    R.RANK_FOUR: 4,
    R.RANK_FIVE: 4,
    R.RANK_SIX: 2,
    R.RANK_SEVEN: 2,
    R.RANK_EIGHT: 2,
    R.RANK_NINE: 4,
    R.RANK_TEN: 4,
    R.RANK_JACK: 6,
    R.RANK_QUEEN: 6,
    R.RANK_KING: 8,
    R.RANK_JOKER: 0,
}


def choose_action(observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
    """The index of the best immediate take, else of the draw (a pure function)."""
    obs = observation.thieves
    best_index, best_key = -1, (-1, -1, 0)
    fallback = 0
    for index, action in enumerate(actions):
        move = action.thieves
        if move.kind == Kind.THIEVES_ACTION_KIND_DRAW:
            fallback = index
        if move.kind != Kind.THIEVES_ACTION_KIND_TAKE:
            continue
        depth = len(obs.columns[move.column].cards) if move.column < len(obs.columns) else 0
        key = (POINTS.get(move.card.rank, 0), depth, -move.column)
        if key > best_key:
            best_index, best_key = index, key
    return best_index if best_index >= 0 else fallback


class ThievesGreedyBot(Bot):
    name = "thieves-greedy"

    def choose(self, observation: pb.Observation, actions: Sequence[pb.Action]) -> int:
        return choose_action(observation, actions)


if __name__ == "__main__":
    run(ThievesGreedyBot())
