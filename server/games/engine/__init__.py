"""The betting engine: one hand of any game of the registry (:mod:`.betting`) and the deck it
is dealt from (:mod:`.deck`). Every message of a match passes through here, so these modules
are compiled with mypyc (see setup.py); they import only :mod:`pokerbots.server.games.base` and
the protocol's wire format.

Internal (a program uses :mod:`pokerbots.api`).
"""
