"""The text of small bots the tests write into a file and run."""

# Written for Hold'em with the client library: it reads its second hole card, which a Kuhn
# hand does not have.
HOLDEM_ONLY = '''
from pokerbots.protocol.client import Bot, run


class HoldemOnly(Bot):
    def on_hand_start(self, hand, cards, button):
        self.pair = cards[0][0] == cards[1][0]

    def decide(self, state):
        return state.check_or_call()


run(HoldemOnly())
'''
