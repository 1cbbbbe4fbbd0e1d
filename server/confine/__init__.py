"""Holding a bot process to its share of the machine and to what it may see.

``sandbox``   bubblewrap: no network, a read-only system, its own scratch folder and PID
              namespace
``cgroup``    a cgroup per bot when the machine delegates one (memory, processes)
``limits``    the resource limits set in the bot's process before it runs (RLIMIT_*)
``reaper``    ending every process a bot started, also those that left its group
``cpus``      pinning a match (server and bots) to a CPU no other match holds
``fairness``  telling which bot was late because another used the CPU while waiting

May import: :mod:`pokerbots.protocol`, :mod:`pokerbots.server.errors`, and the layers below
(:mod:`~pokerbots.server.games`, :mod:`~pokerbots.server.referee`); nothing here starts a match.

Internal (a program uses :mod:`pokerbots.api`).
"""
