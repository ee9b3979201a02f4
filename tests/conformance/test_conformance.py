"""The conformance kit: every registered ruleset must pass these.

Random playouts over at least 500 seeds across all seat counts with the
invariants checked at every step (among them who decides and how: in turn,
out of turn, simultaneously, as the game's declared type allows); determinism;
hidden information as a hypothesis property (states that differ only in what
a seat cannot see give that seat the same observation); and a match with
scripted seats, whose requests must carry the decision kinds and their limits.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections import Counter

import pytest
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import wire
from referee.games import all_rulesets
from referee.games.base import (
    DecisionKind,
    GameError,
    GameState,
    IllegalAction,
    Ruleset,
    places_from_scores,
)
from referee.match import Match, TimeControl
from referee.seats import Reply, ScriptedSeat
from referee.v1 import referee_pb2 as pb
from tests.conformance.playout import play_out, random_choices, walk

PLAYOUT_SEEDS = 500


RULESETS = all_rulesets()
IDS = [r.id for r in RULESETS]


def seat_counts(ruleset: Ruleset) -> list[int]:
    low, high = ruleset.seats
    return list(range(low, high + 1))


FULL_CHECK_EVERY = 8  # rounds between the costlier checks (conservation, labels)


def turn_of(state: GameState, seat: int, full: bool) -> int | None:
    """The seat on turn as the engine has it (`in_turn()`), else, on a full
    check, as `seat` is shown it (the observation's `turn`); None for a game
    without turns (or when not looked at)."""
    in_turn = getattr(state, "in_turn", None)
    if in_turn is not None:
        turn: int | None = in_turn()
        return turn
    shown = getattr(state.observe(seat), "turn", None) if full else None
    return None if shown is None else int(shown)


def check_decisions(state: GameState, ruleset: Ruleset, full: bool = True) -> None:
    """Who decides and how: the decision kinds name exactly the deciders;
    several deciders only in a simultaneous game, and then all simultaneous;
    a lone decider is out of turn exactly when it is not the seat on turn;
    a seat that is not deciding has no legal action, and no seat outside the
    game has any."""
    game = ruleset.game
    deciders = state.deciders()
    kinds = state.decision_kinds()
    assert deciders == tuple(sorted(deciders)), f"deciders {deciders} not in seat order"
    assert tuple(sorted(kinds)) == deciders, f"decision kinds {kinds} vs deciders {deciders}"
    if len(deciders) > 1:
        assert game.simultaneous, f"{game.name} is not simultaneous but asks {deciders} at once"
        assert set(kinds.values()) == {DecisionKind.SIMULTANEOUS}, kinds
    elif deciders:
        (seat,) = deciders
        kind = kinds[seat]
        assert kind is not DecisionKind.SIMULTANEOUS, f"seat {seat} alone is simultaneous"
        turn = turn_of(state, seat, full)
        if turn is not None or full:
            out_of_turn = turn is not None and turn != seat
            assert (kind is DecisionKind.OUT_OF_TURN) == out_of_turn, (
                f"seat {seat} decides {kind.value} but the seat on turn is {turn}"
            )
    if not full:
        return
    for other in range(state.num_seats):
        if other not in kinds:
            assert state.legal_actions(other) == (), f"seat {other} is not deciding"
    for outside in (-1, state.num_seats):
        with pytest.raises(GameError):
            state.legal_actions(outside)


def check_invariants(
    state: GameState, ruleset: Ruleset, card_ids: Counter[int], full: bool = True
) -> None:
    if full:
        assert Counter(c.id for c in state.all_cards()) == card_ids, "cards not conserved"
    deciders = state.deciders()
    check_decisions(state, ruleset, full)
    if state.is_over:
        assert deciders == ()
        return
    assert deciders, "a game that is not over must have a seat to decide"
    assert len(set(deciders)) == len(deciders)
    for seat in deciders:
        assert 0 <= seat < state.num_seats
        actions = state.legal_actions(seat)
        assert actions, f"seat {seat} must decide but has no legal action"
        if full:
            labels = [a.label for a in actions]
            assert len(set(labels)) == len(labels), f"two legal actions share a label: {labels}"


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_the_game_declares_its_type(ruleset: Ruleset) -> None:
    """One-player and simultaneous are declared by the game, never inferred
    from its seat counts; a one-player game is played by one seat only."""
    game = type(ruleset.game)
    for flag in ("one_player", "simultaneous"):
        declared = next((vars(c)[flag] for c in game.__mro__ if flag in vars(c)), None)
        assert isinstance(declared, bool), f"{game.__name__} does not declare {flag}"
    assert game.one_player == (ruleset.seats == (1, 1)), (
        f"{ruleset.id}: one_player={game.one_player} but seats {ruleset.seats}"
    )


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_random_playouts_keep_invariants_and_end(ruleset: Ruleset) -> None:
    counts = seat_counts(ruleset)
    kinds_seen: set[DecisionKind] = set()
    for i in range(max(PLAYOUT_SEEDS, len(counts))):
        num_seats = counts[i % len(counts)]
        state = ruleset.new_state(num_seats, seed=i)
        card_ids = Counter(c.id for c in state.all_cards())
        assert len(card_ids) == sum(card_ids.values()), "two cards share an id"
        rng = random.Random(i)
        check_invariants(state, ruleset, card_ids)
        kinds_seen.update(state.decision_kinds().values())
        for round_number, _ in enumerate(walk(state, rng)):
            check_invariants(state, ruleset, card_ids, round_number % FULL_CHECK_EVERY == 0)
            kinds_seen.update(state.decision_kinds().values())
        check_invariants(state, ruleset, card_ids)
        result = state.result()
        assert len(result.scores) == len(result.places)
        if not result.teams:
            assert result.places == places_from_scores(result.scores)
    simultaneous = DecisionKind.SIMULTANEOUS in kinds_seen
    assert simultaneous == ruleset.game.simultaneous, (
        f"declared simultaneous={ruleset.game.simultaneous}, seen: {kinds_seen}"
    )


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_apply_checks_the_choices_before_the_game_plays_them(ruleset: Ruleset) -> None:
    """One legal action from each decider and nothing else, or IllegalAction
    and the state unchanged; once the game is over, nothing."""
    state = ruleset.new_state(ruleset.seats[1], seed=3)
    deciders = state.deciders()
    good = {seat: state.legal_actions(seat)[0] for seat in deciders}
    views = [state.observe(seat) for seat in range(state.num_seats)]
    others = [seat for seat in range(state.num_seats) if seat not in deciders]
    bad: list[dict[int, object]] = [{}, {**good, deciders[0]: object()}]
    bad += [{**good, seat: good[deciders[0]]} for seat in others[:1]]
    if len(deciders) > 1:
        bad.append({seat: good[seat] for seat in deciders[1:]})
    for choices in bad:
        with pytest.raises(IllegalAction):
            state.apply(choices)  # type: ignore[arg-type]
        assert [state.observe(seat) for seat in range(state.num_seats)] == views
    state.apply(good)
    for _ in walk(state, random.Random(3)):
        pass
    with pytest.raises(IllegalAction, match="over"):
        state.apply({})


def assert_same_fields(value: object, message: Message) -> None:
    """A dataclass and its proto message must name the same fields: nothing
    the bot is promised may be silently left unset."""
    ours = {f.name for f in dataclasses.fields(value)}  # type: ignore[arg-type]
    theirs = set(message.DESCRIPTOR.fields_by_name)
    assert ours == theirs, f"{type(value).__name__} vs {message.DESCRIPTOR.name}: {ours ^ theirs}"


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_observations_and_actions_fit_the_wire(ruleset: Ruleset) -> None:
    wire_name = ruleset.game.wire_name
    first = ruleset.new_state(ruleset.seats[0], seed=0)
    assert_same_fields(first.observe(0), getattr(pb.Observation(), wire_name))
    decider = first.deciders()[0]
    assert_same_fields(first.legal_actions(decider)[0], getattr(pb.Action(), wire_name))
    for num_seats in seat_counts(ruleset):
        state = ruleset.new_state(num_seats, seed=num_seats)
        rng = random.Random(num_seats)
        for _ in walk(state, rng):
            for seat in range(num_seats):
                wire.observation_message(ruleset.game, state.observe(seat))
            for seat in state.deciders():
                wire.action_messages(ruleset.game, state.legal_actions(seat))


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_same_seed_same_game(ruleset: Ruleset) -> None:
    for num_seats in seat_counts(ruleset):
        _, first = play_out(ruleset, num_seats, seed=1234)
        _, second = play_out(ruleset, num_seats, seed=1234)
        assert first == second
        _, other = play_out(ruleset, num_seats, seed=4321)
        assert first != other, "different seeds should give different games"


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_observe_is_pure(ruleset: Ruleset) -> None:
    num_seats = ruleset.seats[0]
    state = ruleset.new_state(num_seats, seed=5)
    rng = random.Random(5)
    for _ in walk(state, rng):
        for seat in range(num_seats):
            assert state.observe(seat) == state.observe(seat)


def advance(ruleset: Ruleset, num_seats: int, seed: int, rounds: int) -> GameState:
    state = ruleset.new_state(num_seats, seed)
    rng = random.Random(seed)
    for _ in range(rounds):
        if state.is_over:
            break
        state.apply(random_choices(state, rng))
    return state


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hidden_cards_do_not_change_an_observation(ruleset: Ruleset, data: st.DataObject) -> None:
    num_seats = data.draw(st.sampled_from(seat_counts(ruleset)), label="seats")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    rounds = data.draw(st.integers(0, 1500), label="rounds")
    state = advance(ruleset, num_seats, seed, rounds)
    seat = data.draw(st.integers(0, num_seats - 1), label="seat")
    other = state.resample_hidden(seat, random.Random(data.draw(st.integers(0, 2**32 - 1))))
    assert other.observe(seat) == state.observe(seat)
    assert sorted(c.id for c in other.all_cards()) == sorted(c.id for c in state.all_cards())
    if not state.is_over:
        assert other.deciders() == state.deciders()
        for decider in state.deciders():
            if decider == seat:
                assert other.legal_actions(seat) == state.legal_actions(seat)


def diverges(state: GameState, other: GameState, seed: int, rounds: int = 60) -> bool:
    """Does the copy differ from the original for anyone but seat 0? Other
    seats' observations tell at once; with one seat only, play both out under
    the same choices (by index) until the hidden cards show."""
    others = range(1, state.num_seats)
    if others:
        return [state.observe(s) for s in others] != [other.observe(s) for s in others]
    a, b = state.clone(), other.clone()
    rng = random.Random(seed)
    for _ in range(rounds):
        if a.is_over or b.is_over:
            return a.is_over != b.is_over or a.result() != b.result()
        if a.deciders() != b.deciders():
            return True
        choices_a, choices_b = {}, {}
        for seat in a.deciders():
            actions_a, actions_b = a.legal_actions(seat), b.legal_actions(seat)
            if [x.label for x in actions_a] != [x.label for x in actions_b]:
                return True
            pick = rng.randrange(len(actions_a))
            choices_a[seat], choices_b[seat] = actions_a[pick], actions_b[pick]
        if a.apply(choices_a) != b.apply(choices_b):
            return True
    return False


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_resampling_really_moves_hidden_cards(ruleset: Ruleset) -> None:
    """Guards the property above against a resample that changes nothing:
    the copy must play out differently from the original, as seen by anyone."""
    changed = tried = 0
    for seed in range(40):
        state = advance(ruleset, ruleset.seats[1], seed, rounds=seed % 8)
        if state.is_over:
            continue
        tried += 1
        if diverges(state, state.resample_hidden(0, random.Random(seed)), seed):
            changed += 1
    assert tried >= 20
    assert changed >= tried // 2, f"resample_hidden changed hidden cards in {changed} of {tried}"


MOVE, OUT_OF_TURN = 1.0, 0.25
MATCH_TIME = TimeControl(move_seconds=MOVE, out_of_turn_seconds=OUT_OF_TURN)


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_a_match_asks_each_seat_as_the_game_says_with_its_limit(ruleset: Ruleset) -> None:
    """Through the match, every request carries its seat's decision kind as
    `out_of_turn` / `simultaneous`, and an out-of-turn request the out-of-turn
    limit (plus the bank), every other the move limit (plus the bank)."""
    num_seats = ruleset.seats[1]
    asked: list[tuple[pb.DecisionRequest, DecisionKind]] = []

    def script(seat: int) -> ScriptedSeat:
        rng = random.Random(seat)

        def reply(request: pb.DecisionRequest) -> Reply:
            # The match asks every decider before it applies anything.
            asked.append((request, match.state.decision_kinds()[seat]))
            return Reply(rng.randrange(len(request.legal_actions)), None, 0.001)

        return ScriptedSeat(f"seat{seat}", reply)

    seats = [script(seat) for seat in range(num_seats)]
    match = Match(ruleset, seats, seed=11, time_control=MATCH_TIME)
    asyncio.run(match.run())
    assert asked and not any(record.faults for record in match.records)
    for request, kind in asked:
        assert request.out_of_turn == (kind is DecisionKind.OUT_OF_TURN)
        assert request.simultaneous == (kind is DecisionKind.SIMULTANEOUS)
    for seat_client in seats:
        assert len(seat_client.limits) == len(seat_client.requests)
        for request, limit in zip(seat_client.requests, seat_client.limits):
            move = OUT_OF_TURN if request.out_of_turn else MOVE
            assert limit == pytest.approx(move + request.time_bank_ms / 1000, abs=1e-3)
            assert request.time_bank_ms == MATCH_TIME.bank_seconds * 1000
