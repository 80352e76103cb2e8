"""``lazy_module`` binds a module at once and runs it when an attribute is first read; a module
already imported is returned as it is, and a missing one fails at once."""

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
used = "numpy" in sys.modules
from assetcheck.animation.keys import Track
print(json.dumps([bound, used, interpolation, keys.Track is Track]))
"""


def test_a_lazy_module_runs_when_an_attribute_is_first_read():
    run = subprocess.run(
        [sys.executable, "-c", _BIND_THEN_USE], capture_output=True, text=True, check=True
    )
    (numpy_at_bind, registered), numpy_at_use, interpolation, same = json.loads(run.stdout)
    assert (numpy_at_bind, registered) == (False, True)  # bound, not run: numpy not imported
    assert (numpy_at_use, interpolation, same) == (True, "CUBICSPLINE", True)


def test_an_imported_module_is_returned_as_it_is():
    assert lazy_module("json") is json


def test_a_missing_module_fails_when_bound():
    with pytest.raises(ModuleNotFoundError):
        lazy_module("assetcheck.no_such_module")
