"""What the competition service does by itself, in trio tasks and worker processes.

``scheduler``    the trio tasks that watch the submissions, test new versions and play
                 tournaments, and stop cleanly
``quarantine``   the smoke test of a new version, in a process of its own
``tournaments``  a tournament as an ordinary ``pokerbots tournament``, in a process of its own
``workers``      those processes: a session of their own, a signal to stop, death with the
                 service

Internal.
"""
