"""The competition's web site: Starlette on hypercorn, pages from Jinja2 templates.

``app``          the Starlette application, put together from ``routes`` (one module per
                 kind of page: home, bots, tournaments, matches, the JSON API); ``shared``
                 what every route shares, ``responses`` the site's own kinds of response
``pages``        what each page shows; ``chart`` the chart of results over the tournaments,
                 ``ladder`` the ranking over the last tournaments, ``replay`` a hand step by
                 step (all rendered by the templates in ``templates/``)
``visibility``   what each viewer may see of a match: the one place that decides it
``auth``         who is asking: a request's team, ``/login`` and ``/logout``
``cache``        the pages kept until the store changes
``connections``  the site's connections: deadlines on heads and bodies, a cap

Internal: the ``serve`` command and :mod:`pokerbots.server.service.serve` start it.
"""
