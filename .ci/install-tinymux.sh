#!/usr/bin/env bash
# Install Debian's TinyMUX package, which tests/export/test_export_mush.py runs as a real MUSH server.
# Idempotent: does nothing when the server binary and the game template are already there.
# Runs as root on CI (Debian); prints what it did.
set -euo pipefail

netmux=/usr/lib/tinymux/game/bin/netmux
template=/usr/share/tinymux/game/netmux.conf

if [ -x "$netmux" ] && [ -f "$template" ]; then
  echo "install-tinymux: TinyMUX already installed ($netmux)"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-tinymux: TinyMUX is missing and installing it needs root (apt-get install tinymux)" >&2
  exit 1
fi

echo "install-tinymux: installing the Debian package tinymux"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq tinymux
echo "install-tinymux: installed $(dpkg-query -W -f='tinymux ${Version}' tinymux)"
