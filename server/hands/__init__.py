"""A hand once it is played: its record (a line of ``hands.jsonl``) and what is read from it.

``record``  the record's one JSON encoder (compiled: every hand of every match is encoded)
``follow``  every action of a hand rebuilt on the betting engine, from its record or from one
            seat's messages (the relays)

Internal. May import :mod:`pokerbots.protocol` and ``games``.
"""
