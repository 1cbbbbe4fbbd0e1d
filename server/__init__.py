"""pokerbots: a match server for poker bots that speak a line protocol on stdin/stdout.

Internal: a program uses :mod:`pokerbots.api` (docs/library.md), a bot written in Python the
client library :mod:`pokerbots.protocol.client`; everything under ``pokerbots.server`` may
change from one version to the next.
"""

__version__ = "0.1.0"
