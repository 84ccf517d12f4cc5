"""A line chart drawn into a PNG without matplotlib: ewc.testing's plot where
matplotlib is not importable (_png.py says why that happens).

line_plot() draws what matplotlib draws for perf_report's plot, in the
same spirit if not the same pixels: axes with ticks and grid lines, linear
or logarithmic, one line per Line in its colour and line style with a dot
at each point, the band between a line's lows and highs where it has them
(15% opaque, as Triton's fill_between), the title, the axis labels and a
legend to the right of the plot.
"""

import math

from . import _png

BLACK, GRID, WHITE = (0, 0, 0), (225, 225, 225), (255, 255, 255)

# matplotlib's default colour cycle (tab10), so that the same sweep gets the
# same colours in either renderer.
CYCLE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
         "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

# The colour names Triton's tutorials pass in styles=, as matplotlib has
# them: the single letters, the CSS names they use and tab10.
_NAMED = {"b": "#0000ff", "g": "#008000", "r": "#ff0000", "c": "#00bfbf",
          "m": "#bf00bf", "y": "#bfbf00", "k": "#000000", "w": "#ffffff",
          "blue": "#0000ff", "green": "#008000", "red": "#ff0000",
          "cyan": "#00ffff", "magenta": "#ff00ff", "yellow": "#ffff00",
          "black": "#000000", "white": "#ffffff", "gray": "#808080",
          "grey": "#808080", "orange": "#ffa500", "purple": "#800080",
          "brown": "#a52a2a", "pink": "#ffc0cb", "olive": "#808000"}
_NAMED.update(("tab:" + name, hex_color) for name, hex_color in zip(
    ["blue", "orange", "green", "red", "purple", "brown", "pink", "gray",
     "olive", "cyan"], CYCLE))

# The 5x8 font's pixels as 2x2 squares: letters 10x16, about matplotlib's
# 10 pt at 100 dpi.
TEXT_SCALE = 2
PAD = 12         # pixels between the image's edge, the labels and the plot
TICK = 5         # tick mark length in pixels
LINE_WIDTH = 2   # matplotlib's 1.5 pt at 100 dpi, rounded to whole pixels
DOT = 5          # a marker's side in pixels
LEGEND_SAMPLE = 30  # the line drawn before each name in the legend


def parse_color(color):
    """(r, g, b) from a tuple of 0-255 ints, a tuple of 0-1 floats (as
    matplotlib), '#rrggbb' or a name in _NAMED; ValueError otherwise."""
    if isinstance(color, (tuple, list)) and len(color) in (3, 4):
        if all(isinstance(c, float) for c in color[:3]):
            return tuple(round(255 * c) for c in color[:3])
        return tuple(int(c) for c in color[:3])
    if isinstance(color, str):
        spec = _NAMED.get(color.lower(), color)
        if len(spec) == 7 and spec[0] == "#":
            try:
                return tuple(int(spec[i:i + 2], 16) for i in (1, 3, 5))
            except ValueError:
                pass
    raise ValueError("unknown colour %r (use '#rrggbb', (r, g, b) or one of "
                     "%s)" % (color, ", ".join(sorted(_NAMED))))


class Line:
    """One line of the chart: points (xs[i], ys[i]), a point left out where
    a value is None or not finite; lows and highs (or None) bound the band
    drawn around it."""

    def __init__(self, name, xs, ys, color, style="-", lows=None, highs=None):
        if style not in _png.DASHES:
            raise ValueError("unknown line style %r (use one of %s)" % (
                style, ", ".join(repr(s) for s in _png.DASHES)))
        self.name, self.xs, self.ys = name, list(xs), list(ys)
        self.color, self.style = parse_color(color), style
        self.dashes = _png.DASHES[style]
        self.lows, self.highs = lows, highs


#===------------------------------------------------------------------------===#
# Axes
#===------------------------------------------------------------------------===#

def _usable(value, log):
    return (isinstance(value, (int, float)) and math.isfinite(value) and
            (value > 0 or not log))


def _is_power_of_two(value):
    return float(value).is_integer() and value >= 1 and (
        int(value) & (int(value) - 1)) == 0


class Axis:
    """Maps values to pixels between `start` and `end` (end < start for y:
    up is smaller), with ticks as (value, label)."""

    def __init__(self, values, log):
        values = [v for v in values if _usable(v, log)]
        self.log = log
        if log:
            # Powers of two (sizes 2^12 ... 2^30) get ticks at powers of two.
            self.base = 2 if values and all(map(_is_power_of_two,
                                                values)) else 10
            self.ticks = _log_ticks(values, self.base)
        else:
            self.ticks = _linear_ticks(values)
        self.lo, self.hi = self.ticks[0][0], self.ticks[-1][0]
        self.start = self.end = 0

    def place(self, start, end):
        self.start, self.end = start, end

    def __call__(self, value):
        lo, hi, v = self.lo, self.hi, value
        if self.log:
            lo, hi, v = math.log(lo), math.log(hi), math.log(value)
        return self.start + (v - lo) / (hi - lo) * (self.end - self.start)


def _linear_ticks(values, target=6):
    """Ticks at a step of 1, 2 or 5 times a power of ten, about `target` of
    them, from a multiple of the step at or below the least value to one at
    or above the greatest (matplotlib's choice, near enough)."""
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if lo == hi:
        lo, hi = lo - (abs(lo) or 1) / 2, hi + (abs(hi) or 1) / 2
    raw = (hi - lo) / target
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first, last = math.floor(lo / step), math.ceil(hi / step)
    big = max(abs(first), abs(last)) * step >= 1e6
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    ticks = []
    for i in range(first, last + 1):
        value = i * step
        label = ("0" if i == 0 else "%.3g" % value if big or step < 1e-4
                 else "%.*f" % (decimals, value))
        ticks.append((value, label))
    return ticks


def _log_ticks(values, base, most=10):
    """Ticks at whole powers of `base`, every k-th one where there would be
    more than `most`, from the power at or below the least value to the one
    at or above the greatest. Labels: 2^k, or 1, 10, 100, 1000 and 1e4 on."""
    if values:
        first = math.floor(math.log(min(values), base) + 1e-9)
        last = math.ceil(math.log(max(values), base) - 1e-9)
    else:
        first, last = 0, 1
    last = max(last, first + 1)
    every = math.ceil((last - first) / most)
    last = first + math.ceil((last - first) / every) * every
    ticks = []
    for k in range(first, last + 1, every):
        if base == 2:
            label = "2^%d" % k
        else:
            label = "%d" % 10 ** k if 0 <= k <= 3 else "1e%d" % k
        ticks.append((float(base) ** k, label))
    return ticks


#===------------------------------------------------------------------------===#
# The chart
#===------------------------------------------------------------------------===#

def line_plot(path, lines, title="", xlabel="", ylabel="", x_log=False,
              y_log=False, width=1000, height=600):
    """Draws `lines` (a list of Line) into a `width` x `height` PNG at
    `path`; lines earlier in the list are drawn under later ones. Returns
    the _png.Image."""
    xs = [x for line in lines for x in line.xs]
    ys = [y for line in lines
          for y in line.ys + (line.lows or []) + (line.highs or [])]
    x_axis, y_axis = Axis(xs, x_log), Axis(ys, y_log)

    glyph_h = _png.GLYPH_HEIGHT * TEXT_SCALE
    label_w = max(_png.text_width(label, TEXT_SCALE)
                  for _, label in y_axis.ticks)
    legend_w = max([_png.text_width(line.name, TEXT_SCALE)
                    for line in lines] + [0])
    left = PAD + (glyph_h + PAD if ylabel else 0) + label_w + TICK + 4
    right = width - PAD - (LEGEND_SAMPLE + 8 + legend_w + PAD if lines else 0)
    top = PAD + (glyph_h + PAD if title else glyph_h // 2)
    bottom = (height - PAD - (glyph_h + PAD if xlabel else 0) - glyph_h -
              TICK - 4)
    if right - left < 50 or bottom - top < 50:
        raise ValueError("a %dx%d chart leaves no room for the plot; the "
                         "names or labels are too long" % (width, height))
    x_axis.place(left, right)
    y_axis.place(bottom, top)

    image = _png.Image(width, height, WHITE)
    for value, _ in x_axis.ticks:
        image.line(x_axis(value), top, x_axis(value), bottom, GRID)
    for value, _ in y_axis.ticks:
        image.line(left, y_axis(value), right, y_axis(value), GRID)
    for line in lines:
        _draw_band(image, line, x_axis, y_axis)
    for line in lines:
        _draw_line(image, line, x_axis, y_axis)

    # The frame, the ticks and their labels.
    for x0, y0, x1, y1 in [(left, top, right, top),
                           (left, bottom, right, bottom),
                           (left, top, left, bottom),
                           (right, top, right, bottom)]:
        image.line(x0, y0, x1, y1, BLACK)
    for value, label in x_axis.ticks:
        x = round(x_axis(value))
        image.line(x, bottom, x, bottom + TICK, BLACK)
        image.text(x - _png.text_width(label, TEXT_SCALE) // 2,
                   bottom + TICK + 4, label, BLACK, TEXT_SCALE)
    for value, label in y_axis.ticks:
        y = round(y_axis(value))
        image.line(left - TICK, y, left, y, BLACK)
        image.text(left - TICK - 4 - _png.text_width(label, TEXT_SCALE),
                   y - glyph_h // 2, label, BLACK, TEXT_SCALE)

    middle_x, middle_y = (left + right) // 2, (top + bottom) // 2
    if title:
        image.text(middle_x - _png.text_width(title, TEXT_SCALE) // 2, PAD,
                   title, BLACK, TEXT_SCALE)
    if xlabel:
        image.text(middle_x - _png.text_width(xlabel, TEXT_SCALE) // 2,
                   height - PAD - glyph_h, xlabel, BLACK, TEXT_SCALE)
    if ylabel:
        image.text(PAD, middle_y + _png.text_width(ylabel, TEXT_SCALE) // 2,
                   ylabel, BLACK, TEXT_SCALE, upward=True)

    # The legend, one row a line, in the order given.
    x = right + PAD
    for row, line in enumerate(lines):
        y = top + row * (glyph_h + 8)
        image.line(x, y + glyph_h // 2, x + LEGEND_SAMPLE, y + glyph_h // 2,
                   line.color, LINE_WIDTH, line.dashes)
        image.text(x + LEGEND_SAMPLE + 8, y, line.name, BLACK, TEXT_SCALE)

    image.save(path)
    return image


def _points(line, x_axis, y_axis, ys):
    """Runs of consecutive drawable points of `line` with values `ys`, as
    pixel positions: a value that cannot be drawn (None, NaN, not positive
    on a log axis) ends a run, as it leaves a gap in matplotlib."""
    runs, run = [], []
    for x, y in zip(line.xs, ys):
        if _usable(x, x_axis.log) and _usable(y, y_axis.log):
            run.append((x_axis(x), y_axis(y)))
        elif run:
            runs.append(run)
            run = []
    return runs + [run] if run else runs


def _draw_line(image, line, x_axis, y_axis):
    half = DOT // 2
    for run in _points(line, x_axis, y_axis, line.ys):
        image.polyline(run, line.color, LINE_WIDTH, line.dashes)
        for x, y in run:
            x, y = round(x), round(y)
            image.fill_rect(x - half, y - half, x + half + 1, y + half + 1,
                            line.color)


def _draw_band(image, line, x_axis, y_axis):
    """Fills between the polylines of lows and highs, column by column, over
    each segment with all its ends drawable (a gap as in the line)."""
    if line.lows is None or line.highs is None:
        return
    ends = [(x, lo, hi) if _usable(x, x_axis.log) and _usable(lo, y_axis.log)
            and _usable(hi, y_axis.log) else None
            for x, lo, hi in zip(line.xs, line.lows, line.highs)]
    segments = [(a, b) for a, b in zip(ends, ends[1:]) if a and b]
    for index, ((x0, lo0, hi0), (x1, lo1, hi1)) in enumerate(segments):
        px0, px1 = round(x_axis(x0)), round(x_axis(x1))
        # A segment's last column is the next one's first: filled once, or
        # it would be twice as opaque.
        last = px1 + 1 if index == len(segments) - 1 else px1
        for px in range(px0, max(last, px0 + 1)):
            t = (px - px0) / (px1 - px0) if px1 != px0 else 0.0
            y_lo = y_axis(lo0) + t * (y_axis(lo1) - y_axis(lo0))
            y_hi = y_axis(hi0) + t * (y_axis(hi1) - y_axis(hi0))
            image.fill_rect(px, round(min(y_lo, y_hi)), px + 1,
                            round(max(y_lo, y_hi)) + 1, line.color, 0.15)
