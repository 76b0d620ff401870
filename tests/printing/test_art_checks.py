"""What `deckgen validate` says about art before it is printed: resolution measured along the side
a picture is printed on (a quarter turn included), and each SVG feature svglib leaves out named
with its file."""

from __future__ import annotations

from PIL import Image

from tests.faces.test_render import deck_with_layout

PICTURE = ('name = "picture"\ntype = "image"\nsrc = "wide.png"\nx = "10mm"\ny = "10mm"\nwidth = "30mm"\n'
           'height = "60mm"\nfit = "cover"\n')


def _deck(tmp_path, rotate: int | None, pixels_wide: int):
    Image.new("RGB", (pixels_wide, pixels_wide // 2), "#3060a0").save(tmp_path / "wide.png")
    element = PICTURE + (f"rotate = {rotate}\n" if rotate is not None else "")
    return deck_with_layout(tmp_path, "turned", element, cards=1)


def test_a_quarter_turned_picture_is_measured_along_the_side_its_width_is_printed_on(run_cli, tmp_path):
    # 709 px across the 60 mm the picture's width runs along once turned: 300 ppi, nothing to say
    turned = run_cli("validate", _deck(tmp_path, 90, 709))
    assert turned.exit_code == 0 and "ppi" not in (turned.stdout + turned.stderr), (turned.stdout + turned.stderr)
    # the same file upright is cropped to cover a 30 mm wide box: 709 px over 120 mm, 150 ppi
    upright = run_cli("validate", _deck(tmp_path, None, 709))
    assert "wide.png prints at 150 ppi" in (upright.stdout + upright.stderr), (upright.stdout + upright.stderr)
    # and a turned picture with too few pixels is still caught: 354 px over 60 mm
    low = run_cli("validate", _deck(tmp_path, 270, 354))
    assert "wide.png prints at 150 ppi" in (low.stdout + low.stderr), (low.stdout + low.stderr)


def test_svg_features_svglib_leaves_out_are_warned_by_file_and_feature(run_cli, tmp_path):
    (tmp_path / "fancy.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">'
        '<defs><pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><circle cx="5" cy="5" r="3"/>'
        '</pattern><filter id="f"><feGaussianBlur stdDeviation="3"/></filter></defs>'
        '<rect width="100" height="100" fill="url(#p)"/><circle cx="50" cy="50" r="20" filter="url(#f)"/>'
        '<rect width="10" height="10" style="mix-blend-mode: multiply"/></svg>', encoding="utf-8")
    element = ('name = "picture"\ntype = "image"\nsrc = "fancy.svg"\nx = "10mm"\ny = "10mm"\nwidth = "30mm"\n'
               'height = "30mm"\n')
    result = run_cli("validate", deck_with_layout(tmp_path, "fancy", element, cards=1))
    assert result.exit_code == 0, (result.stdout + result.stderr)  # warnings, not errors: the card is drawn without them
    for feature in ("a pattern fill (<pattern>)", "a filter (<filter>", "a blend mode (mix-blend-mode)"):
        assert f"fancy.svg: uses {feature}" in (result.stdout + result.stderr), (result.stdout + result.stderr)
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "fancy.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                                     '<rect width="10" height="10" fill="#f00"/></svg>', encoding="utf-8")
    quiet = run_cli("validate", deck_with_layout(plain, "fancy", element, cards=1))
    assert "leaves out" not in (quiet.stdout + quiet.stderr), (quiet.stdout + quiet.stderr)
