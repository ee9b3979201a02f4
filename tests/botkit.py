"""What the sample-bot tests share: loading a bot script as a module, playing
whole games in-process through the wire messages a bot really gets, and
tallying a bot's results against random players."""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from referee import wire
from referee.games import parse_ruleset
from referee.games.base import Action, GameState
from referee.games.loop import play_to_end
from referee.v1 import referee_pb2 as pb

BOTS = Path(__file__).resolve().parent.parent / "sample_bots" / "python"
Policy = Callable[[pb.Observation, Sequence[pb.Action]], int]


def load_bot(name: str) -> ModuleType:
    """sample_bots/python/<name>.py as a module (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, BOTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


@dataclass
class Record:
    """A bot's results over a series of games."""

    games: int = 0
    wins: int = 0  # first place not shared with an opponent
    place_sum: int = 0
    margin_sum: float = 0.0  # the bot's score minus the mean of its opponents'

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def mean_place(self) -> float:
        return self.place_sum / self.games

    @property
    def mean_margin(self) -> float:
        return self.margin_sum / self.games


def play_game(
    ruleset_id: str, num_seats: int, seed: int, policies: Sequence[Policy | None]
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """One whole game in-process; a None policy plays uniformly at random
    (seeded per game and seat, like random_bot.py)."""
    ruleset = parse_ruleset(ruleset_id)
    state = ruleset.new_state(num_seats, seed)
    rngs = [random.Random(seed * 1000 + seat) for seat in range(num_seats)]

    def choose(state: GameState, seat: int, legal: tuple[Action, ...]) -> Action:
        policy = policies[seat]
        if policy is None:
            return legal[rngs[seat].randrange(len(legal))]
        obs = wire.observation_message(ruleset.game, state.observe(seat))
        index = policy(obs, wire.action_messages(ruleset.game, legal))
        assert 0 <= index < len(legal)
        return legal[index]

    play_to_end(state, choose)
    assert state.is_over
    result = state.result()
    return result.scores, result.places
