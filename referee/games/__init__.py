"""The registry of games: ruleset ids like `thief` or `tjuv?rules=1988` resolve here."""

from __future__ import annotations

from referee.games.base import Game, Ruleset, UnknownRuleset
from referee.games.four_card_thief import FourCardThief
from referee.games.gharat import Gharat
from referee.games.indian_chief import IndianChief
from referee.games.life import Life
from referee.games.thief import Thief
from referee.games.thieves import Thieves
from referee.games.tjuv import Tjuv

GAMES: dict[str, Game] = {
    g.name: g
    for g in (Thief(), FourCardThief(), Gharat(), IndianChief(), Tjuv(), Thieves(), Life())
}


def parse_ruleset(ruleset_id: str) -> Ruleset:
    """Resolve `name?opt=value&flag` to a Ruleset; unknown names or options are errors."""
    name, _, query = ruleset_id.strip().partition("?")
    game = GAMES.get(name.lower())
    if game is None:
        known = ", ".join(sorted(GAMES))
        raise UnknownRuleset(f"unknown game {name!r}; known games: {known}")
    specs = {o.name: o for o in game.options}
    options: dict[str, str] = {}
    for part in filter(None, query.split("&")):
        key, has_value, value = part.partition("=")
        spec = specs.get(key)
        if spec is None:
            allowed = ", ".join(sorted(specs)) or "none"
            raise UnknownRuleset(f"{game.name} has no option {key!r} (its options: {allowed})")
        if not has_value:
            if not spec.is_flag:
                raise UnknownRuleset(f"option {key} of {game.name} needs a value: {key}=...")
            value = "true"
        options[key] = spec.parse(value)
    return Ruleset(game, options)


def all_rulesets() -> list[Ruleset]:
    """Each game at its default options, then with each other value of each option."""
    found = []
    for game in GAMES.values():
        found.append(parse_ruleset(game.name))
        for option in game.options:
            for value in option.choices:
                if value != option.default:
                    found.append(parse_ruleset(f"{game.name}?{option.name}={value}"))
    return found


__all__ = ["GAMES", "Ruleset", "UnknownRuleset", "all_rulesets", "parse_ruleset"]
