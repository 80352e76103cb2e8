"""USD: ``.usdz`` packages and ``.usda``/``.usdc``/``.usd`` layers, read with Pixar's
``usd-core`` in a sandboxed child (``docs/usd.md``)."""
