"""What an operator watches: the log context and formats of every service process, and the
Prometheus metrics of a node (``docs/operations.md``, Metrics and Logs)."""
