"""The pokerbots line protocol: constants shared by the server and the Python client.

The protocol itself is described in PROTOCOL.md beside this file.
"""

#: The exact line a bot sends after ``end_round``.
GOODBYE = "Thank you dealer, have a nice day!"
