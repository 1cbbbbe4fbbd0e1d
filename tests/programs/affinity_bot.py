#!/usr/bin/env python3
"""A check/call bot that first writes the CPUs it may run on to stderr (``cpus: 0``), so that
a test can see where a tournament pinned its match."""

import os
import sys

from pokerbots.protocol.client import run

print("cpus:", ",".join(map(str, sorted(os.sched_getaffinity(0)))), file=sys.stderr, flush=True)
run(lambda state: state.check_or_call())
