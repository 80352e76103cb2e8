"""Jobs: the queue and its state machine, the upload storage, and the worker processes."""
