"""The starter kits: a complete, small bot in each language, written out by ``pokerbots new``.

Each kit is a folder beside this file (``python/``, ``c/``, ``cpp/``, ``rust/``, ``java/``,
``javascript/``) holding a bot that plays every game at any table size with a simple
strategy, a client library of its own in that language (standard library only), a README and,
where the language needs one, an executable ``build`` script that uses the machine's compiler
and downloads nothing. :func:`write` copies a kit into a new folder as a submission takes it:
an executable ``bot`` (or ``bot.py``) once built, with this package's PROTOCOL.md beside it.

The kits are data, not modules of this package: nothing here imports them, and they import
nothing of pokerbots (a bot runs anywhere, sandboxed or not, with or without pokerbots). What
a client must know of each game is written into it from the protocol's table of games
(:mod:`pokerbots.protocol.games`) as the kit is copied, so a kit names no game itself.

Internal: ``pokerbots new`` is how a kit is used.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from pokerbots.protocol import games

__all__ = ["KITS", "Kit", "KitError", "find", "write"]

HERE = Path(__file__).resolve().parent
PROTOCOL = HERE.parent / "PROTOCOL.md"
#: The word in a kit's README that :func:`write` replaces with the new folder's name.
NAME_MARK = "__NAME__"
#: The mark of the line (a comment) of a kit's client that :func:`write` replaces with its
#: table of games (one row per game: the lines that end its messages), and the word it
#: replaces with the game played when ``POKERBOTS_GAME`` names none.
GAMES_MARK = "__GAME_LINES__"
DEFAULT_GAME_MARK = "__DEFAULT_GAME__"


class KitError(ValueError):
    """A kit that cannot be written: an unknown language, or a folder already in use."""


@dataclass(frozen=True)
class Kit:
    """One language's kit."""

    #: The name ``--lang`` takes.
    name: str
    #: The language as a person names it, with what builds or runs it.
    title: str
    #: The file a submission starts: ``bot`` or ``bot.py``.
    entry: str
    #: The program the kit needs on the machine (its compiler, or its interpreter).
    tool: str
    #: Whether the folder must be built (``./build``) before the bot runs.
    built: bool
    #: What ``./build`` makes (left out when the kit is copied).
    outputs: tuple[str, ...] = ()
    #: Other names ``--lang`` takes for it.
    aliases: tuple[str, ...] = ()
    #: One row of its client's table of games: ``{name}``, then the lines that end
    #: ``init_round``, ``play`` and ``end_hand`` (``{round}``, ``{play}``, ``{end}``), each a
    #: string literal, or ``absent`` where ``play`` ends with its Action lines; rows are joined
    #: by ``joiner``.
    row: str = ""
    absent: str = '""'
    joiner: str = "\n"

    @property
    def folder(self) -> Path:
        return HERE / self.name

    def files(self) -> list[Path]:
        """The kit's files, relative to its folder, without build outputs or hidden files."""
        found = []
        for path in sorted(self.folder.rglob("*")):
            parts = path.relative_to(self.folder).parts
            if (path.is_file() and parts[0] not in self.outputs
                    and not any(p.startswith(".") or p == "__pycache__" for p in parts)):
                found.append(path.relative_to(self.folder))
        return found


KITS: tuple[Kit, ...] = (
    Kit("python", "Python 3, no build", "bot.py", "python3", False, aliases=("py",),
        row="    {name}: ({round}, {play}, {end}),", absent="None"),
    Kit("c", "C99, built with cc", "bot", "cc", True, outputs=("bot",),
        row="    {{{name}, {round}, {play}, {end}}},", absent="NULL"),
    Kit("cpp", "C++17, built with c++", "bot", "c++", True, outputs=("bot",), aliases=("c++",),
        row="            {{{name}, {{{round}, {play}, {end}}}}},"),
    Kit("rust", "Rust, built with rustc (no crates)", "bot", "rustc", True,
        outputs=("bot", "target", "Cargo.lock"),
        row="        {name} => [{round}, {play}, {end}],"),
    Kit("java", "Java 11 or later, built with javac", "bot", "javac", True,
        outputs=("classes",),
        row="        Map.entry({name}, new String[] {{{round}, {play}, {end}}})", joiner=",\n"),
    Kit("javascript", "JavaScript on Node.js, no build", "bot", "node", False,
        aliases=("node", "js"), row="  {name}: [{round}, {play}, {end}],", absent="null"),
)


def find(language: str) -> Kit:
    """The kit for ``language`` (a name or an alias); KitError listing the languages."""
    for kit in KITS:
        if language == kit.name or language in kit.aliases:
            return kit
    raise KitError(f"no kit for {language!r}; the languages are"
                   f" {', '.join(kit.name for kit in KITS)} (pokerbots new --list)")


def game_lines(kit: Kit) -> str:
    """The rows of ``kit``'s table of games, one per game of the protocol's table."""
    rows = []
    for name in games.names():
        first, play, end = games.get(name).shape.last_lines()
        rows.append(kit.row.format(name=f'"{name}"', round=f'"{first}"', end=f'"{end}"',
                                   play=kit.absent if play is None else f'"{play}"'))
    return kit.joiner.join(rows)


def _filled(text: str, kit: Kit, name: str) -> str:
    """A kit file's text with its marks replaced (:data:`NAME_MARK`, :data:`GAMES_MARK`,
    :data:`DEFAULT_GAME_MARK`)."""
    lines = [game_lines(kit) if GAMES_MARK in line else line
             for line in text.split("\n")]
    return ("\n".join(lines).replace(NAME_MARK, name)
            .replace(DEFAULT_GAME_MARK, games.DEFAULT))


def write(kit: Kit, folder: Path) -> list[Path]:
    """Write ``kit`` into ``folder`` (made if missing; an empty folder will do) and return
    the files written, relative to it. KitError when ``folder`` is a file or a folder that
    holds anything: nothing of it is changed."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise KitError(f"{folder} is a file: give the name of a new folder")
    if folder.is_dir() and any(folder.iterdir()):
        raise KitError(f"{folder} already exists and is not empty: give the name of a new"
                       " folder (nothing was written)")
    folder.mkdir(parents=True, exist_ok=True)
    name = folder.resolve().name
    written = []
    for relative in kit.files():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        source = kit.folder / relative
        data = source.read_bytes()
        if any(mark.encode() in data for mark in (NAME_MARK, GAMES_MARK, DEFAULT_GAME_MARK)):
            target.write_text(_filled(data.decode("utf-8"), kit, name), encoding="utf-8")
        else:
            target.write_bytes(data)
        # Wheels need not keep the executable bit: set it here, on what runs.
        executable = relative.name in (kit.entry, "build")
        target.chmod(0o755 if executable else 0o644)
        written.append(relative)
    shutil.copyfile(PROTOCOL, folder / PROTOCOL.name)
    (folder / PROTOCOL.name).chmod(0o644)
    written.append(Path(PROTOCOL.name))
    return written
