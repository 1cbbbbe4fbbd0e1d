"""The command line, and the only folder that imports click."""
