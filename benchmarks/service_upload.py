#!/usr/bin/env python3
"""Upload-to-admitted time of a Python bot on the real service.

    python benchmarks/service_upload.py [--repeat N] [--game G] [--no-sandbox]

Starts ``pokerbots serve`` (an empty submissions folder, a team made with the library that
``pokerbots team add`` runs) on a free port of 127.0.0.1, then uploads the bundled call bot N
times, each time a new version (its VERSION changes), as ``pokerbots submit`` does (the
client's own pack and request), and polls ``GET /api/submissions/ID`` every 50 ms until the
version is admitted. Prints, per upload and as median, minimum and maximum: the time of the
POST (packing, sending, unpacking, recording: until the 201), and the time from the start of
the upload to the first answer saying ``admitted`` (the smoke test is most of it: two rounds
of 30 hands in every seat, against the random bot, under the sandbox unless --no-sandbox).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--game", default="kuhn")
    parser.add_argument("--no-sandbox", action="store_true")
    args = parser.parse_args()

    from pokerbots.server.service.data.store import open_store
    from pokerbots.server.service.data.teams import add_team
    from pokerbots.server.service.uploads import client

    with tempfile.TemporaryDirectory(prefix="pokerbots-upload-") as work:
        work = Path(work)
        (work / "submissions").mkdir()
        store = open_store(work / "data")
        token = add_team(store, "bench")
        store.close()
        output = open(work / "serve.out", "w")
        command = [sys.executable, "-m", "pokerbots.server.cli.main", "serve",
                   str(work / "submissions"), "--data", str(work / "data"), "--port", "0",
                   "--game", args.game, "--upload-interval", "0.1s"]
        if args.no_sandbox:
            command.append("--no-sandbox")
        served = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            port = None
            for _ in range(600):
                found = re.findall(r"http://127\.0\.0\.1:(\d+)/",
                                   (work / "serve.out").read_text())
                if found:
                    port = int(found[0])
                    break
                if served.poll() is not None:
                    sys.exit("pokerbots serve exited:\n" + (work / "serve.out").read_text())
                time.sleep(0.05)
            service = client.Service(f"http://127.0.0.1:{port}", token)
            folder = work / "bot"
            folder.mkdir()
            (folder / "bot.py").write_bytes((ROOT / "bots" / "call_bot.py").read_bytes())
            posts, admitted = [], []
            for number in range(1, args.repeat + 1):
                (folder / "VERSION").write_text(f"{number}\n")
                start = time.perf_counter()
                uploaded = client.submit(service, folder)
                posts.append(time.perf_counter() - start)
                document = uploaded
                while document["status"] == "testing":
                    time.sleep(0.05)
                    _, document = service.request("GET", uploaded["url"])
                if document["status"] != "admitted":
                    sys.exit(f"version {number} is {document['status']}: {document['reason']}")
                admitted.append(time.perf_counter() - start)
                print(f"upload {number}: POST {posts[-1] * 1000:.0f} ms, admitted after"
                      f" {admitted[-1]:.2f} s", flush=True)
        finally:
            served.terminate()
            served.wait(60)
            output.close()
    sandbox = "unconfined" if args.no_sandbox else "sandboxed"
    print(f"{args.game}, {sandbox}, {args.repeat} uploads of bots/call_bot.py:")
    print(f"  POST until 201:       median {statistics.median(posts) * 1000:.0f} ms"
          f" (min {min(posts) * 1000:.0f}, max {max(posts) * 1000:.0f})")
    print(f"  upload to admitted:   median {statistics.median(admitted):.2f} s"
          f" (min {min(admitted):.2f}, max {max(admitted):.2f})")


if __name__ == "__main__":
    main()
