#!/usr/bin/env bash
# Install the second and third PDF renderers the print tests open every generated PDF with
# (tests/printing/test_every_pdf_renders.py): mupdf's `mutool` (Debian's mupdf-tools) and
# Ghostscript's `gs`, plus poppler-utils (`pdffonts`, `pdftoppm`) for looking at files by hand.
# Idempotent; runs as root on CI (Debian).
set -euo pipefail

if command -v mutool >/dev/null && command -v gs >/dev/null && command -v pdffonts >/dev/null; then
  echo "install-pdftools: mutool, gs and pdffonts present"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-pdftools: mutool, gs or pdffonts is missing and installing them needs root" >&2
  exit 1
fi

echo "install-pdftools: installing mupdf-tools, ghostscript and poppler-utils"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq mupdf-tools ghostscript poppler-utils
