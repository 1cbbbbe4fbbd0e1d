"""A finished or failed match as text, read back from its log folder (``pokerbots show``).

Prints the summary (game, bots, result, bankrolls), the error paragraph of a failed match
with the paths of the failing seat's transcript and stderr, the hand history (the last hands
by default) and the bankrolls over time as a text chart, so it works in any terminal and in
CI logs. LOGDIR may also be a folder of match folders (such as ``logs``): the newest is shown
(a tournament's folder is the tournament's to show: see ``pokerbots.server.cli.show``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from pokerbots.server import games
from pokerbots.server.errors import ServerFault, stderr_section
from pokerbots.server.logs.folder import MatchFolder
from pokerbots.server.logs.history import HandHistory

#: Marks of the seats in the chart (seat 0 is "0"...).
MARKS = "0123456789"


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
        hands = f"{played} hand{'' if played == 1 else 's'}"
        when = (f" in hand {error['hand']} ({hands} completed)"
                if result == "failed" and error.get("hand") is not None
                else f" after {hands}")
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
    folder = MatchFolder(path)
    parts.append(f"Transcript of seat {seat}: {folder.transcript_path(seat)}"
                 f"  (replay: ./mybot < {folder.transcript_path(seat)})")
    excerpt = stderr_section(folder.stderr_excerpt(seat))
    if excerpt:
        parts.append(excerpt)
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
    """The match ``path`` names (itself, or the newest match in it) as text: summary, error,
    hand history and chart. LogFolderError when ``path`` holds no match."""
    folder = MatchFolder.find(path)
    path = folder.path
    summary = folder.summary()
    timing = folder.timing()
    hands = folder.hands()
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

