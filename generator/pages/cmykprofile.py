"""The CMYK output profile print-shop files declare: computed here, byte for byte the same.

PDF/X-4 files name the printing condition they were made for and embed its ICC profile.
The characterized conditions (FOGRA39, GRACoL 2006) come with profiles no package on
the Python package index ships under a licence that lets a program redistribute them,
and the kit must install with pip alone. So the kit computes a profile of its own, as
small and as plain as a profile can be, and says so in the file (its description and
the output intent's ``Info``): a print shop's RIP converts from it to its own press.

The model is the ideal subtractive press on white paper, in sRGB's own terms: cyan,
magenta and yellow each filter one sRGB primary, black all three, and filters multiply
(the naive conversion most viewers use to show CMYK without a profile). The grey part
of every colour is printed with black alone (full grey component replacement). So sRGB
black is black ink only, a grey is a tint of black, and a colour goes out and back
through the profile unchanged (``to_cmyk`` and ``to_srgb`` invert each other). One of
cyan, magenta and yellow is always zero, so total ink never exceeds 300 %.

The profile is an ICC version 2.4 output profile (class ``prtr``): CMYK to Lab (``A2B0``)
and Lab to CMYK (``B2A0``) as 16-bit lookup tables, a gamut table, the media white point,
a description and a copyright notice. LittleCMS (Pillow's ``ImageCms``) reads it.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable, Iterator

DESCRIPTION = "quarterdeck ideal CMYK (full GCR, 300% ink), computed, not characterized"
"""What the profile says it is; the output intent repeats it."""
CONDITION = "Custom"
"""The output intent's condition identifier: no registered characterization is claimed."""
COPYRIGHT = "No copyright: computed by quarterdeck (MIT licence), free to use and share."

_D50 = (0.9642, 1.0, 0.8249)
_TO_XYZ = ((0.4360747, 0.3850649, 0.1430804),
           (0.2225045, 0.7168786, 0.0606169),
           (0.0139322, 0.0971045, 0.7141733))
"""sRGB's linear primaries to XYZ, adapted to D50 (the profile connection space)."""
_FROM_XYZ = ((3.1338561, -1.6168667, -0.4906146),
             (-0.9787684, 1.9161415, 0.0334540),
             (0.0719453, -0.2289914, 1.4052427))

CMYK_GRID = 9
"""Points along each ink of the CMYK-to-Lab table (9^4 points)."""
LAB_GRID = 17
"""Points along each axis of the Lab-to-CMYK table (17^3 points)."""


def to_cmyk(rgb: tuple[float, float, float]) -> tuple[float, float, float, float]:
    """An sRGB colour (0..1 each) as the profile's inks (0..1 each), grey in black alone."""
    light = max(rgb)
    if light <= 0.0:
        return (0.0, 0.0, 0.0, 1.0)
    c, m, y = (1.0 - v / light for v in rgb)
    return (c, m, y, 1.0 - light)


def to_srgb(cmyk: tuple[float, float, float, float]) -> tuple[float, float, float]:
    """The profile's inks (0..1 each) as the sRGB colour they print."""
    c, m, y, k = cmyk
    return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))


def _neutral(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """A colour within a hair of grey, made grey.

    A grid point on the grey axis comes back from Lab a hair off grey; near black that
    hair would be printed as a full colour ink under the black.
    """
    if max(rgb) - min(rgb) < 0.004:
        grey = sum(rgb) / 3
        return (grey, grey, grey)
    return rgb


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _gamma(v: float) -> float:
    v = min(max(v, 0.0), 1.0)
    return 12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def _f(t: float) -> float:
    return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116


def _f_inv(t: float) -> float:
    return t ** 3 if t ** 3 > 216 / 24389 else (116 * t - 16) * 27 / 24389


def srgb_to_lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """An sRGB colour as CIE Lab under D50."""
    lin = [_linear(v) for v in rgb]
    x, y, z = (sum(m * v for m, v in zip(row, lin, strict=True)) for row in _TO_XYZ)
    fx, fy, fz = _f(x / _D50[0]), _f(y / _D50[1]), _f(z / _D50[2])
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def lab_to_srgb(lab: tuple[float, float, float]) -> tuple[float, float, float]:
    """A CIE Lab colour (D50) as the nearest sRGB colour (clipped to the sRGB gamut)."""
    fy = (lab[0] + 16) / 116
    xyz = (_D50[0] * _f_inv(fy + lab[1] / 500), _D50[1] * _f_inv(fy),
           _D50[2] * _f_inv(fy - lab[2] / 200))
    r, g, b = (_gamma(sum(m * v for m, v in zip(row, xyz, strict=True))) for row in _FROM_XYZ)
    return (r, g, b)


def _u16(v: float) -> int:
    return max(0, min(65535, round(v * 65535)))


def _lab16(lab: tuple[float, float, float]) -> tuple[int, int, int]:
    """Lab in the version 2 16-bit encoding (L 0..100 on 0..0xFF00, a and b +128 x 256)."""
    return (max(0, min(65535, round(lab[0] * 652.8))),
            max(0, min(65535, round((lab[1] + 128) * 256))),
            max(0, min(65535, round((lab[2] + 128) * 256))))


def _grid(points: int, channels: int) -> Iterator[tuple[float, ...]]:
    """Every grid point (0..1 each channel), the first channel varying slowest."""
    if channels == 0:
        yield ()
        return
    for i in range(points):
        for rest in _grid(points, channels - 1):
            yield (i / (points - 1), *rest)


def _lut16(inputs: int, outputs: int, points: int,
           table: Callable[[tuple[float, ...]], tuple[int, ...]]) -> bytes:
    """An ICC ``mft2`` (lut16Type) tag: identity curves around the table ``table``."""
    identity = struct.pack(">9i", 65536, 0, 0, 0, 65536, 0, 0, 0, 65536)
    head = b"mft2" + bytes(4) + struct.pack(">BBBx", inputs, outputs, points) + identity
    head += struct.pack(">HH", 2, 2)
    curves_in = struct.pack(">HH", 0, 65535) * inputs
    clut = b"".join(struct.pack(f">{outputs}H", *table(point))
                    for point in _grid(points, inputs))
    curves_out = struct.pack(">HH", 0, 65535) * outputs
    return head + curves_in + clut + curves_out


def _from_lab16(point: tuple[float, ...]) -> tuple[float, float, float]:
    """A Lab grid point (0..1 on each 16-bit axis) as Lab values."""
    return (point[0] * 65535 / 652.8, point[1] * 65535 / 256 - 128,
            point[2] * 65535 / 256 - 128)


def _ink_to_lab(ink: tuple[float, ...]) -> tuple[int, ...]:
    """One point of the CMYK-to-Lab table."""
    c, m, y, k = ink
    return _lab16(srgb_to_lab(to_srgb((c, m, y, k))))


def _lab_to_ink(lab: tuple[float, ...]) -> tuple[int, ...]:
    """One point of the Lab-to-CMYK table."""
    return tuple(map(_u16, to_cmyk(_neutral(lab_to_srgb(_from_lab16(lab))))))


def _text_description(text: str) -> bytes:
    ascii_text = text.encode("ascii") + b"\0"
    return (b"desc" + bytes(4) + struct.pack(">I", len(ascii_text)) + ascii_text
            + struct.pack(">II", 0, 0) + struct.pack(">HB", 0, 0) + bytes(67))


def _s15(v: float) -> bytes:
    return struct.pack(">i", round(v * 65536))


@functools.cache
def profile() -> bytes:
    """The profile's bytes (computed once a process; the same in every build)."""
    tags = [
        (b"desc", _text_description(DESCRIPTION)),
        (b"cprt", b"text" + bytes(4) + COPYRIGHT.encode("ascii") + b"\0"),
        (b"wtpt", b"XYZ " + bytes(4) + b"".join(map(_s15, _D50))),
        (b"A2B0", _lut16(4, 3, CMYK_GRID, _ink_to_lab)),
        (b"B2A0", _lut16(3, 4, LAB_GRID, _lab_to_ink)),
        (b"gamt", _lut16(3, 1, 2, lambda lab: (0,))),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, body = [struct.pack(">I", len(tags))], b""
    for sig, data in tags:
        data += bytes(-len(data) % 4)  # tags start on four-byte boundaries
        table.append(sig + struct.pack(">II", offset + len(body), len(data)))
        body += data
    size = offset + len(body)
    header = (struct.pack(">I", size) + bytes(4) + bytes((2, 0x40, 0, 0)) + b"prtr"
              + b"CMYK" + b"Lab " + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp"
              + bytes(4) + bytes(4) + bytes(4) + bytes(4) + bytes(8)
              + struct.pack(">I", 0) + b"".join(map(_s15, _D50)) + b"qdck" + bytes(44))
    assert len(header) == 128
    return header + b"".join(table) + body
