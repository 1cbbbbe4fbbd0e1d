"""The pokerbots line protocol: the wire format shared by the server and the Python client.

The protocol itself is described in PROTOCOL.md beside this file; :mod:`.wire` writes and reads
it; :mod:`.client` is the client library for bots written in Python.

The client library is public (:mod:`pokerbots.api` offers it too); :mod:`.wire` and
:mod:`.games` are internal.
"""

from pokerbots.protocol.wire import GOODBYE

__all__ = ["GOODBYE"]
