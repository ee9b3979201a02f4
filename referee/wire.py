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
import re
from collections.abc import Sequence
from typing import Any

from google.protobuf.descriptor import EnumDescriptor
from google.protobuf.message import Message

from referee.games.base import Action, Event, Game
from referee.v1 import referee_pb2 as pb


class WireError(Exception):
    """A game's dataclass does not fit its proto message (a bug in the game)."""


def _enum_prefix(descriptor: EnumDescriptor) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", descriptor.name).upper() + "_"


def _enum_number(descriptor: EnumDescriptor, value: enum.Enum) -> int:
    name = _enum_prefix(descriptor) + value.name
    try:
        return int(descriptor.values_by_name[name].number)
    except KeyError:
        raise WireError(f"proto enum {descriptor.full_name} has no value {name}") from None


def _scalar(field: Any, value: Any) -> Any:
    """A Python value for a scalar or enum field (`field` is a FieldDescriptor)."""
    if field.enum_type is not None:
        if isinstance(value, enum.Enum):
            return _enum_number(field.enum_type, value)
        return int(value)
    return value


def fill(message: Message, value: Any) -> Message:
    """Fill `message` from the dataclass `value`, recursively; returns `message`."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        raise WireError(f"cannot put {type(value).__name__} into {message.DESCRIPTOR.full_name}")
    fields = message.DESCRIPTOR.fields_by_name
    for dc_field in dataclasses.fields(value):
        item = getattr(value, dc_field.name)
        field = fields.get(dc_field.name)
        if field is None:
            raise WireError(f"{message.DESCRIPTOR.full_name} has no field {dc_field.name!r}")
        if item is None:
            continue
        if field.is_repeated:
            target = getattr(message, field.name)
            for element in item:
                if field.message_type is not None:
                    fill(target.add(), element)
                else:
                    target.append(_scalar(field, element))
        elif field.message_type is not None:
            fill(getattr(message, field.name), item)
        else:
            setattr(message, field.name, _scalar(field, item))
    return message


def observation_message(game: Game, observation: Any) -> pb.Observation:
    message = pb.Observation()
    fill(getattr(message, game.wire_name), observation)
    return message


def action_message(game: Game, action: Action) -> pb.Action:
    message = pb.Action(label=action.label)
    fill(getattr(message, game.wire_name), action)
    return message


def action_messages(game: Game, actions: Sequence[Action]) -> list[pb.Action]:
    return [action_message(game, a) for a in actions]


def event_message(seq: int, event: Event) -> pb.Event:
    message = pb.Event(seq=seq, kind=event.kind, text=event.text, private=not event.is_public)
    if event.seat is not None:
        message.seat = event.seat
    for card in event.cards:
        fill(message.cards.add(), card)
    return message
