"""``pokerbots show``."""

from pokerbots.server.logs.show import command  # noqa: F401 (moved here next)
