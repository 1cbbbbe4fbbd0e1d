"""A hand once it is played: its record (a line of ``hands.jsonl``) and what is read from it.

``record``    the record: its fields (:class:`~.record.HandRecord`), its one JSON encoder, what
              of it each viewer may see
``encoding``  the record's JSON text written by compiled code (every hand of every match)
``replay``    a record played again on the betting engine
``words``     an action in words, for the hand history and the site's replayer
``follow``    every action of a hand rebuilt on the betting engine, from its record or from one
              seat's messages (the relays)

Internal. May import :mod:`pokerbots.protocol` and ``games``.
"""
