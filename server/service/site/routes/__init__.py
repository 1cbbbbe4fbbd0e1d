"""The site's routes, one module per kind of page; each module's ``routes(site)`` lists its
own (:class:`~pokerbots.server.service.site.shared.Site` serves them).
Internal, as the whole site is.

``home``         ``/``: the ladder, standings, chart, quarantine, bots and tournaments
``bots``         ``/bots/NAME``, ``/teams/NAME`` (a team's own page) and
                 ``/versions/ID/FILE`` (the logs of a version's failed smoke match)
``tournaments``  ``/tournaments/ID``: a tournament's report
``matches``      ``/matches/ID``, its log files ``/matches/ID/FILE``, its hand history
                 ``/matches/ID/hands`` and a hand's replayer ``/matches/ID/hands/N``
``api``          the JSON API (``/api/ladder``, ``/api/standings``, ``/api/bots``,
                 ``/api/tournaments``) and ``/healthz``
"""
