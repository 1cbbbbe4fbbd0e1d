#!/usr/bin/env python3
"""A Kuhn bot that plays check/call correctly, then misbehaves in one chosen way.

    hostile.py MODE [--at-hand N]

The misbehaviour happens at the first ``play`` message of hand N (default 0) unless the mode
says otherwise. Written without the client library, like tests/bad_bots/kuhn_bot.py.
"""

import argparse
import os
import signal
import socket
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("mode")
parser.add_argument("--at-hand", type=int, default=0)
parser.add_argument("--seconds", type=float, default=0.2)
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

hand = -1
bankrolls = []
acted = False


def misbehave(values):
    """At play in the chosen hand. Returns True when it answered (well or badly)."""
    if mode == "crash":
        print("Traceback (most recent call last):\nValueError: the bot gave up", file=sys.stderr,
              flush=True)
        os._exit(3)
    if mode == "segv":
        print("about to crash hard", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "never-write":
        stdin.read()
    if mode == "split":
        reply = f"BET {max(values)}\n".encode()
        raw(reply[:2])
        time.sleep(args.seconds)
        raw(reply[2:])
        return True
    if mode == "two-lines":
        raw(f"BET {max(values)}\nBET {max(values)}\n".encode())
        return True
    if mode == "long-line":
        raw(b"B" * 5000)
        sleep_forever()
    if mode == "not-utf8":
        raw(b"\xff\xfe BET \xc3\x28\n")
        return True
    if mode == "empty-line":
        raw(b"\n")
        return True
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
    return False


while True:
    line = stdin.readline()
    if not line:
        break
    word = line.rstrip(b"\n")
    if word == b"init_round":
        bankrolls = [int(v) for v in stdin.readline().split(b": ")[1].split(b",")]
        for _ in range(3):
            stdin.readline()
        send("READY")
    elif word == b"init_hand":
        hand = int(stdin.readline().split(b": ")[1])
        stdin.readline()
        send("READY")
    elif word == b"play":
        values = [int(stdin.readline().split()[2]) for _ in bankrolls]
        if hand >= args.at_hand and (mode == "slow" or not acted):
            acted = True
            if misbehave(values):
                continue
        send(f"BET {max(values)}")
    elif word == b"end_hand":
        fronts = [int(stdin.readline().split()[2]) for _ in bankrolls]
        stdin.readline()  # Showdown
        pots = stdin.readline().split(b": ")[1].split()
        for p in range(len(bankrolls)):
            bankrolls[p] -= fronts[p]
        for pot in pots:
            value, winner = pot.split(b",")
            bankrolls[int(winner)] += int(value)
        send("OK")
    elif word.startswith(b"EndAction"):
        for _ in range(len(bankrolls) - 1):
            stdin.readline()
        send("Money: " + ",".join(map(str, bankrolls)))
    elif word == b"end_round":
        stdin.readline()
        stdin.readline()
        if mode == "no-goodbye":
            sys.exit(0)
        send("Thank you dealer, have a nice day!")
        if mode == "linger":
            sleep_forever()  # said goodbye but does not exit: the server must end it
        break
