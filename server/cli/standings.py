"""``pokerbots standings DIR``: found here by the command line's lazy loader, which imports a
module per command; the command itself lives with ``tournament`` in :mod:`.tournament`."""

from pokerbots.server.cli.tournament import standings_command as command

__all__ = ["command"]
