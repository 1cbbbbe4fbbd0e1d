"""Scoring hands beyond their chips, for a tournament's standings.

``equity``  what a hand that ended all-in before the last board card was worth to each seat
``luck``    each seat's result less the luck of the cards it was dealt (an unbiased,
            zero-sum correction per chance event)

Internal. May import ``games`` and ``hands``.
"""
