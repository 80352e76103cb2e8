"""The daemon's child for one request takes its share of the cores among the commands running."""

from __future__ import annotations

import os
from pathlib import Path

from assetcheck.daemon import child
from assetcheck.sandbox.cores import available_cores, thread_cores

STREAM = {"encoding": "utf-8", "errors": "strict", "line_buffering": False}


def cores_seen_by_a_child(commands: int, folder: Path) -> int:
    """The cores a child forked as one of ``commands`` running lets its threads take, as the
    command it runs prints them on the standard output it was handed."""

    def command(argv: list[str]) -> int:
        print(thread_cores())
        return 0

    request = {
        "argv": ["validate"],
        "cwd": str(folder),
        "env": dict(os.environ),
        "umask": 0o022,
        "streams": [STREAM] * 3,
    }
    read, write = os.pipe()
    fds = [os.open(os.devnull, os.O_RDONLY), write, os.open(os.devnull, os.O_WRONLY)]
    pid = child.fork(command, request, fds, keep_open=[read], commands=commands)
    for fd in fds:
        os.close(fd)
    with os.fdopen(read) as output:
        printed = output.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return int(printed)


def test_a_command_alone_takes_every_core_and_one_beside_others_its_share(tmp_path):
    cores = available_cores()
    for commands in (1, 2, 3):
        assert cores_seen_by_a_child(commands, tmp_path) == max(cores // commands, 1)
    assert thread_cores() == cores  # the daemon's own share is untouched
