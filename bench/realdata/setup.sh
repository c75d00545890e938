#!/usr/bin/env bash
# Installs what bench/realdata/generate.py reads: Debian packages (as root)
# and a venv with the pinned PyPI packages in bench/out/venv (gitignored).
# About 60 MB of Debian packages and 680 MB of venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(id -u)" = 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    tzdata alsa-utils sound-theme-freedesktop desktop-base dataset-fashion-mnist
else
  echo "not root: the Debian packages (tzdata alsa-utils sound-theme-freedesktop desktop-base dataset-fashion-mnist) are not installed here" >&2
fi
python3 -m venv bench/out/venv
bench/out/venv/bin/pip install -q -r bench/realdata/requirements.txt
for p in tzdata alsa-utils sound-theme-freedesktop desktop-base dataset-fashion-mnist; do
  dpkg-query -W "$p" || echo "MISSING Debian package $p" >&2
done
