#!/usr/bin/env bash
# Rebuild the vendored three.js bundle the dashboard ships (web/static/vendor/) from the exact
# versions pinned in package.json and package-lock.json: one minified ES module, its licence,
# and the SHA-256 sums tests/dashboard/test_vendored_three.py checks. Needs node and npm; the
# result is committed, so neither is needed to install, test or package AssetCheck.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --silent
out=../../web/static/vendor
mkdir -p "$out"
version=$(node -p 'require("./node_modules/three/package.json").version')
npx --no-install esbuild entry.mjs --bundle --format=esm --minify --legal-comments=none \
    --target=es2020 --banner:js="/* three.js ${version} (MIT, see three.LICENSE), bundled by tools/three/build.sh */" \
    --outfile="$out/three.bundle.min.js" --log-level=warning
cp node_modules/three/LICENSE "$out/three.LICENSE"
(cd "$out" && sha256sum three.bundle.min.js three.LICENSE > SHA256SUMS)
echo "three $version -> $out/three.bundle.min.js ($(wc -c < "$out/three.bundle.min.js") bytes)"
