#!/usr/bin/env python3
"""A Kuhn bot that plays check/call correctly, then misbehaves in one chosen way.

    hostile.py MODE [--at-hand N]

The misbehaviour happens at the first ``play`` message of hand N (default 0) unless the mode
says otherwise. The client library reads the protocol and makes every reply; the bot
replaces or withholds the reply where it is meant to misbehave.
"""

import argparse
import os
import signal
import socket
import sys
import time

from pokerbots.protocol.client import Client

parser = argparse.ArgumentParser()
parser.add_argument("mode")
parser.add_argument("--at-hand", type=int, default=0)
parser.add_argument("--seconds", type=float, default=0.2)
parser.add_argument("--signal", default="KILL", help="for kill-others: the signal's name")
parser.add_argument("--target", default="", help="for kill-others: text in the victims' argv")
parser.add_argument("--count", type=int, default=500, help="for fork-many")
parser.add_argument("--mib", type=int, default=1024, help="for fill-scratch: at most this much")
args = parser.parse_args()
mode = args.mode

stdin, stdout = sys.stdin.buffer, sys.stdout.buffer


def raw(data: bytes) -> None:
    stdout.write(data)
    stdout.flush()


def send(text: str) -> None:
    raw(text.encode() + b"\n")


def sleep_forever() -> None:
    while True:
        time.sleep(3600)


def spawn_detached(leave_parent: bool) -> None:
    """A grandchild that calls setsid and runs on, its stdio closed (or kept)."""
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:
            os.setsid()
            for fd in (0, 1, 2):
                os.close(fd)
            sleep_forever()
        if leave_parent:
            os._exit(0)  # the grandchild is orphaned: re-parented to the server (subreaper)
        sleep_forever()


def others(target: str) -> list[int]:
    """The processes this bot can see whose command line holds ``target``, besides itself, its
    children and its own wrappers (whose command line names this mode)."""
    me = os.getpid()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        parent = int(stat[stat.rfind(b")") + 2:].split()[1])
        if target.encode() in cmdline and b"kill-others" not in cmdline and parent != me:
            found.append(int(name))
    return found


def fill_scratch(stop_at_full: bool) -> None:
    """Write files of 64 MiB (below --max-file-size) into $TMPDIR until the disk is full or
    --mib MiB are written; report on stderr how much, where, and how it ended. Unless
    ``stop_at_full``, the error of the write that did not fit is raised (the bot dies of it)."""
    folder = os.environ.get("TMPDIR", "/tmp")
    chunk = b"\xa5" * (1 << 20)
    written = files = 0
    ending = f"stopped at the cap of {args.mib} MiB"
    free_before = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
    try:
        while written < args.mib << 20:
            with open(os.path.join(folder, f"fill{files}"), "wb") as f:
                files += 1
                for _ in range(64):
                    if written >= args.mib << 20:
                        break
                    f.write(chunk)
                    f.flush()
                    written += len(chunk)
    except OSError as exc:
        ending = f"then: {exc}"
        if not stop_at_full:
            raise
    finally:
        stat = os.statvfs(folder)
        print(f"FILLED {written >> 20} MiB in {files} files in {folder} (free before"
              f" {free_before >> 20} MiB, after {stat.f_bavail * stat.f_frsize >> 20} MiB), "
              f"{ending}", file=sys.stderr, flush=True)


def busy(seconds: float) -> None:
    """Use the CPU for ``seconds`` of CPU time (not wall-clock time)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


if mode == "sleeper":  # started by disguise: a process that outlives its bot if it can
    sleep_forever()
if mode == "disguised-orphan":
    # A grandchild that leaves the session, changes the match token in its environment and is
    # orphaned (re-parented to the server): the token cannot find it, the namespace ends it.
    if os.fork() == 0:
        if os.fork() == 0:
            os.setsid()
            env = dict(os.environ, POKERBOTS_MATCH="not-this-match")
            os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), "sleeper"],
                      env)
        os._exit(0)
    os.wait()
if mode == "spin-child":
    if os.fork() == 0:  # a background child that burns the CPU all round
        os.setsid()
        while True:
            pass
if mode == "fork-many":
    started = 0
    for _ in range(args.count):
        try:
            if os.fork() == 0:
                sleep_forever()
        except OSError as exc:
            print(f"fork refused after {started} children: {exc}", file=sys.stderr, flush=True)
            break
        started += 1
    print(f"forked {started} children", file=sys.stderr, flush=True)
if mode == "slow-start":
    time.sleep(30)
if mode == "exit-before-init":
    print("giving up before the round starts", file=sys.stderr)
    sys.exit(4)
if mode == "stderr-flood":
    chunk = b"x" * 65535 + b"\n"
    for _ in range(80):  # 5 MiB
        sys.stderr.buffer.write(chunk)
    sys.stderr.buffer.flush()
if mode in ("setsid-grandchild", "setsid-orphan"):
    spawn_detached(leave_parent=mode == "setsid-orphan")
if mode == "never-read":
    send("READY")  # answers init_round without reading it, then never reads again
    sleep_forever()
if mode == "memory-hog":
    hog = bytearray(3 << 30)
if mode == "cpu-spin":
    while True:
        pass
if mode == "file-hog":
    with open(os.path.join(os.environ.get("TMPDIR", "/tmp"), "hog"), "wb") as f:
        while True:
            f.write(b"\0" * (1 << 20))
if mode == "fill-scratch":  # fills its scratch folder at the start, then plays on
    fill_scratch(stop_at_full=True)
if mode.startswith("sandbox-"):
    what = []
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=0.5).close()
        what.append("network:open")
    except OSError as exc:
        what.append(f"network:blocked({exc.__class__.__name__})")
    try:
        open("/etc/pokerbots-escape", "w").close()
        what.append("etc:writable")
    except OSError:
        what.append("etc:read-only")
    scratch = os.environ.get("TMPDIR", "")
    try:
        with open(os.path.join(scratch, "note"), "w") as f:
            f.write("ok")
        what.append("scratch:writable")
    except OSError:
        what.append("scratch:read-only")
    what.append(f"pid:{os.getpid()}")
    print(" ".join(what), file=sys.stderr, flush=True)
    if mode == "sandbox-setsid":
        spawn_detached(leave_parent=True)

def misbehave(state):
    """At play in the chosen hand: the reply to send, or None when it answered itself (or
    never will)."""
    call = state.check_or_call()
    if mode == "crash":
        print("Traceback (most recent call last):\nValueError: the bot gave up", file=sys.stderr,
              flush=True)
        os._exit(3)
    if mode == "fill-scratch-crash":  # fills its scratch folder and dies of the full disk
        fill_scratch(stop_at_full=False)
    if mode == "segv":
        print("about to crash hard", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "never-write":
        stdin.read()
    if mode == "split":
        reply = f"{call}\n".encode()
        raw(reply[:2])
        time.sleep(args.seconds)
        raw(reply[2:])
        return None
    if mode == "two-lines":
        raw(f"{call}\n{call}\n".encode())
        return None
    if mode == "long-line":
        raw(b"B" * 5000)
        sleep_forever()
    if mode == "long-line-ended":  # --count bytes, then a newline
        raw(b"B" * args.count + b"\n")
        return None
    if mode == "close-stdin":  # closes its input, answers, and waits
        os.close(0)  # first: the server's next write must find no reader, however fast it is
        raw(f"{call}\n".encode())
        sleep_forever()
    if mode == "debug-print":
        print(f"thinking about hand {state.hand}: I hold {state.cards[0]}", flush=True)
        return call
    if mode == "not-utf8":
        raw(b"\xff\xfe BET \xc3\x28\n")
        return None
    if mode == "empty-line":
        raw(b"\n")
        return None
    if mode == "junk-stream":
        while True:  # a byte now and then, never a newline: it must not extend the time
            raw(b"#")
            time.sleep(0.05)
    if mode == "fork-exit":
        if os.fork() == 0:
            sleep_forever()  # holds stdout open
        os._exit(0)
    if mode == "slow":
        time.sleep(args.seconds)
    if mode == "kill-others":
        # Signal every process it can see that mentions the target, then play on.
        victims = others(args.target)
        for pid in victims:
            try:
                os.kill(pid, getattr(signal, "SIG" + args.signal))
            except OSError:
                pass
        print(f"signalled {len(victims)} processes with SIG{args.signal}", file=sys.stderr,
              flush=True)
    if mode == "busy":  # thinks hard on every decision (CPU time, not sleep)
        busy(args.seconds)
    return call


acted = False
#: What decide() returns when the bot already wrote its own reply.
ANSWERED = "(answered)"


def decide(state):
    global acted
    if state.hand >= args.at_hand and (mode in ("slow", "busy") or not acted):
        acted = True
        reply = misbehave(state)
        return ANSWERED if reply is None else reply
    return state.check_or_call()


client = Client(decide, check=False)
for line in stdin:
    reply = client.feed(line)
    if reply is None or reply == ANSWERED.encode():
        continue
    if client.done:
        if mode == "no-goodbye":
            sys.exit(0)
        send(reply.decode())
        if mode == "linger":
            sleep_forever()  # said goodbye but does not exit: the server must end it
        break
    send(reply.decode())
