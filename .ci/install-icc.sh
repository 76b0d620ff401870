#!/usr/bin/env bash
# Install Debian's libgs-common for its CMYK ICC profile (Artifex CMYK SWOP,
# /usr/share/color/icc/ghostscript/default_cmyk.icc), which `deckgen print --color cmyk` uses when
# no --icc-profile is given, and which the PDF/X tests convert through. Data only: Ghostscript
# itself is not needed. Idempotent; runs as root on CI (Debian).
set -euo pipefail

profile=/usr/share/color/icc/ghostscript/default_cmyk.icc
if [ -f "$profile" ]; then
  echo "install-icc: CMYK profile present ($profile)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-icc: $profile is missing and installing libgs-common needs root" >&2
  exit 1
fi

echo "install-icc: installing the Debian package libgs-common"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq libgs-common
echo "install-icc: installed $(dpkg-query -W -f='libgs-common ${Version}' libgs-common)"
