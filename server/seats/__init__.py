"""The seats of a match: the bot arguments, the processes behind them, and the trio runner
that carries the referee's messages to them and their replies back.

``arguments``  a bot argument as typed: a program, a foreign bot (``http://``, ``acpc:``) or
               the person at the terminal
``bots``       a program and its command line (``BotSpec``), checked before anything starts
``limits``     the limits every bot plays under (``Limits``): the reply clock's, confinement
``process``    starting, confining, reading and ending one bot process
``runner``     the thin trio layer: the driver's exchanges over the processes' pipes
``relays/``    relay programs that sit in a seat: the human seat, Lean Poker and ACPC bots

May import: :mod:`pokerbots.protocol`, :mod:`pokerbots.server.errors` and the layers below
(games, hands, scoring, referee, confine, logs). The modules directly in this folder are on the
per-message path and are compiled with mypyc by ``pip install .``; ``relays/`` is not (its
programs run with ``python -m``).

Internal (a program uses :mod:`pokerbots.api`).
"""
