"""The sandbox: every child process the service starts (validation, FBX parsing, codecs), under
the same limits and the same rules for its parent (``docs/security.md``, Child processes)."""
