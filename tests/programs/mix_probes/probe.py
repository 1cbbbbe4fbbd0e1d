"""Prints the Python kit's mix of the items on the command line (reply weight ...), for a
decision facing a bet: call 10, raise 20 to 100, fold at 5. Run in a kit's folder."""

import sys
from types import SimpleNamespace

from pokerclient import State

client = SimpleNamespace(game="holdem-nl", players=2, hand=0, button=0, cards=["Ah", "Kd"],
                         bankrolls=[0, 0])
state = State(client, [("BLIND", 5), ("BLIND", 10)], {"Raise": "20,100"})
args = sys.argv[1:]
print(state.mix([(args[i], int(args[i + 1])) for i in range(0, len(args), 2)]))
