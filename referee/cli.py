"""The `referee` command line."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from referee.bots import BotLaunchError, BotSpec
from referee.games import all_rulesets, parse_ruleset
from referee.games.base import GameError, Ruleset
from referee.keys import derive, key_from_seed, new_key
from referee.log import (
    DecisionEntry,
    EventEntry,
    ForfeitEntry,
    GameEntry,
    LaunchErrorEntry,
    LogEntry,
    ResultEntry,
    to_json,
)
from referee.match import MatchResult, TimeControl
from referee.sandbox import MODES, Confinement, SandboxError, probe
from referee.session import Session
from referee.terminal import safe, safe_line, safe_markup


class CliError(click.ClickException):
    """A user error: one clear line, exit code 2. The message may quote a bot
    (its stderr, its name): it is made safe for the terminal."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(safe(message))


def warn_without_sandbox(confinement: Confinement) -> None:
    """Say once, clearly, what running without the sandbox means."""
    if confinement.mode != "off" and probe().sandbox_works:
        return
    reason = "it is turned off" if confinement.mode == "off" else probe().bwrap_error
    click.echo(
        f"warning: bots run without the sandbox ({reason}): a hostile bot could read other "
        "bots' memory and files, the results and the network. `referee doctor` tells more.",
        err=True,
    )


def resolve_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return parse_ruleset(ruleset_id)
    except GameError as error:
        raise CliError(str(error)) from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="thief-referee")
def main() -> None:
    """Referee and tournament runner for thief card games played by bots over gRPC."""


@main.command()
def games() -> None:
    """List the games, their seat ranges and options."""
    table = Table(title="Games")
    table.add_column("ruleset")
    table.add_column("game")
    table.add_column("seats", justify="right")
    table.add_column("options (defaults)")
    shown: set[str] = set()
    for ruleset in all_rulesets():
        low, high = ruleset.seats
        seats = f"{low}" if low == high else f"{low}-{high}"
        game = ruleset.game
        options = ", ".join(o.name if o.is_flag else f"{o.name}={o.default}" for o in game.options)
        first = game.name not in shown
        shown.add(game.name)
        table.add_row(
            ruleset.id, game.title if first else "", seats, (options or "-") if first else ""
        )
    table.caption = "A ruleset is game?option=value&flag; `referee rules GAME` explains options."
    Console().print(table)


@main.command()
@click.argument("game")
def rules(game: str) -> None:
    """Show a game's rules summary and the rulings the referee applies."""
    ruleset = resolve_ruleset(game)
    console = Console()
    g = ruleset.game
    low, high = ruleset.seats
    console.rule(f"[bold]{g.title}[/bold] ({low}-{high} players)")
    console.print(g.summary.strip())
    for option in g.options:
        console.print(
            f"[bold]option[/bold] {option.name} (default {option.default}): {option.help}"
        )
    console.rule("Rulings")
    console.print(g.rulings() or "(none)")


SEAT_MENTION = re.compile(r"\bseat (\d+)\b")


def _name(name: str) -> str:
    """A (bot-chosen) name as rich markup that shows it and nothing else."""
    return safe_markup(name, one_line=True)


def name_seats(text: str, names: list[str]) -> str:
    """'seat 1 steals from seat 2' -> 'alice[1] steals from bob[2]', as rich
    markup (print it with emoji=False) in which no text or name acts on the terminal."""

    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        if seat >= len(names):
            return match.group(0)
        return f"[cyan]{_name(names[seat])}[/cyan]\\[{seat}]"

    return SEAT_MENTION.sub(named, safe_markup(text))


def _event_line(entry: EventEntry, names: list[str], view: str) -> str | None:
    audience = entry.audience
    if view == "public" and audience != "public":
        return None
    if view not in ("public", "full") and not entry.visible_to(int(view)):
        return None
    text = name_seats(entry.text, names)
    if isinstance(audience, str):
        return text
    to = ", ".join(_name(names[s]) for s in audience) or "referee"
    return f"[dim]to {to}:[/dim] {text}"


def _printer(console: Console, view: str, log_file: IO[str] | None) -> Callable[[LogEntry], None]:
    names: list[str] = []

    def on_log(entry: LogEntry) -> None:
        if log_file is not None:
            log_file.write(json.dumps(to_json(entry), ensure_ascii=False, sort_keys=True) + "\n")
        if view == "none":
            return
        if isinstance(entry, GameEntry):
            names[:] = entry.seats
            title = f"{entry.ruleset}, seed {entry.seed}: " + " vs ".join(names)
            console.rule(Text(safe_line(title)))
        elif isinstance(entry, EventEntry):
            line = _event_line(entry, names, view)
            if line is not None:
                console.print(line, highlight=False, emoji=False)
        elif isinstance(entry, DecisionEntry) and entry.fault is not None:
            detail = f" ({_name(entry.detail)})" if entry.detail else ""
            console.print(
                f"[red]fault[/red] {_name(names[entry.seat])}: {_name(entry.fault)}{detail}, "
                f"played {_name(repr(entry.action))} instead",
                highlight=False,
                emoji=False,
            )

    return on_log


def results_table(result: MatchResult) -> Table:
    table = Table(title=f"{result.ruleset}, seed {result.seed}")
    table.add_column("place", justify="right")
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("score", justify="right")
    if result.result.hand_scores:
        table.add_column("hands")
    table.add_column("faults")
    table.add_column("time", justify="right")
    order = sorted(range(len(result.seats)), key=lambda s: (result.result.places[s], s))
    for seat in order:
        record = result.seats[seat]
        faults = ", ".join(f"{k} {v}" for k, v in record.fault_counts().items()) or "-"
        row: list[str | Text] = [
            str(result.result.places[seat]),
            str(seat),
            Text(safe_line(record.name)),
            f"{result.result.scores[seat]:g}",
        ]
        if result.result.hand_scores:
            row.append(" ".join(f"{h[seat]:g}" for h in result.result.hand_scores))
        row += [faults, f"{record.time_used:.2f}s"]
        table.add_row(*row)
    return table


@main.command()
@click.argument("game")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    required=True,
    metavar="CMD",
    help="A bot command line; give one --bot per seat, in seat order.",
)
@click.option(
    "--seed",
    type=int,
    default=None,
    metavar="N",
    help="Deal from seed N, reproducibly: anyone who knows N knows the deal (and the bots' "
    "seeds). Without it a fresh secret key deals the cards.",
)
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the full game record to FILE as JSON lines.",
)
@click.option(
    "--view",
    default="public",
    show_default=True,
    help="What to print while playing: public, full, none, or a seat number.",
)
@click.option(
    "--move-time",
    type=float,
    default=1.0,
    show_default=True,
    help="Seconds per decision before the time bank is drawn on.",
)
@click.option(
    "--time-bank",
    type=float,
    default=10.0,
    show_default=True,
    help="Seconds of time bank per seat and game.",
)
@click.option(
    "--startup-time",
    type=float,
    default=10.0,
    show_default=True,
    help="Seconds a bot has to connect after it is started.",
)
@click.option(
    "--sandbox",
    type=click.Choice(MODES),
    default="auto",
    show_default=True,
    help="Run bots in the bubblewrap sandbox: where it works (auto), always, or never.",
)
@click.option(
    "--ponder",
    is_flag=True,
    help="Let bots run between their decisions (by default a bot is frozen except "
    "while it decides, so none can take another's time).",
)
def play(
    game: str,
    bots: tuple[str, ...],
    seed: int | None,
    log_path: Path | None,
    view: str,
    move_time: float,
    time_bank: float,
    startup_time: float,
    sandbox: str,
    ponder: bool,
) -> None:
    """Play one game of GAME between bot processes, e.g.

    referee play thief --seed 7 --bot "python sample_bots/python/random_bot.py"
    --bot "node sample_bots/js/random_bot.js"
    """
    ruleset = resolve_ruleset(game)
    if view not in ("public", "full", "none") and not view.isdigit():
        raise CliError(f"--view must be public, full, none or a seat number, not {view!r}")
    try:
        ruleset.check_seats(len(bots))
    except GameError as error:
        raise CliError(f"{error}: give one --bot per seat") from None
    if seed is None:
        key = new_key()  # secret: neither the deal nor the bots' seeds can be guessed
        seed = derive(key, "deal")
    else:
        key = key_from_seed(seed)  # public: reproducible
    console = Console()
    time_control = TimeControl(move_time, time_bank, startup_time, ponder=ponder)
    confinement = Confinement(sandbox)
    try:
        confinement.use_sandbox()
    except SandboxError as error:
        raise CliError(str(error)) from None
    warn_without_sandbox(confinement)
    log_file = None
    if log_path is not None:
        try:  # the record shows every hidden card: readable by its owner only
            fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.fchmod(fd, 0o600)  # also when the file was there before
        except OSError as error:
            raise CliError(f"cannot write --log {log_path}: {error.strerror}") from None
        log_file = os.fdopen(fd, "w", encoding="utf-8")
    try:
        result = asyncio.run(
            _play(
                ruleset,
                [BotSpec(b) for b in bots],
                seed,
                key,
                time_control,
                confinement,
                _printer(console, view, log_file),
                [log_path] if log_path is not None else [],
            )
        )
    except BotLaunchError as error:
        raise CliError(safe_line(str(error))) from None  # it may quote the bot's stderr
    finally:
        if log_file is not None:
            log_file.close()
    console.print(results_table(result))


async def _play(
    ruleset: Ruleset,
    specs: list[BotSpec],
    seed: int,
    key: bytes,
    time_control: TimeControl,
    confinement: Confinement,
    on_log: Callable[[LogEntry], None],
    hidden: list[Path],
) -> MatchResult:
    async with Session(
        specs, time_control=time_control, confinement=confinement, hidden=hidden
    ) as session:
        return await session.play(ruleset, seed, on_log=on_log, key=key)


@main.command("run")
@click.argument("tournament_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--quiet", is_flag=True, help="Plain progress lines instead of the live display.")
@click.option(
    "--workers",
    type=int,
    default=None,
    help="Worker processes (default: the file's parallel, else all cores).",
)
def run_command(tournament_file: Path, quiet: bool, workers: int | None) -> None:
    """Run (or resume) the tournament described in TOURNAMENT_FILE."""
    from referee.report.progress import LiveProgress, QuietProgress
    from referee.report.standings import event_standings, render
    from referee.store import Store, StoreError
    from referee.tournament.config import ConfigError, load
    from referee.tournament.runner import Plan, TournamentError, run

    if workers is not None and workers < 1:
        raise CliError("--workers must be at least 1")
    console = Console()
    try:
        config = load(tournament_file)
    except ConfigError as error:
        raise CliError(f"{tournament_file}: {error}") from None

    def announce(plan: Plan) -> None:
        todo = (
            f"{len(plan.todo)} to play on {plan.workers} worker(s)"
            if plan.todo
            else "nothing to play"
        )
        console.print(
            f"[bold]{config.name}[/bold]: {plan.total} games in {len(config.events)} event(s); "
            f"{plan.done} already played, {todo}; results in {config.database}",
            highlight=False,
        )

    try:
        config.confinement.use_sandbox()
    except SandboxError as error:
        raise CliError(f"{tournament_file}: {error}") from None
    warn_without_sandbox(config.confinement)
    store = None
    try:
        store = Store(config.database)
        progress = QuietProgress(console) if quiet else LiveProgress(console)
        run(config, store, progress, workers, on_plan=announce)
        console.print(render(event_standings(store)))
    except (StoreError, TournamentError) as error:
        raise CliError(str(error)) from None
    finally:
        if store is not None:
            store.close()


@main.command()
@click.argument("database", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the standings as CSV.")
def standings(database: Path, as_json: bool, as_csv: bool) -> None:
    """Show the standings of a tournament's results DATABASE."""
    from referee.report.standings import event_standings, render, to_csv, to_json
    from referee.store import Store, StoreError

    if as_json and as_csv:
        raise CliError("choose one of --json and --csv")
    try:
        store = Store.open_existing(database)
        events = event_standings(store)
    except StoreError as error:
        raise CliError(str(error)) from None
    if as_json:
        click.echo(to_json(events))
    elif as_csv:
        click.echo(to_csv(events), nl=False)
    else:
        Console().print(render(events))


@main.command()
@click.argument("database", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("game", required=False)
@click.option(
    "--view",
    default="full",
    show_default=True,
    help="What to show: public, full, or a seat number (what that seat saw).",
)
def replay(database: Path, game: str | None, view: str) -> None:
    """Replay a stored GAME (a key from the list printed without one)."""
    from referee.store import Store, StoreError

    if view not in ("public", "full") and not view.isdigit():
        raise CliError(f"--view must be public, full or a seat number, not {view!r}")
    try:
        store = Store.open_existing(database)
        if game is None:
            for key in store.game_keys():
                click.echo(safe_line(key))
            return
        log = store.log(game)
        output, protections = store.game_extras(game)
    except StoreError as error:
        raise CliError(str(error)) from None
    console = Console()
    show = _printer(console, view, None)
    for entry in log:
        show(entry)
        if isinstance(entry, LaunchErrorEntry):
            message = safe_markup(entry.message, one_line=True)
            console.print(
                f"[red]bot could not start[/red]: {message}", highlight=False, emoji=False
            )
        if isinstance(entry, ForfeitEntry):
            console.print(f"[red]seat {entry.seat} forfeits[/red] after {entry.faults} faults")
        if isinstance(entry, ResultEntry):
            scores, places = list(entry.scores), list(entry.places)
            console.print(f"scores {scores} places {places}", highlight=False)
    if view == "full":
        for label, text in output.items():
            console.rule(Text(safe_line(f"output of {label}")))
            console.print(safe(text), markup=False, highlight=False, emoji=False)
        off = [name for name, active in protections.items() if not active]
        if protections:
            console.print(f"protections off in this game: {', '.join(off) or 'none'}")


@main.command()
@click.option("--sandbox", type=click.Choice(MODES), default="auto", show_default=True)
def doctor(sandbox: str) -> None:
    """Report which protections against hostile bots are active here, and why not."""
    confinement = Confinement(sandbox)
    table = Table(title="protections for bot processes")
    table.add_column("protection")
    table.add_column("active")
    table.add_column("how, or why not")
    for item in confinement.protections():
        table.add_row(
            item.name, "[green]yes[/green]" if item.active else "[red]no[/red]", item.detail
        )
    console = Console()
    console.print(table)
    p = probe()
    console.print(
        f"bubblewrap: {p.bwrap or 'not found'}; prlimit: {p.prlimit or 'not found'}; "
        f"setpriv: {p.setpriv or 'not found'}; running as root: {p.root}; "
        f"cgroups: {p.cgroups.describe() if p.cgroups else p.cgroups_error}",
        highlight=False,
    )
    from referee.doctor import observe

    seen = observe(confinement)
    observed = Table(title="observed by a probe process confined as a bot")
    observed.add_column("what")
    observed.add_column("seen from inside")
    for name, value in seen.lines:
        observed.add_row(name, value)
    if seen.error:
        observed.add_row("[red]probe failed[/red]", safe_markup(seen.error))
    console.print(observed)


@main.command()
@click.option("--game", "game", default="thief", show_default=True, help="Ruleset to measure.")
@click.option("--seats", type=int, default=3, show_default=True)
@click.option(
    "--seconds", type=float, default=5.0, show_default=True, help="Length of each timed part."
)
@click.option(
    "--echo-count",
    type=int,
    default=2000,
    show_default=True,
    help="Round trips of the bare gRPC echo.",
)
def bench(game: str, seats: int, seconds: float, echo_count: int) -> None:
    """Measure engine playouts, a bare gRPC echo and the referee's round trip."""
    from referee.bench import run_bench

    ruleset = resolve_ruleset(game)
    try:
        ruleset.check_seats(seats)
    except GameError as error:
        raise CliError(str(error)) from None
    run_bench(ruleset, seats, seconds, echo_count, lambda line: click.echo(line))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
