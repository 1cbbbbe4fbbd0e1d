"""A match's log folder: written while it is played, read back by everything else.

``folder``       the names of the files and the one reader of a match folder (``MatchFolder``)
``writer``       the writer: transcripts, hand records, summary, timing
``show``         a match as text: summary, error, hand history, bankroll chart
``prune``        deleting old match folders
``export``       a match's hands as PHH files or an ACPC log
``acpc_format``  the ACPC dealer's formats: game definitions, STATE lines, card names

May import: :mod:`pokerbots.protocol`, :mod:`pokerbots.server.errors` and the layers below
(:mod:`~pokerbots.server.games`, :mod:`~pokerbots.server.referee`,
:mod:`~pokerbots.server.confine`). It knows nothing of processes, tournaments or commands.

Internal: a program reads a match folder through :mod:`pokerbots.api` (``MatchFolder``).
"""
