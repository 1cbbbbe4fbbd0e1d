"""``python -m pokerbots.server.cli``: the ``pokerbots`` command."""

from pokerbots.server.cli.main import main

main()
