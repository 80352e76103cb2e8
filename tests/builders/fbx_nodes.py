"""The builders moved into the package: :mod:`assetcheck.testing.fbx_nodes`."""

from assetcheck.testing.fbx_nodes import *  # noqa: F403
