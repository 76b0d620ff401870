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
cp -p "$root/decks/wizard.toml" "$work/table/my-decks/"  # -p: a deck saved just now is not cached yet
cd "$work/table"
"$work/user/bin/deckgen" --version
# The quick commands from the wheel, with an empty deck cache and then a warm one.
export XDG_CACHE_HOME="$work/cache"
for run in cold warm; do
  "$work/user/bin/deckgen" list --decks-dir my-decks | grep -q '^wizard  *Wizard  *3-6  *60$' \
    || { echo "wheel-check: deckgen list ($run cache) does not list the deck" >&2; exit 1; }
  "$work/user/bin/deckgen" show wizard --decks-dir my-decks | grep -q '^Wizard (wizard)' \
    || { echo "wheel-check: deckgen show ($run cache) does not show the deck" >&2; exit 1; }
done
test "$(find "$XDG_CACHE_HOME/deckgen" -name '*.deck' | wc -l)" -eq 1 \
  || { echo "wheel-check: the quick commands kept no deck in the cache" >&2; exit 1; }
echo "wheel-check: list and show ran from the wheel, cold and warm"
"$work/user/bin/deckgen" build --decks-dir my-decks
for expected in output/wizard/wizard-print-a4.pdf output/wizard/wizard-rules.pdf \
                output/wizard/wizard-rules.html output/wizard/wizard.mush output/wizard/images/back.png; do
  test -s "$expected" || { echo "wheel-check: $expected was not written" >&2; exit 1; }
done
echo "wheel-check: the installed wheel built every output of one deck in an empty folder ($(find output -type f | wc -l) files)"
