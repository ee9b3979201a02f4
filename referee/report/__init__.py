"""Renderables and exports for people: standings tables, game replays."""
