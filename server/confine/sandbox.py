"""How every bot is confined: its own PID namespace by default, the full sandbox with ``--sandbox``.

**By default** every bot runs under bubblewrap (``bwrap``) with ``--unshare-pid`` over the
normal file-system view: it sees and can signal only the processes it started (its ``/proc``
is its own), never the server, the other bots or their children, and when it exits or is
killed the kernel ends everything in its namespace. The process count (``--max-procs``) is
limited by the kernel: as root with a ``pids`` cgroup per bot (:mod:`.cgroup`), otherwise with
``RLIMIT_NPROC`` set inside the bot's own user namespace, where it counts only the bot's own
processes (``prlimit``, from util-linux). Where bubblewrap is missing or cannot make a
namespace, :func:`isolation_problem` says why once per run and bots run as before, in a
process group of their own.

**With --sandbox** the bot sees nothing but itself (an allow-list, never the host's whole
file system; docs/untrusted-bots.md gives the threat model): read-only, the system's runtime
folders (``/usr``, ``/bin``, ``/sbin``, ``/lib*``; links on a merged-/usr system stay links),
a minimal ``/etc`` (:data:`ETC`), the server's Python (its prefixes and the real path of its
executable: a ``.py`` bot runs under it) with the ``pokerbots`` packages, and a copy of the
bot's own program folder (:func:`program_folder`, :class:`Copies`) at ``/bot``, its working
folder; writable, its own scratch folder at ``/tmp`` (``$HOME`` and ``$TMPDIR``): a tmpfs of
``--max-scratch`` MiB made for it, gone with it, where a write beyond the limit fails with
``ENOSPC`` and the server's disk is never touched; a fresh ``/dev`` and its own ``/proc``.
Not the server's working folder, the logs, a tournament's folder, the service's data, the
other bots, the user's home or the host's ``/tmp``; and no host path of those in anything it
can read: bubblewrap's own arguments come through a file descriptor (``--args``), not its
command line (``/proc/1/cmdline``), its environment is the bot's, and the paths of the bot's
command line are rewritten to ``/bot``. What does show: the paths of the system and of the
server's Python (its mount table, the interpreter in its command line), and the copy's
folder in the host's temporary folder (its mount table). Its environment is the
allowed variables only (:data:`ENV_KEPT`, and every ``POKERBOTS_*``). No network (only a
loopback in its own namespace), its own IPC, UTS, PID and user namespaces, no capabilities
and a new session (no terminal). The sandbox does not limit CPU or memory (the resource
limits and cgroups do) and does not hide the files of the system folders that every user of
the machine can read.
"""

from __future__ import annotations

import errno
import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from pokerbots.protocol.memo import Memo
from pokerbots.server.confine import cgroup
from pokerbots.server.confine.limits import MIB
from pokerbots.server.errors import ServerFault

INSTALL_HINT = "install it (Debian/Ubuntu: apt-get install bubblewrap) or leave out --sandbox"


class SandboxUnavailable(RuntimeError):
    pass


def bwrap_path() -> str | None:
    return _which("bwrap", os.environ.get("PATH"))


#: Where a program was found, by (program, PATH). 8: the PATHs a server runs under.
_FOUND: Memo[tuple[str, str | None], tuple[str | None]] = Memo("sandbox.which", 8)


def _which(program: str, path: str | None) -> str | None:
    """``shutil.which``, looked up once per PATH (every bot of every match asks)."""
    found = _FOUND.get((program, path))
    if found is None:
        found = _FOUND.keep((program, path), (shutil.which(program, path=path),))
    return found[0]


def check() -> str:
    """The path of bwrap, or SandboxUnavailable saying how to get it."""
    path = bwrap_path()
    if path is None:
        raise SandboxUnavailable(
            f"--sandbox needs bubblewrap (bwrap), which is not on PATH: {INSTALL_HINT}")
    return path


def _as_root() -> bool:
    return os.geteuid() == 0


def _nproc(max_procs: int) -> list[str]:
    """The command prefix that limits the processes of a bot in its own user namespace (not
    needed as root, where a pids cgroup does it, and where RLIMIT_NPROC would not apply)."""
    if not max_procs or _as_root():
        return []
    return ["prlimit", f"--nproc={max_procs}:{max_procs}", "--"]


def isolate(argv: list[str], cwd: str | None = None, max_procs: int = 0) -> list[str]:
    """The command that runs ``argv`` in a PID namespace of its own, over the normal file
    system, dying with the server."""
    args = [bwrap_path() or "bwrap", "--dev-bind", "/", "/", "--proc", "/proc",
            "--unshare-pid", "--die-with-parent"]
    if not _as_root():
        args.append("--unshare-user")  # the namespace where RLIMIT_NPROC counts this bot only
    args += ["--chdir", os.path.abspath(cwd or os.getcwd())]
    return [*args, "--", *_nproc(max_procs), *argv]


#: The system's runtime folders, read-only (a link, as on a merged-/usr system, stays a link).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")

#: What programs need of ``/etc`` to run: the dynamic linker's cache and configuration, the
#: time zone, the name service's configuration with the users and groups (for ``getpwuid``;
#: ``shadow`` never), ``hosts`` and ``services``/``protocols`` (for ``localhost`` on the
#: loopback), Debian's ``alternatives`` links (``/usr/bin/awk`` -> ``/etc/alternatives/awk``),
#: TLS certificates, MIME types and locale aliases. Nothing of the machine's configuration
#: otherwise (no ``hostname``, ``machine-id``, ``ssh``, ``fstab``, ``resolv.conf``).
ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "timezone", "nsswitch.conf",
       "passwd", "group", "hosts", "host.conf", "services", "protocols", "alternatives", "ssl",
       "ca-certificates", "ca-certificates.conf", "mime.types", "locale.alias", "os-release")

#: The environment variables a sandboxed bot keeps (besides every ``POKERBOTS_*``): not the
#: server's paths or credentials.
ENV_KEPT = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_MESSAGES",
            "TZ", "TERM", "PYTHONUNBUFFERED", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE")


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _system(path: str) -> bool:
    """Whether ``path`` is in a folder the sandbox shows anyway (the system's, Python's)."""
    return any(_under(path, os.path.realpath(f)) for f in (*SYSTEM, *interpreter_folders()))


@functools.cache
def interpreter_folders() -> tuple[str, ...]:
    """The server's Python, read-only in the sandbox: its prefixes, the real path of its
    executable, and the ``pokerbots`` packages (in an editable install, the repository's
    ``protocol/`` and ``server/`` folders: code only, never its logs)."""
    found = [sys.base_prefix, sys.prefix, sys.exec_prefix,
             os.path.realpath(sys.executable)]
    protocol = importlib.util.find_spec("pokerbots.protocol")
    if protocol is not None and protocol.origin:
        found.append(os.path.dirname(protocol.origin))
    found.append(str(Path(__file__).resolve().parent.parent))  # the server's package
    seen: list[str] = []
    for path in found:
        path = os.path.realpath(path)
        if path != "/" and path not in seen and os.path.exists(path):
            seen.append(path)
    return tuple(seen)


def program_folder(argv: list[str], cwd: str | None = None) -> tuple[list[str], str | None]:
    """The bot's own folder and its argv with the program's path made absolute: the folder
    of the first word of the command that names a file outside the system's and Python's
    folders (the program, or the script an interpreter runs: ``python3 mybot.py``), or None
    when there is none (``sleep 30``). Relative paths are the server's (``cwd``)."""
    base = os.path.abspath(cwd or os.getcwd())
    argv = list(argv)
    for i, word in enumerate(argv):
        if i and word.startswith("-"):
            continue
        path = os.path.realpath(os.path.join(base, word))
        if not os.path.isfile(path) or _system(path):
            continue  # a command on PATH or an interpreter: look for its script after it
        argv[i] = path
        return argv, os.path.dirname(path)
    return argv, None


def _environment(env: dict | None) -> dict[str, str]:
    """The allowed variables of ``env`` (the bot's, else the server's)."""
    env = os.environ if env is None else env
    return {key: value for key, value in env.items()
            if key in ENV_KEPT or key.startswith("POKERBOTS_")}


def view() -> list[str]:
    """bwrap's arguments for the read-only part of the sandbox's file system."""
    args = []
    for folder in SYSTEM:
        if os.path.islink(folder):
            args += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            args += ["--ro-bind", folder, folder]
    for name in ETC:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for path in interpreter_folders():
        if not _under(path, "/usr"):
            args += ["--ro-bind", path, path]
    return args


#: Where a sandboxed bot finds its own folder (a copy, read-only, its working folder) and its
#: scratch folder (writable, size-limited: ``$HOME`` and ``$TMPDIR``), whatever the host's.
BOT = "/bot"
SCRATCH = "/tmp"


class Launch(NamedTuple):
    """How to start one confined bot: its ``argv``, what its child does before ``exec``
    (``preexec``, or None), the environment to start it with (None: the bot's own), and file
    descriptors it must inherit, which the starter closes once the bot has started."""

    argv: list[str]
    preexec: Callable[[], None] | None = None
    env: dict[str, str] | None = None
    fds: tuple[int, ...] = ()

    def close(self) -> None:
        """Close the starter's copies of :attr:`fds`."""
        for fd in self.fds:
            try:
                os.close(fd)
            except OSError:
                pass


def _inside(word: str, folder: str) -> str:
    """``word`` of a command line as the sandbox sees it: an absolute path into the bot's
    ``folder`` becomes the same path under :data:`BOT`; anything else stays as it is."""
    if not os.path.isabs(word):
        return word
    real = os.path.realpath(word)
    if not _under(real, folder):
        return word
    return BOT + real[len(folder.rstrip("/")):]


def _arguments(args: list[str]) -> int:
    """A file descriptor holding ``args`` as bwrap's ``--args`` reads them (NUL-separated),
    at its start: they are not in bwrap's command line, which a bot reads in
    ``/proc/1/cmdline``. bwrap closes it once read."""
    fd = os.memfd_create("bwrap-args")
    try:
        data = b"".join(os.fsencode(arg) + b"\0" for arg in args)
        view_ = memoryview(data)
        while view_:
            view_ = view_[os.write(fd, view_):]
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError:
        os.close(fd)
        raise
    return fd


def wrap(argv: list[str], copies: Copies, hidden: list[Path], cwd: str | None = None,
         max_procs: int = 0, env: dict | None = None, scratch_mib: int = 0) -> Launch:
    """How to run ``argv`` in the sandbox: it sees the system, Python, a copy of its own
    program folder at :data:`BOT` (read-only, its working folder: ``copies`` makes it) and a
    fresh tmpfs of ``scratch_mib`` MiB at :data:`SCRATCH` (0: the kernel's default, half the
    memory), its only writable place. ``hidden`` folders (the log folder) are left out of
    the copy and covered where a folder shown at its own path would show them. ``cwd`` is
    the server's folder, against which relative paths in ``argv`` are read; paths into the
    program folder are rewritten to :data:`BOT`. bwrap's own arguments come through a file
    descriptor (``--args``), its environment is the bot's: nothing a bot can read names a
    host path but those of the system and the server's Python."""
    bwrap = check()
    argv, folder = program_folder(argv, cwd)
    hidden = [str(Path(path).resolve()) for path in hidden]
    # The scratch first: a folder shown at its own path under /tmp is bound on top of it.
    args = [*(["--size", str(scratch_mib * MIB)] if scratch_mib else []), "--tmpfs", SCRATCH,
            *view()]
    workdir = SCRATCH
    if folder is not None and _system(folder):
        workdir = folder  # shown anyway, at its own path
    elif folder is not None:
        args += ["--ro-bind", str(copies.of(folder, skip=hidden)), BOT]
        argv = [_inside(word, folder) for word in argv]
        workdir = BOT
    shown = [*SYSTEM, *interpreter_folders()]
    for path in hidden:
        if any(_under(path, os.path.realpath(bound)) for bound in shown):
            args += ["--tmpfs", path]
    args += ["--dev", "/dev", "--proc", "/proc",
             "--remount-ro", "/",  # the root bwrap made (with /etc's few files): read-only too
             "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
             "--chdir", workdir]
    environment = {**_environment(env), "HOME": SCRATCH, "TMPDIR": SCRATCH, "PWD": workdir}
    fd = _arguments(args)
    return Launch([bwrap, "--args", str(fd), "--", *_nproc(max_procs), *argv], None,
                  environment, (fd,))


def wrap_whole_view(argv: list[str], scratch: Path, hidden: list[Path], cwd: str | None = None,
                    max_procs: int = 0) -> list[str]:
    """The sandbox before the allow-list: the whole file system read-only, the log folder
    hidden. Kept only so that benchmarks/sandbox_view.py can measure what the allow-list
    costs; never used to run a match."""
    bwrap = check()
    cwd = os.path.abspath(cwd or os.getcwd())
    args = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    for path in hidden:
        args += ["--tmpfs", str(Path(path).resolve())]
    scratch = str(scratch.resolve())
    return [*args, "--bind", scratch, scratch, "--setenv", "HOME", scratch,
            "--setenv", "TMPDIR", scratch, "--unshare-all", "--die-with-parent",
            "--new-session", "--cap-drop", "ALL", "--chdir", cwd, "--",
            *_nproc(max_procs), *argv]


_probe: subprocess.Popen | None = None


def start_probing() -> None:
    """Start finding out :func:`isolation_problem` now, so that the probe's namespace is made
    while the caller does something else (a command loading the rest of pokerbots)."""
    global _probe
    if _probe is not None or isolation_problem.cache_info().currsize or _unprobed() is not None:
        return
    try:
        _probe = _start_probe()
    except OSError:
        _probe = None  # isolation_problem() tries again and says why


def _start_probe() -> subprocess.Popen:
    """One PID namespace running ``true``: whether bwrap can make them here."""
    return subprocess.Popen(isolate(["true"], max_procs=64), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _unprobed() -> str | None:
    """Why there is nothing to probe: no bwrap, or no prlimit where one is needed."""
    if bwrap_path() is None:
        return "bubblewrap (bwrap) is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    if not _as_root() and shutil.which("prlimit") is None:
        return "prlimit (util-linux) is not on PATH"
    return None


@functools.cache
def isolation_problem() -> str | None:
    """Why bots cannot get a PID namespace of their own on this machine (None: they can).
    Found out once per process by starting one namespace, which takes a few milliseconds
    (begun earlier by :func:`start_probing`, where the caller did)."""
    global _probe
    unprobed = _unprobed()
    if unprobed is not None:
        return unprobed
    probe, _probe = _probe, None
    try:
        if probe is None:
            probe = _start_probe()
        _, stderr = probe.communicate(timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        if probe is not None:
            probe.kill()
            probe.wait()
        return f"bwrap could not be run ({exc})"
    if probe.returncode != 0:
        said = " ".join(stderr.split()) or f"exit code {probe.returncode}"
        return f"bwrap cannot make a PID namespace here ({said})"
    return None


def process_limit_problem() -> str | None:
    """Why ``--max-procs`` cannot be enforced here (None: it can)."""
    if _as_root():
        return cgroup.problem()
    return isolation_problem()


_said: set[str] = set()


def note_once(limits_sandbox: bool, max_procs: int) -> str | None:
    """What the operator should know about how the bots are confined, the first time it
    applies in this process (then None): one sentence per run, not one per match."""
    notes = []
    if not limits_sandbox:
        why = isolation_problem()
        if why is not None:
            notes.append(f"pokerbots: bots run without a PID namespace of their own, because {why};"
                         " a bot can see and signal the other bots and the server, and what it"
                         " starts is found by the reaper instead of ended with it.")
    if max_procs:
        why = process_limit_problem()
        if why is not None:
            notes.append(f"pokerbots: --max-procs is not enforced, because {why}.")
    text = "\n".join(n for n in notes if n not in _said)
    _said.update(notes)
    return text or None


class FolderTooLarge(Exception):
    """A bot's folder holds more than :data:`Copies.LIMIT` entries; ``str()`` says so."""


class Copies:
    """The bots' own folders as one match's sandboxes show them at :data:`BOT`: a copy of
    each, made once per match as hard links to its files (real copies where a link cannot be
    made, as across file systems), in a temporary folder of the host's that no bot sees;
    :meth:`remove` deletes them.

    A copy rather than the folder itself: a folder bound into the sandbox shows its host path
    in the mount table a bot reads (``/proc/self/mountinfo``), and the copy's path names only
    the host's temporary folder. Symbolic links are copied as links; sockets, pipes and
    devices are left out, and so are ``skip`` folders (the match's log folder)."""

    #: The most files and folders a bot's folder may hold under the sandbox.
    LIMIT = 20_000

    def __init__(self) -> None:
        self.root: Path | None = None
        self.made: dict[str, Path] = {}

    def of(self, folder: str, skip=()) -> Path:
        """The copy of ``folder`` (made on first use). FolderTooLarge if it holds too much;
        ServerFault if the copy cannot be written (the server's disk, not the bot's doing)."""
        if folder in self.made:
            return self.made[folder]
        try:
            if self.root is None:
                self.root = Path(tempfile.mkdtemp(prefix="pokerbots-bots-"))
            target = self.root / str(len(self.made))
            left = _mirror(folder, target, {*skip, str(self.root)}, self.LIMIT)
        except OSError as exc:
            raise ServerFault(f"copying the bot folder {folder} for the sandbox",
                              exc.strerror or str(exc), str(self.root),
                              "Free some space in the temporary folder (TMPDIR), then run the"
                              " match again.") from None
        if left < 0:
            shutil.rmtree(target, ignore_errors=True)
            raise FolderTooLarge(
                f"its folder {folder} holds more than {self.LIMIT:,} files and folders: under"
                " --sandbox a bot sees a copy of its folder, so give it a folder of its own"
                " with only what it needs")
        self.made[folder] = target
        return target

    def remove(self) -> None:
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
        self.root = None
        self.made = {}


def _mirror(source: str, target: Path, skip: set[str], left: int) -> int:
    """Make ``target`` a copy of the folder ``source`` (hard links where they can be made),
    leaving out the paths in ``skip``; how many more entries ``left`` allows (negative: it
    stopped there). Files it cannot read are left out, as the bot could not read them."""
    os.mkdir(target)
    with os.scandir(source) as entries:
        for entry in entries:
            if entry.path in skip:
                continue
            left -= 1
            if left < 0:
                return left
            into = target / entry.name
            if entry.is_symlink():
                os.symlink(os.readlink(entry.path), into)
            elif entry.is_dir(follow_symlinks=False):
                try:
                    left = _mirror(entry.path, into, skip, left)
                except PermissionError:
                    continue
                if left < 0:
                    return left
            elif entry.is_file(follow_symlinks=False):
                try:
                    os.link(entry.path, into, follow_symlinks=False)
                except OSError as unlinked:
                    if unlinked.errno not in (errno.EXDEV, errno.EPERM, errno.EACCES,
                                              errno.EMLINK):
                        raise
                    try:
                        shutil.copy2(entry.path, into, follow_symlinks=False)
                    except PermissionError:
                        continue
    return left


class Confinement:
    """How the bots of one match are started and ended: made by the runner before the first
    bot starts, closed after the last one is gone.

    ``sandbox``: the full sandbox; ``isolate``: a PID namespace per bot when the machine
    allows it (see :func:`isolation_problem`); ``max_procs``: the process limit per bot;
    ``scratch_mib``: the size of each sandboxed bot's scratch folder (0: the kernel's default).
    ``hidden`` are folders the sandbox hides (the log folder).
    """

    def __init__(self, *, sandbox: bool = False, isolate: bool = True, max_procs: int = 0,
                 scratch_mib: int = 0, hidden=(), name: str = "pokerbots") -> None:
        self.sandbox = sandbox
        self.wrapped = sandbox or (isolate and isolation_problem() is None)
        self.max_procs = max_procs
        self.scratch_mib = scratch_mib
        self.copies = Copies() if sandbox else None
        self.hidden = list(hidden)
        self.name = name
        self.groups: list[cgroup.PidsGroup] = []
        #: Each seat's memory cgroup, where there is one (as root: see :mod:`.cgroup`).
        self.memory: dict[int, cgroup.MemoryGroup] = {}

    def command(self, argv: list[str], seat: int, cwd=None, memory_mib: int = 0,
                env: dict | None = None) -> Launch:
        """How to start a bot at ``seat``: its argv, what its child must do before ``exec``
        (join the seat's cgroups: pids, and memory when ``memory_mib`` and the machine allow,
        then in :attr:`memory`), and under the sandbox its environment (``env``, the bot's,
        of which it passes on only some) and the descriptor of bwrap's arguments.
        OSError when a cgroup cannot be made; under the sandbox FolderTooLarge, or ServerFault
        when its folder cannot be copied."""
        joins = []
        pids = None
        if self.max_procs and _as_root() and cgroup.problem() is None:
            pids = cgroup.PidsGroup.create(f"{self.name}-seat{seat}", self.max_procs)
            self.groups.append(pids)
            joins.append(pids.join)
        if memory_mib and _as_root() and cgroup.memory_problem() is None:
            if pids is not None and cgroup.memory_root() == cgroup.root():
                memory = cgroup.MemoryGroup.limit(pids.path, memory_mib)  # v2: one group
            else:
                memory = cgroup.MemoryGroup.create(f"{self.name}-seat{seat}", memory_mib)
                self.groups.append(memory)
                joins.append(memory.join)
            self.memory[seat] = memory
        join = None
        if joins:
            def join() -> None:
                for step in joins:
                    step()
        if self.sandbox:
            launch = wrap(argv, self.copies, self.hidden, cwd, self.max_procs, env,
                          self.scratch_mib)
            return launch._replace(preexec=join)
        if self.wrapped:
            return Launch(isolate(argv, cwd, self.max_procs), join)
        return Launch(argv, join)

    def close(self) -> None:
        """End whatever is left in the seats' cgroups, remove them and the folders' copies."""
        for group in self.groups:
            group.remove()
        self.groups = []
        self.memory = {}
        if self.copies is not None:
            self.copies.remove()
