"""The ``pokerbots`` command line, and the only folder that imports click.

Every command is a thin shell: it parses its options into a library's config, calls the library
(a match, the smoke test, a tournament, the service...) and turns the library's domain errors
into messages and the exit codes of :class:`pokerbots.server.errors.Exit`.

``main``     the command group; each command is a module of its own, loaded only when it runs
``run``      ``pokerbots run``; ``smoke``, ``tournament``, ``serve``... each its own command
``options``  the options several commands share: the game and its flags, timeouts, bot limits
``errors``   the click error for each kind of refusal

May import anything below it; nothing imports it.

Internal: a program calls the libraries these commands call through :mod:`pokerbots.api`.
"""
