#!/usr/bin/env bash
# Tests what scripts/build-web.sh built:
# - the npm package, installed from its tarball with no network, by its own
#   tests (`node --test npm/test/`: the whole corpus, against the native
#   idx-validate), and `npx idx-validate` from the install;
# - the page, in headless chromium (web/test/page.mjs: a drop of MNIST's
#   .gz pair and corpus files, the findings, the picture, the downloads, a
#   repair, no request after load; a 2 GiB sparse file and the page's peak
#   memory).
# The native command is IDX_VALIDATE_NATIVE (default target/debug/idx-validate,
# built first); MNIST's test set is the repository's testdata/mnist.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${IDX_VALIDATE_NATIVE:-}" ]; then
  cargo build -q -p idx-validate
fi
native=$(realpath "${IDX_VALIDATE_NATIVE:-target/debug/idx-validate}")

echo "== the npm package, installed from its tarball with no network"
inst=target/npm/install
rm -rf "$inst"
mkdir -p "$inst"
echo '{"private": true}' >"$inst/package.json"
tarball=$(realpath target/npm/idx-validate-*.tgz)
(cd "$inst" && npm install --offline --no-audit --no-fund --silent "$tarball")
(cd "$inst" && npx --offline idx-validate --version)
IDX_VALIDATE_PACKAGE="$inst/node_modules/idx-validate" IDX_VALIDATE_NATIVE="$native" \
  node --test npm/test/*.test.mjs

echo "== the page in headless chromium"
if ! command -v chromium >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
SCREENSHOT=${SCREENSHOT:-target/web-page.png} node web/test/page.mjs target/web "$native" testdata/mnist
