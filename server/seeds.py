"""The seeds the server draws itself: the one place that draws them.

A seed decides every card of a match or a tournament, and the cards hidden from a player are
worth knowing: whoever knows a seed, or can search every seed a drawn one may be, reads them.
So a seed the server draws (``pokerbots run`` and ``pokerbots tournament`` without
``--seed``, every tournament of ``pokerbots serve``) is :data:`BITS` bits from the operating
system's generator (:mod:`secrets`), too many to search even knowing some of the cards it
dealt. A seed given on the command line is used as given: a small one is guessable.
"""

from __future__ import annotations

import secrets

__all__ = ["BITS", "draw"]

#: The bits of entropy of a drawn seed.
BITS = 128


def draw() -> int:
    """A new seed: a uniform number in ``[0, 2**BITS)``."""
    return secrets.randbits(BITS)
