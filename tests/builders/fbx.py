"""The builders moved into the package: :mod:`assetcheck.testing.fbx`."""

from assetcheck.testing.fbx import *  # noqa: F403
