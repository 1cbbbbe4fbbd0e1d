"""One round of a game as plain synchronous code, without any I/O (sans-I/O, as h11 does it).

``referee``     the rules of a round: deals, what each seat is told and asked, judging every
                reply
``render``      every message's text, written from the rules' numbers, and its memos
``coalesce``    which write each message goes out in: the two exchange kinds (an ask of one
                seat, a tell to every seat)
``driver``      the one loop that plays a referee on a table of seats (:func:`~.driver.play_local`
                plays seats in-process)
``clock``       each bot's time bank and per-reply limits
``transcript``  the text a seat receives in a check/call round (``pokerbots deal``)

Internal: the library's way to play a match is :mod:`pokerbots.api`. May import
:mod:`pokerbots.protocol` and the layers below (``games``, ``hands``). Every message passes
through here: these modules are compiled with mypyc by ``pip install .`` (see setup.py).
"""
