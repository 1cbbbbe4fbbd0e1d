"""Scoring hands beyond their chips, for a tournament's standings.

``equity``  what a hand that ended all-in before the last board card was worth to each seat
``luck``    each seat's result less the luck of the cards it was dealt and of the mixes
            drawn for it (an unbiased, zero-sum correction per chance event and per draw)
``learnt``  how a match's seats play, learnt from its earlier hands: the value function of
            the draws' corrections

Internal. May import ``games`` and ``hands``.
"""
