"""The generic dataclass-to-proto converter."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from referee import wire
from referee.cards import Card, Rank, Suit, make_deck
from referee.games.base import Event
from referee.v1 import cards_pb2, thief_pb2


def test_card_fast_path_matches_the_proto_enums() -> None:
    for card in make_deck(decks=1, jokers=2):
        message = cards_pb2.Card()
        wire.fill(message, card)
        assert message.id == card.id
        assert cards_pb2.Rank.Name(message.rank) == f"RANK_{card.rank.name}"
        expected_suit = f"SUIT_{card.suit.name}" if card.suit else "SUIT_UNSPECIFIED"
        assert cards_pb2.Suit.Name(message.suit) == expected_suit


def test_enums_map_by_name_and_none_leaves_a_field_unset() -> None:
    @dataclass(frozen=True)
    class Dispute:
        set: object
        rank: Rank
        holder: int
        challenger: int

    @dataclass(frozen=True)
    class Set:
        cards: tuple[Card, ...]

    seven = Card(3, Rank.SEVEN, Suit.HEARTS)
    message = thief_pb2.ThiefDispute()
    wire.fill(message, Dispute(Set((seven,)), Rank.SEVEN, 2, 0))
    assert message.rank == cards_pb2.RANK_SEVEN
    assert message.holder == 2 and message.challenger == 0
    assert [c.id for c in message.set.cards] == [3]


def test_a_field_the_proto_lacks_is_an_error() -> None:
    @dataclass(frozen=True)
    class Wrong:
        cards: tuple[Card, ...]
        colour: str

    with pytest.raises(wire.WireError, match="has no field 'colour'"):
        wire.fill(thief_pb2.ThiefSet(), Wrong((), "red"))


def test_event_message_marks_private_events() -> None:
    card = Card(7, Rank.ACE, Suit.SPADES)
    public = wire.event_message(1, Event("draw", "seat 1 draws a card", 1))
    private = wire.event_message(2, Event("draw", "you draw A♠", 1, (card,), frozenset({1})))
    assert not public.private and public.seat == 1 and not public.cards
    assert private.private and [c.id for c in private.cards] == [7]
