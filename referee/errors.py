"""The root of the referee's exceptions: `except RefereeError` catches every
error the referee raises on purpose, each of which says what is wrong and
what to do. Each layer keeps its own subclass (GameError, ConfigError, ...)."""

from __future__ import annotations


class RefereeError(Exception):
    """An error of the referee's own making, with a message meant for people."""
