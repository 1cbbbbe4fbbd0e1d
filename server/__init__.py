"""pokerbots: a match server for poker bots that speak a line protocol on stdin/stdout."""

__version__ = "0.1.0"
