"""Checked-in playthroughs, one per ruleset, regenerated and compared.

A transcript is one seeded game with seeded random choices, written as a
person reads it: every event with who may see it, and at every decision the
deciding seat, its legal actions and the choice. Any change to a game's
behaviour shows up as a diff here. After an intended change, regenerate:
UPDATE_TRANSCRIPTS=1 python -m pytest tests/test_transcripts.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from referee.games.base import Event, Ruleset
from tests.conformance.playout import random_choices
from tests.conformance.test_conformance import IDS, RULESETS

HERE = Path(__file__).resolve().parent / "transcripts"
SEED = 2026


def file_name(ruleset: Ruleset) -> str:
    return ruleset.id.replace("?", "__").replace("&", "_").replace("=", "-") + ".txt"


def seats_for(ruleset: Ruleset) -> int:
    low, high = ruleset.seats
    return min(max(3, low), high)


def event_line(event: Event) -> str:
    who = (
        "all"
        if event.audience is None
        else (
            "referee"
            if not event.audience
            else "seat " + ",".join(map(str, sorted(event.audience)))
        )
    )
    return f"  [{who}] {event.text}"


def transcript(ruleset: Ruleset) -> str:
    num_seats = seats_for(ruleset)
    state = ruleset.new_state(num_seats, SEED)
    rng = random.Random(SEED)
    lines = [f"# {ruleset.id}: {num_seats} seats, deal seed {SEED}, random choices seed {SEED}"]
    lines += [event_line(e) for e in state.opening_events()]
    while not state.is_over:
        choices = random_choices(state, rng)
        for seat, action in sorted(choices.items()):
            labels = [a.label for a in state.legal_actions(seat)]
            lines.append(f"seat {seat} chooses from: {' | '.join(labels)}")
            lines.append(f"seat {seat} -> {action.label}")
        lines += [event_line(e) for e in state.apply(choices)]
    result = state.result()
    lines.append(f"# scores {list(result.scores)} places {list(result.places)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_transcript_matches(ruleset: Ruleset) -> None:
    path = HERE / file_name(ruleset)
    text = transcript(ruleset)
    if os.environ.get("UPDATE_TRANSCRIPTS"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no transcript for {ruleset.id}: run with UPDATE_TRANSCRIPTS=1"
    assert path.read_text(encoding="utf-8") == text, (
        f"{path.name} differs from a fresh playthrough; if the change is intended, "
        "regenerate with UPDATE_TRANSCRIPTS=1"
    )
