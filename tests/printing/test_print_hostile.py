"""Print options that cannot work are refused with a clear error: an ICC profile cut short
(littleCMS opens it but cannot build a transform), a back offset that is not a number."""

from __future__ import annotations

import pytest

from generator.printing import pdfx
from tests.conftest import DECKS

PROFILE = next((path for path in pdfx.SYSTEM_PROFILES if path.exists()), None)


@pytest.mark.skipif(PROFILE is None, reason="needs a system CMYK profile to cut short")
@pytest.mark.parametrize("keep", [10, 200, 1000, -100])
def test_a_truncated_icc_profile_is_refused(run_cli, tmp_path, keep):
    cut = tmp_path / "cut.icc"
    data = PROFILE.read_bytes()
    cut.write_bytes(data[:keep])
    result = run_cli("print", DECKS / "wizard.toml", "--color", "cmyk", "--icc-profile", cut, "--output", tmp_path)
    assert result.exit_code == 2, result.stderr
    assert f"--icc-profile {cut}: not a readable ICC profile" in result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr


@pytest.mark.parametrize("offset", ["nan,0", "0,inf", "-inf,1", "30,0"])
def test_a_back_offset_that_is_no_distance_is_refused(run_cli, tmp_path, offset):
    result = run_cli("print", DECKS / "wizard.toml", "--duplex", "long-edge", "--back-offset", offset,
                     "--output", tmp_path)
    assert result.exit_code == 2, result.stderr
    assert "--back-offset" in result.stderr and "give millimetres from -20 to 20" in result.stderr
    assert not list(tmp_path.rglob("*.pdf"))
