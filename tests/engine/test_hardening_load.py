"""Hostile input files get a located message and exit 2, never an internal error (issue 20).

Each test feeds one crafted file through the command line (``check PATH`` or a build with
``--data``/``--tables``/``--sprue``) and asserts the exact ``file:line:column: field:
found X, expected Y`` line. Items covered: marker images (SVG references, sizes, gzip,
PNG bombs and corrupt streams), the one YAML loader's limits (nesting, recursive aliases,
complex keys, huge numbers, non-finite floats, impossible dates, pipes and devices, NUL
bytes) and the schemas' bounds (names, lengths, rounds, scales).
"""

from __future__ import annotations

import gzip
import os
import struct
import zlib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from generator.cli.main import main
from generator.core.pathargs import NUL_MESSAGE, SafePath
from tests.paths import ROOT

FLETCHER = (ROOT / "shipdata" / "classes" / "us" / "fletcher.yaml").read_text(encoding="utf-8")
KOMANDORSKI = (ROOT / "shipdata" / "naval_action" / "scenarios"
               / "komandorski.yaml").read_text(encoding="utf-8")
CARRIER_TEST = (ROOT / "tests" / "data" / "markers" / "carrier-test.yaml").read_text(
    encoding="utf-8")


def invoke(*args: str) -> Result:
    """Run the CLI; an internal error (exit 70) or a traceback fails the test at once."""
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code != 70, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    return result


def located(result: Result, line: str) -> None:
    """The command failed as bad data (exit 2) and printed exactly ``line``."""
    assert result.exit_code == 2, result.output
    assert line in result.output.splitlines(), result.output


def where(text: str, needle: str) -> str:
    """``line:column`` (1-based) of the first ``needle`` in ``text``."""
    before = text[:text.index(needle)]
    return f"{before.count(chr(10)) + 1}:{len(before) - before.rfind(chr(10))}"


def data_with(tmp_path: Path, name: str, text: str) -> tuple[Path, Path]:
    """A data folder holding one file; returns the folder and the file."""
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    path = data / name
    path.write_text(text, encoding="utf-8")
    return data, path


# --- marker images -------------------------------------------------------------------

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
BAD_SVGS = {
    "image-outside": (SVG + 'width="100" height="20"><image xlink:href="../outside.png" '
                      'width="10" height="10"/></svg>',
                      "expected an SVG that refers to nothing outside itself (its <image> "
                      "links '../outside.png')"),
    "use-outside": (SVG + 'width="100" height="20"><use href="../other.svg#hull"/></svg>',
                    "expected an SVG that refers to nothing outside itself (its <use> links "
                    "'../other.svg#hull')"),
    "data-png": (SVG + 'width="100" height="20"><image href="data:image/png;base64,iVBORw0K" '
                 'width="10" height="10"/></svg>',
                 "expected an SVG that refers to nothing outside itself (its <image> links "
                 "'data:image/png;base64,iVBORw0K')"),
    "huge-viewbox": (SVG + 'viewBox="0 0 1e308 10" width="100" height="20"><rect width="5" '
                     'height="5"/></svg>',
                     "expected an SVG of at most 100000 units a side (its viewBox is "
                     "'0 0 1e308 10')"),
    "huge-width": (SVG + 'width="1e308" height="20"><rect width="5" height="5"/></svg>',
                   "expected an SVG of at most 100000 units a side (its width is '1e308')"),
    "entity": ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
               + SVG + 'width="100" height="20"><text>&x;</text></svg>',
               "expected an SVG without DOCTYPE or ENTITY declarations"),
    "xinclude": ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/'
                 'XInclude" width="100" height="20"><xi:include href="/etc/hostname" '
                 'parse="text"/></svg>', "expected an SVG without XInclude"),
    "css-import": (SVG + 'width="100" height="20"><style>@import url(theme.css);</style>'
                   '<rect width="5" height="5"/></svg>',
                   "expected an SVG without CSS @import (in its <style>)"),
    "css-url": (SVG + 'width="100" height="20"><rect style="fill:url(other.svg#g)" width="5" '
                'height="5"/></svg>',
                "expected an SVG that refers to nothing outside itself (its <rect> uses "
                "url(other.svg#g))"),
    "shape-far-away": (SVG + 'width="100" height="20"><rect width="1e308" height="5"/></svg>',
                       "expected an SVG whose shapes lie within 1,000,000 units of its origin "
                       "(they reach 7.5e+307)"),
    "infinite-transform": (SVG + 'width="100" height="20"><g transform="scale(1e308)"><rect '
                           'width="5" height="5"/></g></svg>',
                           "expected an SVG whose shapes lie within 1,000,000 units of its "
                           "origin (they reach no finite distance)"),
    "stylesheet": ('<?xml-stylesheet href="theme.css"?>' + SVG + 'width="100" height="20">'
                   '<rect width="5" height="5"/></svg>',
                   "expected an SVG without processing instructions (it has <?xml-stylesheet?>)"),
    "use-itself": (SVG + 'width="100" height="20"><g id="a"><use href="#a"/></g></svg>',
                   "expected an SVG whose <use> copies hold no <use> themselves (it copies "
                   "'#a')"),
}


def _class_with_image(tmp_path: Path, image: str) -> tuple[Path, Path, str]:
    text = FLETCHER + f"marker_image: {image}\n"
    data, path = data_with(tmp_path, "fletcher.yaml", text)
    return data, path, where(text, f"marker_image: {image}").split(":")[0]


@pytest.mark.parametrize("case", sorted(BAD_SVGS))
def test_svg_marker_images_refer_to_nothing_outside(tmp_path: Path, case: str) -> None:
    svg, expected = BAD_SVGS[case]
    data, path, line = _class_with_image(tmp_path, "top.svg")
    (data / "top.svg").write_text(svg, encoding="utf-8")
    (tmp_path / "outside.png").write_bytes(_png(10, 10, zlib.compress(b"\0" * 110)))
    located(invoke("check", str(data)),
            f"{path}:{line}:15: marker_image: found 'top.svg', {expected}")


def test_a_self_contained_svg_is_checked_and_drawn(tmp_path: Path) -> None:
    import pypdfium2

    data, _, _ = _class_with_image(tmp_path, "top.svg")
    (data / "top.svg").write_text(SVG + 'width="100" height="20"><defs><g id="hull"><rect '
                                  'width="90" height="14" style="fill:#123456"/></g></defs>'
                                  '<use href="#hull" x="5" y="3"/></svg>', encoding="utf-8")
    (data / "carrier-test.yaml").write_text(CARRIER_TEST, encoding="utf-8")
    assert invoke("check", str(data)).exit_code == 0
    result = invoke("markers", "carrier-test", "--data", str(data), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    pdf = pypdfium2.PdfDocument(tmp_path / "carrier-test" / "markers" / "markers-us.pdf")
    counts = pdf[0].render(scale=2).to_pil().convert("RGB").getcolors(1 << 24)
    colours = {colour: n for n, colour in counts}
    # The copied hull's own colour is on the sheet: the <use> copy was drawn.
    assert colours.get((0x12, 0x34, 0x56), 0) > 20


def test_gzip_svg_is_refused(tmp_path: Path) -> None:
    data, path, line = _class_with_image(tmp_path, "top.svg")
    (data / "top.svg").write_bytes(gzip.compress(BAD_SVGS["image-outside"][0].encode()))
    located(invoke("check", str(data)),
            f"{path}:{line}:15: marker_image: found 'top.svg', expected an uncompressed image "
            "(gzip-compressed files are refused)")


def _chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def _png(width: int, height: int, idat: bytes) -> bytes:
    """A greyscale 8-bit PNG with the given header size and (possibly bogus) data."""
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0,
                                                               0, 0, 0))
            + _chunk(b"IDAT", idat) + _chunk(b"IEND", b""))


@pytest.mark.parametrize(("size", "expected"), [
    # A tiny file whose header promises ten gigapixels: refused before decoding.
    (100_000, "expected at most 4096 px a side (it is 100000 x 100000)"),
    # Within the limit but its stream ends early: decoded in full, so refused in check.
    (4000, "expected a readable PNG image (image file is truncated (0 bytes not processed))"),
])
def test_png_bombs_and_truncated_pngs_are_refused(tmp_path: Path, size: int,
                                                  expected: str) -> None:
    data, path, line = _class_with_image(tmp_path, "top.png")
    (data / "top.png").write_bytes(_png(size, size, zlib.compress(b"\0" * 1000)))
    located(invoke("check", str(data)),
            f"{path}:{line}:15: marker_image: found 'top.png', {expected}")


def test_corrupt_png_stream_is_refused_in_check_and_build(tmp_path: Path) -> None:
    data, path, line = _class_with_image(tmp_path, "top.png")
    (data / "top.png").write_bytes(_png(100, 20, b"not a zlib stream"))
    (data / "carrier-test.yaml").write_text(CARRIER_TEST, encoding="utf-8")
    message = (f"{path}:{line}:15: marker_image: found 'top.png', expected a readable PNG "
               "image (broken data stream when reading image file)")
    located(invoke("check", str(data)), message)
    located(invoke("build", "carrier-test", "--data", str(data), "--out",
                   str(tmp_path / "out"), "-q"), message)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


# --- the one loader -------------------------------------------------------------------

def test_nesting_past_the_limit_is_located(tmp_path: Path) -> None:
    data, path = data_with(tmp_path, "deep.yaml", "kind: ship-class\nx: " + "[" * 600
                           + "]" * 600 + "\n")
    located(invoke("check", str(data)),
            f"{path}:2:67: x{'.0' * 63}: found lists or mappings nested more than 64 deep, "
            "expected at most 64 levels")


def test_nested_mappings_past_the_limit_in_a_tables_file(tmp_path: Path) -> None:
    tables = tmp_path / "tables.yaml"
    tables.write_text("a: " + "{b: " * 70 + "1" + "}" * 70 + "\n", encoding="utf-8")
    located(invoke("markers", "savo-island", "--tables", str(tables), "--out",
                   str(tmp_path / "out")),
            f"{tables}:1:{3 + 63 * 4 + 1}: a{'.b' * 63}: found lists or mappings nested "
            "more than 64 deep, expected at most 64 levels")


def test_nesting_past_the_limit_in_a_sprue_file(tmp_path: Path) -> None:
    sprue = tmp_path / "sprue.yaml"
    sprue.write_text("kind: sprue\nregions: " + "[" * 70 + "]" * 70 + "\n", encoding="utf-8")
    located(invoke("markers", "savo-island", "--sprue", str(sprue), "--out",
                   str(tmp_path / "out")),
            f"{sprue}:2:{10 + 63}: regions{'.0' * 63}: found lists or mappings nested more "
            "than 64 deep, expected at most 64 levels")


def test_recursive_alias_is_located(tmp_path: Path) -> None:
    data, path = data_with(tmp_path, "loop.yaml", "kind: ship-class\nx: &a [*a]\n")
    located(invoke("check", str(data)),
            f"{path}:2:4: x.0: found an alias inside its own anchor (a value that contains "
            "itself), expected data that ends")


def test_complex_key_is_located_without_building_it(tmp_path: Path) -> None:
    data, path = data_with(tmp_path, "keys.yaml",
                           "kind: ship-class\n? &k [" + "[" * 600 + "]" * 600 + "]\n: 1\n")
    located(invoke("check", str(data)),
            f"{path}:2:3: found a complex key (a list or mapping), expected a name")


def test_integer_past_python_digit_limit_is_located(tmp_path: Path) -> None:
    text = FLETCHER.replace("rounds_per_gun: 350", "rounds_per_gun: " + "9" * 5000, 1)
    data, path = data_with(tmp_path, "fletcher.yaml", text)
    located(invoke("check", str(data)),
            f"{path}:{where(text, '9' * 5000)}: guns.0.rounds_per_gun: found a whole number "
            "of 5000 digits, expected at most 18 digits")


@pytest.mark.parametrize(("value", "expected"), [
    (".inf", "found '.inf', expected a finite number"),
    ("-.inf", "found '-.inf', expected a finite number"),
    (".nan", "found '.nan', expected a finite number"),
    # 20-27 ft passed ``check`` and then crashed the silhouette: too short to draw.
    ("20.5", "found 20.5, expected a number of at least 50"),
    ("25", "found 25, expected a number of at least 50"),
    ("27", "found 27, expected a number of at least 50"),
])
def test_length_is_a_finite_drawable_number(tmp_path: Path, value: str, expected: str) -> None:
    text = FLETCHER.replace("length_ft: 376.5", f"length_ft: {value}")
    data, path = data_with(tmp_path, "fletcher.yaml", text)
    line = where(text, "length_ft:").split(":")[0]
    located(invoke("check", str(data)), f"{path}:{line}:12: length_ft: {expected}")


@pytest.mark.parametrize("date", ["1942-02-30", "1942-13-01", "0000-01-01"])
def test_impossible_dates_are_located(tmp_path: Path, date: str) -> None:
    text = KOMANDORSKI.replace("date: 1943-03-26", f"date: {date}")
    assert text != KOMANDORSKI
    data, path = data_with(tmp_path, "komandorski.yaml", text)
    located(invoke("check", str(data)),
            f"{path}:{where(text, date)}: date: found '{date}', expected a real date "
            "(YYYY-MM-DD)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_named_pipe_is_refused_not_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    located(invoke("check", str(fifo)), f"{fifo}: found a named pipe, expected a YAML file")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_device_is_refused_not_read() -> None:
    located(invoke("check", "/dev/zero"), "/dev/zero: found a device, expected a YAML file")


def test_control_character_is_located(tmp_path: Path) -> None:
    data, path = data_with(tmp_path, "bell.yaml", "kind: ship-class\nname: a\x07b\n")
    located(invoke("check", str(data)),
            f"{path}:2:8: found the control character #x0007, expected printable text")


def test_nul_byte_in_a_marker_image_path(tmp_path: Path) -> None:
    text = FLETCHER + 'marker_image: "top\\0.png"\n'
    data, path = data_with(tmp_path, "fletcher.yaml", text)
    located(invoke("check", str(data)),
            f"{path}:{where(text, 'marker_image')[:-1]}15: marker_image: found 'top\\x00.png', "
            "expected a file name without NUL bytes")


def test_safe_path_refuses_a_nul_byte() -> None:
    @click.command()
    @click.argument("path", type=SafePath())
    def probe(path: str) -> None:
        click.echo(f"got {path}")

    result = CliRunner().invoke(probe, ["a\0b.yaml"])
    assert result.exit_code == 2 and NUL_MESSAGE in result.output, result.output
    assert CliRunner().invoke(probe, ["ab.yaml"]).output == "got ab.yaml\n"


def test_nul_byte_in_a_path_is_a_usage_error() -> None:
    for args in (["check", "a\0b.yaml"], ["build", "komandorski", "--data", "a\0b"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and NUL_MESSAGE in result.output, result.output


# --- bounds of the schemas -------------------------------------------------------------

def test_rounds_per_gun_past_what_a_sheet_can_hold(tmp_path: Path) -> None:
    text = FLETCHER.replace("rounds_per_gun: 350", "rounds_per_gun: 1000000000", 1)
    data, path = data_with(tmp_path, "fletcher.yaml", text)
    located(invoke("check", str(data)),
            f"{path}:{where(text, '1000000000')}: guns.0.rounds_per_gun: found 1000000000, "
            "expected a number of at most 2000")
    text = FLETCHER.replace("rounds_per_gun: 350", "rounds_per_gun: 1e9", 1)
    path.write_text(text, encoding="utf-8")
    located(invoke("check", str(data)),
            f"{path}:{where(text, '1e9')}: guns.0.rounds_per_gun: found '1e9', expected a "
            "whole number")


def test_scenario_rounds_left_are_bounded(tmp_path: Path) -> None:
    text = KOMANDORSKI.replace("{class: myoko, name: Nachi}", "{class: myoko, name: Nachi, "
                               "special: {rounds_per_gun: {BOW: 1000000000}}}")
    data, path = data_with(tmp_path, "komandorski.yaml", text)
    located(invoke("check", str(data)),
            f"{path}:{where(text, '1000000000')}: sides.1.ships.0.special.rounds_per_gun.BOW: "
            "found 1000000000, expected a number of at most 2000")


def test_names_are_capped(tmp_path: Path) -> None:
    long_name = "Fletcher" * 8
    text = FLETCHER.replace("name: Fletcher\n", f"name: {long_name}\n", 1)
    data, path = data_with(tmp_path, "fletcher.yaml", text)
    located(invoke("check", str(data)),
            f"{path}:{where(text, long_name)}: name: found '{long_name[:37]}...', expected "
            "text of at most 60 character(s)")


def test_scale_with_a_zero_divisor_is_refused(tmp_path: Path) -> None:
    text = KOMANDORSKI.replace("scale: tabletop", "scale: 1000/0 yd per cm")
    assert text != KOMANDORSKI
    data, path = data_with(tmp_path, "komandorski.yaml", text)
    located(invoke("check", str(data)),
            f"{path}:{where(text, '1000/0')}: scale: found '1000/0 yd per cm', expected a "
            "fraction whose divisor is not 0")


def test_clipping_a_long_label_takes_logarithmic_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.core import fonts

    calls: list[str] = []
    measure = fonts.string_width

    def counted(text: str, font: str, size: float) -> float:
        calls.append(text)
        return measure(text, font, size)

    monkeypatch.setattr(fonts, "string_width", counted)
    clipped = fonts.clip_text("Tribal" * 20_000, fonts.BOLD, 8, 50)
    assert len(calls) <= 2 + 17  # the whole text, then a bisection over 120,000 lengths
    assert clipped.endswith("…") and measure(clipped, fonts.BOLD, 8) <= 50
    # The longest prefix that fits: one more character would not.
    longer = "Tribal" * 20_000
    kept = len(clipped) - 1
    assert measure(longer[:kept + 1] + "…", fonts.BOLD, 8) > 50


def test_scale_option_with_a_zero_divisor_is_a_usage_error(tmp_path: Path) -> None:
    located(invoke("rulers", "--scale", "1/0 yd per cm", "--out", str(tmp_path)),
            "error: --scale: found '1/0 yd per cm', expected a fraction whose divisor is not 0")
