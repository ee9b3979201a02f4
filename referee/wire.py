"""Translate the games' dataclasses into the wire messages of proto/referee/v1.

Games know nothing of protobuf. Their observation and action dataclasses
mirror the proto messages field by field, so one generic converter serves
every game: a dataclass field fills the message field of the same name, a
Python enum member NAME fills the proto enum value `<ENUM_NAME>_NAME`, a
sequence fills a repeated field, None leaves a field unset.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from google.protobuf.descriptor import EnumDescriptor
from google.protobuf.message import Message

from referee.cards import Card
from referee.errors import RefereeError
from referee.games.base import Action, Event, Game
from referee.v1 import cards_pb2
from referee.v1 import referee_pb2 as pb


class WireError(RefereeError):
    """A game's dataclass does not fit its proto message (a bug in the game)."""


def _enum_prefix(descriptor: EnumDescriptor) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", descriptor.name).upper() + "_"


@functools.cache
def _enum_number(descriptor: EnumDescriptor, value: enum.Enum) -> int:
    name = _enum_prefix(descriptor) + value.name
    try:
        return int(descriptor.values_by_name[name].number)
    except KeyError:
        raise WireError(f"proto enum {descriptor.full_name} has no value {name}") from None


Convert = Callable[[Any], Any]


def _scalar_converter(field: Any) -> Convert:
    """How to turn a Python value into the value of a scalar or enum field."""
    enum_type = field.enum_type
    if enum_type is None:
        return lambda value: value

    def to_number(value: Any) -> int:
        if isinstance(value, enum.Enum):
            return _enum_number(enum_type, value)
        return int(value)

    return to_number


@functools.cache
def _plan(cls: type, descriptor: Any) -> tuple[tuple[str, bool, Convert], ...]:
    """For each field of the dataclass `cls`: its name, whether it is repeated,
    and how to convert its value (computed once per class and message)."""
    steps = []
    for dc_field in dataclasses.fields(cls):
        field = descriptor.fields_by_name.get(dc_field.name)
        if field is None:
            raise WireError(f"{descriptor.full_name} has no field {dc_field.name!r}")
        if field.message_type is not None:
            convert: Convert = functools.partial(_kwargs, descriptor=field.message_type)
        else:
            convert = _scalar_converter(field)
        steps.append((dc_field.name, bool(field.is_repeated), convert))
    return tuple(steps)


def _kwargs(value: Any, descriptor: Any) -> Any:
    """The dataclass `value` as constructor arguments of the message `descriptor`
    (or, for a card, the ready message)."""
    if isinstance(value, Card):
        return _card_message(value)
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        raise WireError(f"cannot put {type(value).__name__} into {descriptor.full_name}")
    result: dict[str, Any] = {}
    for name, repeated, convert in _plan(type(value), descriptor):
        item = getattr(value, name)
        if item is None:
            continue
        result[name] = [convert(x) for x in item] if repeated else convert(item)
    return result


@functools.cache
def _card_message(card: Card) -> cards_pb2.Card:
    # Cards are immutable and few: convert each once; constructors copy it.
    # Rank and Suit values are the proto enum numbers (tests/test_wire.py checks).
    rank = cards_pb2.Rank.ValueType(card.rank.value)
    suit = cards_pb2.Suit.ValueType(card.suit.value if card.suit else 0)
    return cards_pb2.Card(id=card.id, rank=rank, suit=suit)


def fill(message: Message, value: Any) -> Message:
    """Fill `message` from the dataclass `value`, recursively; returns `message`."""
    converted = _kwargs(value, message.DESCRIPTOR)
    message.MergeFrom(converted if isinstance(converted, Message) else type(message)(**converted))
    return message


def observation_message(game: Game, observation: Any) -> pb.Observation:
    inner = pb.Observation.DESCRIPTOR.fields_by_name[game.wire_name].message_type
    arguments: dict[str, Any] = {game.wire_name: _kwargs(observation, inner)}
    return pb.Observation(**arguments)


def action_message(game: Game, action: Action) -> pb.Action:
    inner = pb.Action.DESCRIPTOR.fields_by_name[game.wire_name].message_type
    arguments: dict[str, Any] = {game.wire_name: _kwargs(action, inner)}
    return pb.Action(label=action.label, **arguments)


def action_messages(game: Game, actions: Sequence[Action]) -> list[pb.Action]:
    return [action_message(game, a) for a in actions]


def event_message(seq: int, event: Event) -> pb.Event:
    message = pb.Event(seq=seq, kind=event.kind, text=event.text, private=not event.is_public)
    if event.seat is not None:
        message.seat = event.seat
    message.cards.extend(_card_message(c) for c in event.cards)
    return message
