"""A real match, start to end: bots started, the round played, the logs written; and the
smoke test of one bot, made of such matches.

``match``         ``MatchConfig`` and playing a match with logs
``options``       the options of the commands that play, as a match's data (no trio)
``smoke``         the smoke test: plan, cases, results, JUnit report (``pokerbots smoke``)
``smoke_random``  the random opponent of a smoke test (a bot program: ``python -m``)
``certify``       the certificate: a table of cases steering a bot into each rare situation
``scripted_bot``  the scripted opponent of a certify case (a bot program: ``python -m``)

May import: :mod:`pokerbots.protocol`, :mod:`pokerbots.server.errors` and every layer below
(games ... seats).

Internal: a program plays a match through :mod:`pokerbots.api`.
"""
