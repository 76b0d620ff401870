#!/usr/bin/env bash
# Install Debian's headless-capable Chromium, which the browser tests drive through Playwright
# (tests/browser.py points Playwright at /usr/bin/chromium; Playwright's own browser download is
# never used). Idempotent; runs as root on CI (Debian).
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
  echo "install-chromium: Chromium already installed ($(command -v chromium))"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-chromium: Chromium is missing and installing it needs root (apt-get install chromium)" >&2
  exit 1
fi

echo "install-chromium: installing the Debian package chromium"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-dejavu-core
echo "install-chromium: installed $(dpkg-query -W -f='chromium ${Version}' chromium)"
