"""``pokerbots export``."""

from pokerbots.server.logs.export import command  # noqa: F401 (moved here next)
