"""The builders moved into the package: :mod:`assetcheck.testing.shapes`."""

from assetcheck.testing.shapes import *  # noqa: F403
