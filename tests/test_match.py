"""Match-level rules that need no processes: forfeits and places."""

from __future__ import annotations

from referee.games.base import Result
from referee.match import forfeits_last


def test_a_forfeited_seat_is_placed_below_every_other_seat() -> None:
    result = Result((5, 9, 7), (3, 1, 2))
    assert forfeits_last(result, [False, True, False]).places == (2, 3, 1)
    assert forfeits_last(result, [False, False, False]) is result


def test_forfeits_in_a_partnership_place_the_whole_team_last() -> None:
    result = Result((10, 20, 10, 20), (2, 1, 2, 1), (), ((0, 2), (1, 3)))
    assert forfeits_last(result, [False, True, False, False]).places == (1, 2, 1, 2)


def test_several_forfeits_are_ranked_among_themselves_by_score() -> None:
    result = Result((5, 9, 7, 1), (3, 1, 2, 4))
    assert forfeits_last(result, [True, True, False, False]).places == (4, 3, 1, 2)
