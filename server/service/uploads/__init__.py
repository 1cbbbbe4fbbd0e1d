"""A team's bot, uploaded.

``routes``    ``POST /api/submissions`` and ``GET /api/submissions/ID``
``archives``  a bot folder packed, and an upload unpacked with every entry checked
``client``    the team's side: ``pokerbots submit``

Internal.
"""
