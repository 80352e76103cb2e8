"""The builders moved into the package: :mod:`assetcheck.testing.gltf`."""

from assetcheck.testing.gltf import *  # noqa: F403
