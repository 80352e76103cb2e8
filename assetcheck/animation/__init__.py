"""Animation keys of any format, judged by the same rules: :mod:`assetcheck.animation.keys`."""
