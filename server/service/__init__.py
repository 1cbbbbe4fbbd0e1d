"""The competition service: ``pokerbots serve SUBMISSIONS``.

Bot authors drop their bots into a folder; every new version is smoke-tested (quarantine)
before it may play; a tournament among the admitted versions runs at start-up and then every
hour; the results are on a small web site and behind a JSON API. Everything the service knows
is kept in one SQLite store in its data folder, so a restart carries on where it stopped.

One job per module:

``submissions``  the submissions folder: bot folders, versions (label, digest), entry points,
                 copies
``store``        ``service.sqlite``: bots, versions and their tests, tournaments, matches
``quarantine``   the smoke test of a new version, in a process of its own
``tournaments``  a tournament as an ordinary ``pokerbots tournament``, in a process of its own
``commitments``  each tournament's seed: its salted commitment, public from the start, and
                 the reveal of finished tournaments' seeds (``pokerbots reveal``)
``workers``      those processes: a session of their own, a signal to stop, death with the service
``scheduler``    the trio tasks that watch, test and play, and stop cleanly
``teams``        the teams and their tokens (salted scrypt hashes); ``auth`` a request's
                 team (a Bearer header or the login cookie), ``/login`` and ``/logout``
``uploads``      a team's bot uploaded (``/api/submissions``), taken as a folder is;
                 ``archives`` packs a bot folder and unpacks an upload, checking every entry;
                 ``links`` where a folder's links lead, followed as the file system will;
                 ``client`` the team's side (``pokerbots submit``)
``web``          the Starlette application: routes, log files, the JSON API; ``cache`` the
                 pages it keeps until the store changes
``connections``  the site's connections: deadlines on heads and bodies, a cap, hypercorn's
                 worker that accepts them
``pages``        what each page shows; ``chart`` the chart of results over the tournaments
                 (both rendered by the Jinja2 templates in ``templates/``)
``serve``        the service as a library: checks, the site on trio, signals

May import every layer below it (games ... tournament); the ``serve`` command is in
:mod:`pokerbots.server.cli`.
"""
