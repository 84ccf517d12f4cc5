"""A small raster image that draws lines, rectangles and text and saves as PNG,
in the standard library alone.

ewc.testing draws its plots with matplotlib where it is importable; this is
what it draws with where it is not (the dev machine's Debian python3 has
NumPy but no matplotlib, and nothing can be installed there). Only what a
line chart needs: pixels in RGB, lines of a width and a dash pattern,
filled and blended rectangles, and text in a 5x8 bitmap font (ASCII, at any
integer scale, across or upwards). _chart.py lays the chart out with it.

PNG (RFC 2083 / ISO 15948) is written as the simplest valid file: 8-bit RGB
(colour type 2), no interlace, each scanline with filter 0 (none), all of
it in one zlib stream in one IDAT chunk; a chart of flat colours compresses
to a few tens of KiB that way (a 960x600 chart: about 20 KiB).
"""

import struct
import zlib

#===------------------------------------------------------------------------===#
# The font
#===------------------------------------------------------------------------===#

# ASCII 32 (space) to 126 (~), 16 hex digits a glyph: 8 rows top to bottom,
# two hex digits a row, bit 4 the leftmost of the 5 columns. Capitals and
# digits stand on row 6 (7 rows tall, the classic 5x7 cell); row 7 holds
# descenders (g, j, p, q, y, the comma, the underscore). Drawn for ewc;
# each glyph was checked by eye on a rendered sheet of all 95.
_FONT_HEX = (
    "000000000000000004040404040004000a0a0a00000000000a0a1f0a1f0a0a00"  #  !"#
    "040f140e051e040018190204081303000c12140815120d000404080000000000"  # $%&'
    "020408080804020008040202020408000004150e150400000004041f04040000"  # ()*+
    "00000000000c04080000001f0000000000000000000c0c000001020408100000"  # ,-./
    "0e11131519110e00040c040404040e000e11010204081f001f02040201110e00"  # 0123
    "02060a121f0202001f101e0101110e000608101e11110e001f01020408080800"  # 4567
    "0e11110e11110e000e11110f01020c00000c0c000c0c0000000c0c000c040800"  # 89:;
    "020408100804020000001f001f00000008040201020408000e11010204000400"  # <=>?
    "0e11010d15150e000e11111f111111001e11111e11111e000e11101010110e00"  # @ABC
    "1c12111111121c001f10101e10101f001f10101e101010000e11101711110f00"  # DEFG
    "1111111f111111000e04040404040e000702020202120c001112141814121100"  # HIJK
    "1010101010101f00111b15151111110011111915131111000e11111111110e00"  # LMNO
    "1e11111e101010000e11111115120d001e11111e141211000f10100e01011e00"  # PQRS
    "1f040404040404001111111111110e0011111111110a04001111111515150a00"  # TUVW
    "11110a040a1111001111110a040404001f01020408101f000e08080808080e00"  # XYZ[
    "00100804020100000e02020202020e00040a110000000000000000000000001f"  # \]^_
    "080402000000000000000e010f110f001010161911111e0000000e1010110e00"  # `abc
    "01010d1311110f0000000e111f100e000609081c0808080000000f11110f010e"  # defg
    "101016191111110004000c0404040e00020006020202120c1010121418141200"  # hijk
    "0c04040404040e0000001a1515151500000016191111110000000e1111110e00"  # lmno
    "00001e11111e101000000f11110f0101000016191010100000000f100e011e00"  # pqrs
    "08081c08080906000000111111130d0000001111110a04000000111115150a00"  # tuvw
    "0000110a040a110000001111110f010e00001f0204081f000204040804040200"  # xyz{
    "040404040404040008040402040408000000081502000000"  # |}~
)

GLYPH_WIDTH, GLYPH_HEIGHT = 5, 8
# One blank column between letters, as the 5x7 fonts of text terminals.
ADVANCE = GLYPH_WIDTH + 1

# Each glyph as its lit (column, row) pixels, decoded once at import.
_GLYPHS = {}
for _code in range(32, 127):
    _hex = _FONT_HEX[(_code - 32) * 16:(_code - 31) * 16]
    _GLYPHS[chr(_code)] = tuple(
        (column, row) for row in range(GLYPH_HEIGHT)
        for column in range(GLYPH_WIDTH)
        if int(_hex[2 * row:2 * row + 2], 16) >> (GLYPH_WIDTH - 1 - column) & 1)
del _code, _hex


def text_width(text, scale=1):
    """Pixels that `text` takes across at `scale` (no trailing gap)."""
    return max(0, len(text) * ADVANCE - 1) * scale


#===------------------------------------------------------------------------===#
# The image
#===------------------------------------------------------------------------===#

# On and off lengths in pixels along a line for matplotlib's line styles,
# close to what matplotlib draws at 2 px: "--" dashes, ":" dots, "-." both.
DASHES = {"-": None, "solid": None, "--": (8, 5), "dashed": (8, 5),
          ":": (2, 3), "dotted": (2, 3), "-.": (8, 3, 2, 3),
          "dashdot": (8, 3, 2, 3)}


class Image:
    """`width` x `height` RGB pixels, (0, 0) top left, filled with
    `background`. Colours are (r, g, b) tuples of 0-255; drawing outside the
    image is clipped."""

    def __init__(self, width, height, background=(255, 255, 255)):
        if width <= 0 or height <= 0:
            raise ValueError("an image needs a positive size, got %dx%d"
                             % (width, height))
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(background) * (width * height))

    def get(self, x, y):
        i = 3 * (y * self.width + x)
        return tuple(self.pixels[i:i + 3])

    def set(self, x, y, color):
        if 0 <= x < self.width and 0 <= y < self.height:
            i = 3 * (y * self.width + x)
            self.pixels[i:i + 3] = bytes(color)

    def fill_rect(self, x0, y0, x1, y1, color, alpha=1.0):
        """Fills x0 <= x < x1, y0 <= y < y1; with alpha < 1, blends `color`
        over what is there (a band between a line's min and max)."""
        x0, x1 = max(0, x0), min(self.width, x1)
        y0, y1 = max(0, y0), min(self.height, y1)
        if x0 >= x1:
            return
        if alpha >= 1.0:
            row = bytes(color) * (x1 - x0)
            for y in range(y0, y1):
                i = 3 * (y * self.width + x0)
                self.pixels[i:i + len(row)] = row
            return
        for y in range(y0, y1):
            for x in range(x0, x1):
                old = self.get(x, y)
                self.set(x, y, tuple(round(o + alpha * (c - o))
                                     for o, c in zip(old, color)))

    def line(self, x0, y0, x1, y1, color, width=1, dashes=None, phase=0):
        """A line from (x0, y0) to (x1, y1), `width` pixels thick, solid or
        in `dashes` (on, off, ... lengths in pixels), starting `phase`
        pixels into the pattern. Returns the phase at its end, so that a
        polyline's dashes run on across its corners."""
        x0, y0, x1, y1 = round(x0), round(y0), round(x1), round(y1)
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        error = dx + dy
        period = sum(dashes) if dashes else 0
        low = -(width // 2)
        # Bresenham's line: one pixel (one width x width square) per step.
        while True:
            if not dashes or _dash_on(dashes, phase % period):
                for ox in range(low, low + width):
                    for oy in range(low, low + width):
                        self.set(x0 + ox, y0 + oy, color)
            phase += 1
            if x0 == x1 and y0 == y1:
                return phase
            doubled = 2 * error
            if doubled >= dy:
                error += dy
                x0 += sx
            if doubled <= dx:
                error += dx
                y0 += sy

    def polyline(self, points, color, width=1, dashes=None):
        phase = 0
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            # Less one: the corner pixel is the next segment's first.
            phase = self.line(x0, y0, x1, y1, color, width, dashes, phase) - 1

    def text(self, x, y, text, color, scale=1, upward=False):
        """`text` with its top left corner at (x, y), each font pixel a
        scale x scale square. upward=True: rotated a quarter turn
        anticlockwise, read bottom to top (a y axis label), its bottom left
        corner at (x, y). Characters outside printable ASCII show as '?'."""
        for index, char in enumerate(text):
            offset = index * ADVANCE
            for column, row in _GLYPHS.get(char, _GLYPHS["?"]):
                if upward:
                    px, py = x + row * scale, y - (offset + column + 1) * scale
                else:
                    px, py = x + (offset + column) * scale, y + row * scale
                self.fill_rect(px, py, px + scale, py + scale, color)

    def encode(self):
        """The image as the bytes of a PNG file."""
        stride = 3 * self.width
        raw = b"".join(b"\x00" + bytes(self.pixels[y * stride:(y + 1) * stride])
                       for y in range(self.height))
        # 8 bits a sample, colour type 2 (RGB), compression 0 (deflate),
        # filter method 0 (the only one), no interlace.
        header = struct.pack(">IIBBBBB", self.width, self.height,
                             8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) +
                _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self.encode())


def _dash_on(dashes, position):
    """Whether `position` (0 <= position < the period) falls on an 'on'
    length of `dashes`."""
    for index, length in enumerate(dashes):
        if position < length:
            return index % 2 == 0
        position -= length
    return False


def _chunk(kind, data):
    """A PNG chunk: length, type, data, and the CRC-32 of type and data."""
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
