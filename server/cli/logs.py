"""``pokerbots logs``."""

from pokerbots.server.logs.prune import command  # noqa: F401 (moved here next)
