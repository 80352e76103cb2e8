"""A resident validator for pipelines and pre-commit, in the way of ``dmypy`` and ``eslint_d``.

``assetcheck daemon start`` leaves a process running that has imported everything a validation
needs and validated a few small files of every format once. ``assetcheck validate`` then hands
its whole command (arguments, working directory, environment and its standard streams) to that
process over a Unix socket instead of starting Python's and numpy's imports again; the daemon
forks a child that runs the very same :func:`assetcheck.cli.main`, writing to the caller's own
streams, and the caller exits with the child's status. With no daemon, or one running other
code, ``validate`` runs in its own process as it always has. ``docs/daemon.md`` tells the rules.

Modules: :mod:`.location` (the socket's place), :mod:`.protocol` (the messages),
:mod:`.client` (the caller's decision, kept free of numpy, of the socket module and of the rest
of AssetCheck), :mod:`.handoff` (the caller's side once a socket is there), :mod:`.server` (the
daemon's loop), :mod:`.warm` (what the daemon loads before it listens).
"""
