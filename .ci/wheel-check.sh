#!/usr/bin/env bash
# A wheel works anywhere: build it, install it into another fresh venv, and in an empty folder
# holding one deck file run `deckgen build --decks-dir DIR`; every output must be written.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/builder"
"$work/builder/bin/pip" wheel -q --no-deps . -w "$work/dist"
wheel=$(ls "$work"/dist/deckgen-*.whl)
echo "wheel-check: built $(basename "$wheel")"

python3 -m venv "$work/user"
"$work/user/bin/pip" install -q "$wheel"
"$work/user/bin/pip" check

mkdir -p "$work/table/my-decks"
cp "$root/decks/wizard.toml" "$work/table/my-decks/"
cd "$work/table"
"$work/user/bin/deckgen" --version
"$work/user/bin/deckgen" build --decks-dir my-decks
for expected in output/wizard/wizard-print-a4.pdf output/wizard/wizard-rules.pdf \
                output/wizard/wizard-rules.html output/wizard/wizard.mush output/wizard/images/back.png; do
  test -s "$expected" || { echo "wheel-check: $expected was not written" >&2; exit 1; }
done
echo "wheel-check: the installed wheel built every output of one deck in an empty folder ($(find output -type f | wc -l) files)"
