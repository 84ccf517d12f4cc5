"""perf_report and Benchmark of ewc.testing: a function swept over sizes (the
x values) and implementations (the lines) into a printed table, a CSV file
and a PNG plot, with triton.testing's spellings.

    @ewc.testing.perf_report(ewc.testing.Benchmark(
        x_names=["n"], x_vals=[2 ** k for k in range(12, 29, 2)],
        line_arg="provider", line_vals=["ewc", "torch", "copy"],
        line_names=["ewc", "torch", "copy"], ceiling="copy",
        plot_name="leaky-relu", args={}, xlabel="n", ylabel="GB/s",
        x_log=True))
    def gbps(n, provider): ...   # a number, or (y, y_min, y_max)
    gbps.run(print_data=True, save_path="out")   # out/leaky-relu.csv, .png

The plot is matplotlib's where it is importable, else _chart.line_plot's.
"""

import csv
import math
import numbers
import os
import warnings

from . import _chart

# matplotlib's size for perf_report's figure: 10 x 6 inches at 100 dpi,
# the built-in renderer's pixels alike.
PLOT_SIZE = (1000, 600)
# The ceiling's colour where styles= gives none: dark grey, apart from the
# colour cycle the other lines take.
CEILING_COLOR = "#555555"


class Benchmark:
    """One sweep for perf_report: the function is called with x_names bound
    to each of x_vals (a value for all of them, or a tuple of one each),
    line_arg to each of line_vals (shown as line_names), and the fixed
    keyword arguments args. plot_name names the files (no plot if empty).
    styles: a (colour, line style) per line, as matplotlib spells them.
    ceiling: the line (its value or its name) that is the practical
    ceiling of the others, such as a device copy of the same bytes: drawn
    dashed in dark grey unless styles says otherwise."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names,
                 plot_name, args=None, xlabel="", ylabel="", x_log=False,
                 y_log=False, styles=None, ceiling=None):
        where = "ewc.testing.Benchmark(): "
        if isinstance(x_names, str) or not x_names or not all(
                isinstance(name, str) for name in x_names):
            raise TypeError(where + "x_names must be a non-empty list of "
                            "argument names, got %r" % (x_names,))
        if not x_vals:
            raise ValueError(where + "x_vals is empty")
        for x in x_vals:
            if isinstance(x, (list, tuple)) and len(x) != len(x_names):
                raise ValueError(where + "x value %r has %d values for %d "
                                 "x_names" % (x, len(x), len(x_names)))
        if not isinstance(line_arg, str):
            raise TypeError(where + "line_arg must be an argument name, got %r"
                            % (line_arg,))
        if not line_vals or len(line_vals) != len(line_names):
            raise ValueError(where + "line_vals and line_names must be as "
                             "long and not empty, got %d and %d"
                             % (len(line_vals), len(line_names)))
        columns = list(x_names) + [str(name) for name in line_names]
        if len(set(columns)) != len(columns):
            raise ValueError(where + "x_names and line_names must be distinct "
                             "(they name the table's columns), got %r"
                             % (columns,))
        if styles is not None and len(styles) != len(line_vals):
            raise ValueError(where + "styles must have one (colour, line "
                             "style) per line, got %d for %d"
                             % (len(styles), len(line_vals)))
        for color, style in styles or ():
            # Checked now, not after a sweep that may have run for minutes.
            try:
                _chart.Line("", [], [], color or _chart.CYCLE[0], style or "-")
            except ValueError as error:
                raise ValueError(where + "styles: %s" % error) from None
        self.ceiling_index = None
        if ceiling is not None:
            names = list(line_vals) if ceiling in line_vals else list(
                line_names)
            if ceiling not in names:
                raise ValueError(where + "ceiling %r is none of line_vals "
                                 "%r or line_names %r"
                                 % (ceiling, list(line_vals), list(line_names)))
            self.ceiling_index = names.index(ceiling)
        self.x_names, self.x_vals = list(x_names), list(x_vals)
        self.line_arg, self.line_vals = line_arg, list(line_vals)
        self.line_names = [str(name) for name in line_names]
        self.plot_name, self.args = plot_name, dict(args or {})
        self.xlabel, self.ylabel = xlabel, ylabel
        self.x_log, self.y_log = x_log, y_log
        self.styles, self.ceiling = styles, ceiling


class Mark:
    """A function marked by perf_report; run() runs its benchmarks."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def run(self, show_plots=False, print_data=False, save_path="", **kwargs):
        """Calls the function for every x value and line of each benchmark
        (with `kwargs` too); prints each table (print_data), writes
        <save_path>/<plot_name>.csv and .png (save_path, created if need
        be), shows the plot (show_plots, matplotlib only). Returns each
        table as a list of rows, {x name or line name: value}; a list of
        those for a list of benchmarks."""
        single = isinstance(self.benchmarks, Benchmark)
        benchmarks = [self.benchmarks] if single else list(self.benchmarks)
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        tables = [self._run(bench, save_path, show_plots, print_data, kwargs)
                  for bench in benchmarks]
        return tables[0] if single else tables

    def _run(self, bench, save_path, show_plots, print_data, kwargs):
        rows, bands = [], []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(
                bench.x_names)
            call = dict(zip(bench.x_names, xs))
            row, band = dict(call), []
            for value, name in zip(bench.line_vals, bench.line_names):
                call[bench.line_arg] = value
                y, low, high = _point(self.fn(**call, **bench.args, **kwargs),
                                      call)
                row[name] = y
                band.append((low, high))
            rows.append(row)
            bands.append(band)
        columns = bench.x_names + bench.line_names
        if print_data:
            print(bench.plot_name + ":")
            print(format_table(columns, rows))
        if save_path:
            with open(os.path.join(save_path, bench.plot_name + ".csv"), "w",
                      newline="") as f:
                writer = csv.writer(f)
                writer.writerow(columns)
                for row in rows:
                    writer.writerow([_cell(row[c], "") for c in columns])
        if bench.plot_name and (save_path or show_plots):
            _plot(bench, rows, bands, save_path, show_plots)
        return rows


def perf_report(benchmarks):
    """Marks a function for benchmarking: a decorator that returns a Mark,
    whose run() calls it over `benchmarks` (a Benchmark or a list)."""
    return lambda fn: Mark(fn, benchmarks)


def _point(result, call):
    """(y, y_min, y_max) from what the function returned for the keyword
    arguments `call`: a number (or None: no value), or three of them."""
    if isinstance(result, (tuple, list)) and len(result) == 3:
        values = tuple(result)
    else:
        values = (result, None, None)
    for value in values:
        if value is not None and (not isinstance(value, numbers.Real) or
                                  isinstance(value, bool)):
            raise TypeError("ewc.testing.perf_report: the function returned "
                            "%r for %s; expected a number, None or (y, y_min, "
                            "y_max)" % (result, ", ".join(
                                "%s=%r" % item for item in call.items())))
    # NumPy's scalars as Python's: the table and the rows show 2, not
    # np.int64(2).
    return tuple(v if v is None else int(v) if isinstance(
        v, numbers.Integral) else float(v) for v in values)


def _cell(value, missing):
    """A value as the table and the CSV file show it: ints whole, floats to
    6 significant digits (Triton's CSV keeps one decimal, which rounds a
    time of 0.04 ms to 0.0)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return missing
    if isinstance(value, numbers.Integral):
        return str(value)
    if isinstance(value, numbers.Real):
        return "%.6g" % value
    return str(value)


def format_table(columns, rows):
    """`rows` (dicts over `columns`) as right-aligned text columns under a
    header, '-' where a row has no value."""
    cells = [[str(c) for c in columns]] + [
        [_cell(row.get(c), "-") for c in columns] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(columns))]
    return "\n".join("  ".join(cell.rjust(width)
                               for cell, width in zip(line, widths))
                     for line in cells)


#===------------------------------------------------------------------------===#
# The plot
#===------------------------------------------------------------------------===#

def _lines(bench, rows, bands):
    """The chart's lines: the ceiling dashed in CEILING_COLOR, the others in
    matplotlib's colour cycle in order, unless styles says."""
    lines, cycle = [], iter(_chart.CYCLE * len(bench.line_names))
    for index, name in enumerate(bench.line_names):
        ceiling = index == bench.ceiling_index
        color, style = bench.styles[index] if bench.styles else (None, None)
        if color is None:
            color = CEILING_COLOR if ceiling else next(cycle)
        lows = [band[index][0] for band in bands]
        highs = [band[index][1] for band in bands]
        has_band = any(v is not None for v in lows + highs)
        lines.append(_chart.Line(
            name, [row[bench.x_names[0]] for row in rows],
            [row[name] for row in rows], color,
            style or ("--" if ceiling else "-"),
            lows if has_band else None, highs if has_band else None))
    return lines


def _plot(bench, rows, bands, save_path, show_plots):
    lines = _lines(bench, rows, bands)
    xlabel = bench.xlabel or bench.x_names[0]
    path = (os.path.join(save_path, bench.plot_name + ".png") if save_path
            else None)
    try:
        import matplotlib  # noqa: F401 (only whether it is there)
    except ImportError:
        if show_plots:
            warnings.warn("ewc.testing: show_plots needs matplotlib, which is "
                          "not importable; the plot is only written to "
                          "save_path")
        if path:
            _chart.line_plot(path, lines, bench.plot_name, xlabel,
                             bench.ylabel, bench.x_log, bench.y_log,
                             *PLOT_SIZE)
        return
    _matplotlib_plot(bench, lines, xlabel, path, show_plots)


def _matplotlib_plot(bench, lines, xlabel, path, show_plots):
    """Triton's plot (a line per implementation, the band between its min
    and max 15% opaque), with the title, a dot per point and the axis bases
    of _chart, so that both renderers show the same."""
    if show_plots:
        import matplotlib.pyplot as plt
        figure = plt.figure(figsize=(PLOT_SIZE[0] / 100, PLOT_SIZE[1] / 100),
                            dpi=100)
    else:
        # No pyplot: its global figure list and backend stay the caller's.
        from matplotlib.figure import Figure
        figure = Figure(figsize=(PLOT_SIZE[0] / 100, PLOT_SIZE[1] / 100),
                        dpi=100)
    axes = figure.add_subplot()
    nan = float("nan")
    for line in lines:
        color = "#%02x%02x%02x" % line.color
        ys = [nan if y is None else y for y in line.ys]
        axes.plot(line.xs, ys, label=line.name, color=color, ls=line.style,
                  marker=".")
        if line.lows is not None:
            axes.fill_between(line.xs,
                              [nan if v is None else v for v in line.lows],
                              [nan if v is None else v for v in line.highs],
                              alpha=0.15, color=color)
    axes.legend()
    axes.set_title(bench.plot_name)
    axes.set_xlabel(xlabel)
    axes.set_ylabel(bench.ylabel)
    for log, values, set_scale in ((bench.x_log, lines[0].xs, axes.set_xscale),
                                   (bench.y_log, [y for line in lines
                                                  for y in line.ys],
                                    axes.set_yscale)):
        if log:
            set_scale("log", base=_chart.Axis(values, True).base)
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    if path:
        figure.savefig(path)
    if show_plots:
        plt.show()
