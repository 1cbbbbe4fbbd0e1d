"""``pokerbots show LOGDIR``: a finished or failed match, read back from its log folder.

Prints the summary (game, bots, result, bankrolls), the error paragraph of a failed match
with the paths of the failing seat's transcript and stderr, the hand history (the last hands
by default) and the bankrolls over time as a text chart, so it works in any terminal and in
CI logs. LOGDIR may also be a folder of match folders (such as ``logs``): the newest is shown,
or a tournament's folder: its standings, then its matches.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click

from pokerbots.server import games
from pokerbots.server.match.errors import ServerFault
from pokerbots.server.match.history import HandHistory
from pokerbots.server.seats.runner import stderr_tail

#: Marks of the seats in the chart (seat 0 is "0"...).
MARKS = "0123456789"


class ShowError(click.ClickException):
    exit_code = 2


def find_match(path: Path) -> Path:
    """The match folder ``path`` names: itself, or the newest match folder inside it."""
    if not path.is_dir():
        raise ShowError(f"{path} is not a folder (give a match's log folder, or logs/)")
    if is_match(path):
        return path
    matches = [p for p in path.iterdir() if p.is_dir() and is_match(p)]
    if not matches:
        raise ShowError(f"{path} holds no match logs (no summary.json or hands.jsonl)")
    return max(matches, key=lambda p: (p.stat().st_mtime, p.name))


def is_match(path: Path) -> bool:
    return (path / "summary.json").is_file() or (path / "hands.jsonl").is_file()


def read_hands(path: Path) -> list[dict]:
    """Every complete hand record (a line cut short by a crash is left out)."""
    records = []
    try:
        text = (path / "hands.jsonl").read_text(encoding="utf-8")
    except FileNotFoundError:
        return records
    for line in text.splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return records


def _read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def summary_text(path: Path, summary: dict | None, timing: dict | None,
                 hands: list[dict]) -> str:
    lines = [f"Match: {path}"]
    if summary is None:
        lines.append("No summary.json: the server did not finish writing this match"
                     " (killed?); what follows is from the hands that were logged.")
        n = len(hands[0]["cards"]) if hands else 0
        bots = [f"seat {s}" for s in range(n)]
        bankrolls = hands[-1]["bankrolls"] if hands else [0] * n
        played = len(hands)
    else:
        bots = summary["bots"]
        bankrolls = summary["bankrolls"]
        played = summary["hands_played"]
        options = summary.get("game_options") or {}
        extra = "".join(f", {k}={v}" for k, v in options.items())
        seed = summary.get("seed")
        lines.append(f"Game: {summary['game']}{extra}, {len(bots)} players"
                     f", seed {seed if seed is not None else 'random'}"
                     f", first button seat {summary.get('first_button')}")
        result = summary["result"]
        how = {"completed": "completed", "failed": "FAILED", "interrupted": "interrupted",
               "server-error": "the SERVER could not go on", "left": "a seat left the table"}
        error = summary.get("error") or {}
        when = (f" in hand {error['hand']} ({played} hands completed)"
                if result == "failed" and error.get("hand") is not None
                else f" after {played} hands")
        lines.append(f"Result: {how.get(result, result)}{when}"
                     + (f" in {timing['seconds']:.2f} s" if timing and timing.get("seconds")
                        else ""))
    seconds = (timing or {}).get("bot_seconds") or []
    width = max([len(b) for b in bots] + [3])
    lines.append("")
    lines.append(f"  seat  {'bot':<{width}}  bankroll  per hand"
                 + ("  bot time" if seconds else ""))
    for s, (bot, money) in enumerate(zip(bots, bankrolls)):
        row = f"  {s:>4}  {bot:<{width}}  {money:>+8d}  {money / max(played, 1):>+8.3f}"
        if seconds:
            row += f"  {seconds[s]:>7.2f} s"
        lines.append(row)
    return "\n".join(lines)


def error_text(path: Path, error: dict) -> str:
    seat = error["seat"]
    where = "before the first hand" if error.get("hand") is None else f"in hand {error['hand']}"
    who = f"seat {seat}" + (f" ({error['bot']})" if error.get("bot") else "")
    parts = [f"Bot at {who} failed {where}: {error['reason']}."]
    if error.get("sent") is not None:
        sent = "\n".join("    " + t for t in error["sent"].rstrip("\n").split("\n"))
        parts.append(f"The server sent:\n{sent}")
        received = error.get("received")
        if received is None:
            parts.append("The bot sent no reply.")
        else:
            length = error.get("received_length") or len(received)
            more = f" (the first {len(received)} of {length} characters)" \
                if length > len(received) \
                else ""
            parts.append(f"The bot replied: {received!r}{more}")
            if error.get("hint"):
                parts.append(f"Hint: {error['hint']}.")
    if error.get("legal"):
        parts.append(f"Legal replies were: {error['legal']}.")
    parts.append(f"Transcript of seat {seat}: {path / f'seat{seat}.in'}"
                 f"  (replay: ./mybot < {path / f'seat{seat}.in'})")
    tail = stderr_tail(path / f"seat{seat}.stderr")
    if tail:
        parts.append("Last lines of its stderr:\n"
                     + "\n".join("    " + t for t in tail.splitlines()))
    return "\n".join(parts)


def _shape(summary: dict | None, players: int) -> tuple[tuple, int]:
    """The streets and the ante of the match's game, from the registry (none if unknown)."""
    try:
        game = games.make_game(summary["game"], players, **(summary.get("game_options") or {}))
    except (TypeError, KeyError, ValueError):
        return (), 0
    return game.structure.streets, game.structure.ante


def chart(series: list[list[int]], *, width: int = 60, height: int = 12,
          labels: list[str] | None = None) -> str:
    """A text chart of each seat's bankroll over the hands (seat s drawn with its digit).

    ``series[s]`` holds seat s's bankroll before the first hand (0) and after every hand.
    """
    if not series or len(series[0]) < 2:
        return "(no hand was played: nothing to chart)"
    points = len(series[0])
    width = max(10, min(width, points))
    low = min(0, *(min(v) for v in series))
    high = max(0, *(max(v) for v in series))
    if high == low:
        high = low + 1
    grid = [[" "] * width for _ in range(height)]

    def row(value: float) -> int:
        return round((high - value) / (high - low) * (height - 1))

    zero = row(0)
    for c in range(width):
        grid[zero][c] = "-"
    for s, values in enumerate(series):
        mark = MARKS[s % len(MARKS)]
        for c in range(width):
            # The bankroll at the end of the stretch of hands this column covers.
            i = round(c * (points - 1) / (width - 1)) if width > 1 else points - 1
            grid[row(values[i])][c] = mark
    label_width = max(len(f"{high:+d}"), len(f"{low:+d}"), 2)
    out = []
    for r, cells in enumerate(grid):
        if r == 0:
            label = f"{high:+d}"
        elif r == height - 1:
            label = f"{low:+d}"
        elif r == zero:
            label = "0"
        else:
            label = ""
        out.append(f"{label:>{label_width}} |{''.join(cells).rstrip()}")
    hands = points - 1
    axis = f"{'':>{label_width}} +{'-' * width}"
    ticks = f"{'':>{label_width}}  0{'hands ' + str(hands):>{width - 1}}"
    out += [axis, ticks]
    if labels:
        out += [f"  {MARKS[s % len(MARKS)]}  seat {s}: {label}" for s, label in enumerate(labels)]
    return "\n".join(out)


def show_text(path: Path, *, last: int | None = 10, hands_shown: bool = True,
              chart_shown: bool = True, width: int | None = None) -> str:
    if (path / "results.sqlite").is_file():  # a tournament: its standings, then its matches
        from pokerbots.server.cli.tournament import show_text as tournament_text

        return tournament_text(path)
    path = find_match(path)
    summary = _read_json(path / "summary.json")
    timing = _read_json(path / "timing.json")
    hands = read_hands(path)
    blocks = [summary_text(path, summary, timing, hands)]
    error = (summary or {}).get("error")
    if error:
        blocks.append(error_text(path, error))
    server = (summary or {}).get("server_error")
    if server:
        blocks.append(ServerFault(**server).paragraph())
    left = (summary or {}).get("left")
    if left:
        where = "before the first hand" if left.get("hand") is None else f"in hand {left['hand']}"
        blocks.append(f"Seat {left['seat']} ({left['bot']}) left the table {where}.")
    n = len(hands[0]["cards"]) if hands else 0
    labels = (summary or {}).get("bots") or [f"seat {s}" for s in range(n)]
    if hands_shown and hands:
        shown = hands if last is None else hands[-last:]
        head = "Hand history" + ("" if len(shown) == len(hands)
                                 else f" (last {len(shown)} of {len(hands)} hands;"
                                      " --all for every hand)")
        streets, ante = _shape(summary, n)
        history = HandHistory(labels, streets, ante)
        blocks.append(head + ":\n\n"
                      + "".join([history.render(h) for h in shown]).rstrip("\n"))
    elif hands_shown:
        blocks.append("No hand was completed.")
    if chart_shown and hands:
        series = [[0] + [h["bankrolls"][s] for h in hands] for s in range(n)]
        columns = width or shutil.get_terminal_size((80, 24)).columns
        blocks.append("Bankrolls over the hands:\n\n"
                      + chart(series, width=max(20, min(100, columns - 12)), labels=labels))
    return "\n\n".join(blocks) + "\n"


def command() -> click.Command:
    """The ``show`` command. Built on each call: click takes the parameters off the function,
    and under ``python -m pokerbots.server.cli.main`` the cli module registers its commands twice."""
    options = [
        click.argument("logdir", type=click.Path(path_type=Path), default=Path("logs")),
        click.option("--last", "-n", type=click.IntRange(min=0), default=10, show_default=True,
                     help="Show this many of the last hands."),
        click.option("--all", "all_hands", is_flag=True, help="Show every hand."),
        click.option("--no-hands", is_flag=True, help="Leave out the hand history."),
        click.option("--no-chart", is_flag=True, help="Leave out the bankroll chart."),
    ]
    func = show
    for option in reversed(options):
        func = option(func)
    return click.command(name="show",
                         short_help="Summary, hand history and bankroll chart of a match.")(func)


def show(logdir, last, all_hands, no_hands, no_chart):
    """Print a match's summary, hand history and bankrolls over time, from its logs.

    LOGDIR is a match's log folder, or a folder of them (default: logs), whose newest match
    is shown. Works for failed and interrupted matches too: the error is printed with the
    path of the failing seat's transcript. A tournament's folder shows its standings, then
    its matches.
    """
    if not logdir.exists():
        raise ShowError(f"{logdir} does not exist")
    click.echo(show_text(logdir, last=None if all_hands else last, hands_shown=not no_hands,
                         chart_shown=not no_chart), nl=False)
