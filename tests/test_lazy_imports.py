"""``lazy_module`` binds a stand-in at once and imports the module when an attribute is first
read, once even when threads read together; a missing module fails at once."""

import json
import subprocess
import sys

import pytest

from assetcheck.lazy_imports import lazy_module

_BIND_THEN_USE = """
import json, sys
from assetcheck.lazy_imports import lazy_module
keys = lazy_module("assetcheck.animation.keys")
bound = "numpy" in sys.modules, "assetcheck.animation.keys" in sys.modules
interpolation = keys.CUBICSPLINE
used = "assetcheck.animation.keys" in sys.modules
from assetcheck.animation.keys import Track
print(json.dumps([bound, used, interpolation, keys.Track is Track]))
"""

_THREADS_TOGETHER = """
import json, threading
from assetcheck.lazy_imports import lazy_module
keys = lazy_module("assetcheck.animation.keys")
start, found = threading.Barrier(8), []
def read():
    start.wait()
    found.append(keys.judge)
threads = [threading.Thread(target=read) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
from assetcheck.animation.keys import judge
print(json.dumps([len(found), all(f is judge for f in found)]))
"""


def run(script: str) -> list:
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_a_lazy_module_is_imported_when_an_attribute_is_first_read():
    (numpy_at_bind, imported_at_bind), imported_at_use, interpolation, same = run(_BIND_THEN_USE)
    assert (numpy_at_bind, imported_at_bind) == (False, False)
    assert (imported_at_use, interpolation, same) == (True, "CUBICSPLINE", True)


def test_threads_reading_a_lazy_module_together_all_get_the_one_module():
    assert run(_THREADS_TOGETHER) == [8, True]


def test_a_missing_module_fails_when_bound():
    with pytest.raises(ModuleNotFoundError):
        lazy_module("assetcheck.no_such_module")
