"""What the competition service keeps: its store, teams, seed commitments and bot folders.

``store``        ``service.sqlite``: bots, versions and their tests, tournaments, matches, teams
``teams``        the teams and their tokens (salted scrypt hashes), and the guard that holds
                 off wrong tokens
``commitments``  each tournament's seed: its salted commitment, public from the start, and the
                 reveal of finished tournaments' seeds (``pokerbots reveal``)
``submissions``  the submissions folder: bot folders, versions (label, digest), entry points,
                 copies
``links``        where a folder's symbolic links lead, followed as the file system will

Internal.
"""
