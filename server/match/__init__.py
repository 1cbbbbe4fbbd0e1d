"""One match as plain synchronous code, without any I/O (sans-I/O, as h11 does it).

``referee``     the rules of a round: deals, messages to every seat, judging every reply
``driver``      the exchanges between the referee and the seats: what is sent together and
                when (:func:`~.driver.play_local` plays seats in-process)
``clock``       each bot's time bank and per-reply limits
``history``     ``hands.txt``, the readable hand history rendered from the hand records
``transcript``  the text a seat receives in a check/call round (``pokerbots deal``)

May import: :mod:`pokerbots.protocol`, :mod:`pokerbots.server.errors` and
:mod:`pokerbots.server.games`. Every message passes through here: these modules are compiled
with mypyc by ``pip install .`` (see setup.py).
"""
