"""Tournaments: many bots, every table of K of them, duplicate deals, honest rankings.

``pokerbots tournament`` plays every combination of K bots out of the M given (each table
``--rounds`` deal sets, each deal set once per seating with ``--duplicate``), on this machine's
CPUs or on a Dask cluster, and ranks the bots from the one source of truth, ``results.sqlite``.

One job per module:

``entrants``  the bots: ``NAME=BOT`` arguments, unique names, the sha256 of each program
``plan``      the tables, seatings and matches (and the extra deal sets of ``--refine``)
``deals``     the cards: a function of the seed, the table, the deal set and the hand only
``results_store``  ``results.sqlite``: options, bots, every match and its result
``job``       one match from a plain job description, in whatever process runs it
``director``  the plan played: matches to the workers, every result recorded
``pool``      matches at once in worker processes on this machine (``--jobs``)
``cluster``   matches on a Dask distributed cluster (``--scheduler``)
``standings`` forfeits, per-hand results, standard errors, intervals, the run-off order
``view``      those standings as one immutable view, which every renderer shows as it is
``report``    the self-contained ``report.html`` (a Jinja2 template in ``templates/``)
``text``      the standings and matches as plain text
``progress``  the progress bar and top of the table (plain lines when not a terminal)
``run``       a whole tournament as a library: ``TournamentConfig`` in, an ending out

May import every layer below it (games ... play); the ``tournament`` and ``standings``
commands are in :mod:`pokerbots.server.cli`.

Internal: a program runs a tournament through :mod:`pokerbots.api`.
"""
