"""The competition service: ``pokerbots serve SUBMISSIONS``.

Bot authors drop their bots into a folder or upload them; every new version is smoke-tested
(quarantine) before it may play; a tournament among the admitted versions runs at start-up and
then every hour; the results are on a small web site and behind a JSON API. Everything the
service knows is kept in one SQLite store in its data folder, so a restart carries on where it
stopped.

One subpackage per job, each importing only those before it:

``data``     what the service keeps: ``service.sqlite`` (``store``), the teams and their tokens
             (``teams``), each tournament's seed commitment (``commitments``), the bot folders
             and their versions (``submissions``, ``links``)
``jobs``     what it does by itself: the trio tasks that watch, test and play (``scheduler``),
             the smoke test of a new version (``quarantine``) and the tournaments
             (``tournaments``), each in a worker process (``workers``)
``site``     the web site: the Starlette application (``app``), what each page shows
             (``pages``, ``chart``, ``ladder``, ``replay``) and what each viewer may see of it
             (``visibility``), who is asking (``auth``), the pages kept (``cache``) and the
             connections (``connections``)
``uploads``  a team's bot uploaded (``routes``), the archives (``archives``) and the team's
             side (``client``: ``pokerbots submit``)

and ``serve``, the service as a library: checks, the site on trio, signals. Internal: the
``serve`` command is in :mod:`pokerbots.server.cli`. May import every layer below it.
"""
