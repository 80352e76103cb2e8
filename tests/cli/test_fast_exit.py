"""A command ends its process without the interpreter's teardown only once its output is out,
and never while a thread or a child process is still running."""

import subprocess
import sys
import threading

from assetcheck.cli.fast_exit import exit_now

_WRITE_THEN_EXIT = """
import atexit, sys
from assetcheck.cli.fast_exit import exit_now
atexit.register(lambda: print("torn down"))
sys.stdout.write("the whole report")
print("a warning", file=sys.stderr, end="")
exit_now(1)
"""


def test_exit_now_flushes_the_output_and_skips_the_teardown():
    run = subprocess.run([sys.executable, "-c", _WRITE_THEN_EXIT], capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr) == (1, "the whole report", "a warning")


def test_exit_now_returns_while_another_thread_runs():
    release = threading.Event()
    thread = threading.Thread(target=release.wait)
    thread.start()
    try:
        exit_now(0)  # returning at all is the proof: the test process is still here
    finally:
        release.set()
        thread.join()
