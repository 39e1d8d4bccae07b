#!/usr/bin/env python3
"""Summarise the CSV files of bench/paper (B1, B2) and bench/roofline (B5) as markdown tables in the paper's style
(Islam & Wang, Tables 1-4; Figures 7, 9, 12, 13) and, when matplotlib is importable, PNG plots.

usage: summary.py [-o OUTDIR] [--no-plots] CSV_OR_DIR...   (a directory stands for every *.csv in it; default OUTDIR:
                                                  the first directory given, or the current one)
writes OUTDIR/summary.md and, with matplotlib (Agg; Debian: python3-matplotlib), one PNG per table, linked from
summary.md: B1/B2 a group's CSV name with .png (cycles, time, speedup and time per cycle against k and overlap where a
tile was swept over k and overlap, else the speedup of each configuration the run timed) and RUN-roofline.png (B5: time
per cycle against k per kernel, the marginal sub-iteration). Without matplotlib the tables are written all the same.
Later rows of the same configuration replace earlier ones (the CSV files are appended to). Runs with fp32
sub-iterations have a classic_fp32 row (classic Jacobi with fp32 sweeps) and a speedup_vs_classic_fp32 column; their
tables show speedups over it too. Older CSV files, without them, read as before."""
import argparse
import csv
import math
import os
import re
import sys


def fnum(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return math.nan


def inum(s, default=-1):
    try:
        return int(s)
    except (TypeError, ValueError):
        return default


def ok(x):
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def read_csvs(paths):
    """-> (paper rows, roofline rows, comments); each row a dict, plus 'file'."""
    paper, roof, comments = [], [], []
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".csv"))
        else:
            files.append(p)
    for f in files:
        with open(f, newline="") as fh:
            lines = fh.read().splitlines()
        header, body = None, []
        for ln in lines:
            if not ln.strip():
                continue
            if ln.startswith("#"):
                comments.append((os.path.basename(f), ln[1:].strip()))
                continue
            if header is None or ln.startswith("gpu,commit,"):  # a header; a later one: rows appended by a newer driver
                header = next(csv.reader([ln]))
                continue
            body.append((header, ln))
        for header, ln in body:
            rec = next(csv.reader([ln]))
            if len(rec) != len(header):
                continue
            d = dict(zip(header, rec))
            d["file"] = os.path.basename(f)
            if "method" in header:
                paper.append(d)
            elif "test" in header:
                roof.append(d)
    return paper, roof, comments


def fmt_t(t):
    if not ok(t):
        return "-"
    return f"{t:.3g} s" if t >= 0.1 else f"{1e3 * t:.3g} ms"


def fmt_x(x):
    return f"{x:.2f}x" if ok(x) else "-"


def group_key(r):
    """one table per problem, GPU, precision and run (commit): every table row comes from one run"""
    return (r["mode"], inum(r["N"]), inum(r.get("ny", r["N"])), r.get("rhs", "one"), r["gpu"], r.get("inner") or "native",
            r.get("commit", "")[:7])


def group_name(key):
    mode, n, ny, rhs, gpu, inner, commit = key
    what = f"B1 2D Poisson {n} x {ny}" if mode == "2d" else f"B2 {ny} copies of 1D Poisson N = {n}"
    prec = ", fp32 sub-iterations (-pc_hjacobi_inner_precision single)" if inner == "single" else ""
    return f"{what}, b = {'h^2 (paper scaling)' if rhs == 'paper' else '1'}{prec}, {gpu}, commit {commit}"


def group_slug(key):
    mode, n, ny, rhs, gpu, inner, commit = key
    g = "".join(c if c.isalnum() else "_" for c in gpu)[:24]
    return f"{'b1' if mode == '2d' else 'b2'}_{n}x{ny}_{rhs}{'_fp32' if inner == 'single' else ''}_{g}_{commit}"


def sx(r, tc):
    """speedup over classic as measured in the row's own run (paper.c writes it), else against the group's classic"""
    v = fnum(r.get("speedup_vs_classic"))
    return v if ok(v) and v > 0 else tc / fnum(r["time_s"])


def ss(r, ts):
    """the same for stock PETSc"""
    v = fnum(r.get("speedup_vs_stock"))
    return v if ok(v) and v > 0 else ts / fnum(r["time_s"])


def s32(r, t32):
    """the same for classic fp32 (older CSV files have no such column: the group's classic_fp32 row, if any)"""
    v = fnum(r.get("speedup_vs_classic_fp32"))
    return v if ok(v) and v > 0 else t32 / fnum(r["time_s"])


def dedup(rows, keyf):
    out = {}
    for r in rows:
        out[keyf(r)] = r  # the last one wins
    return list(out.values())


def summarise_paper(rows, outdir, plt, md):
    groups = {}
    used_names = set()
    for r in rows:
        groups.setdefault(group_key(r), []).append(r)
    for key in sorted(groups, key=lambda k: (k[0] != "2d", k[1], k[2], k[3], k[4], k[5], k[6])):
        g = dedup(groups[key], lambda r: (r["method"], r["tile"], r["k"], r["overlap"], r["N"], r.get("ny")))
        name, slug = group_name(key), group_slug(key)
        md.append(f"## {name}\n")
        checks = [r for r in g if r["method"] == "count_check"]
        classic = next((r for r in g if r["method"] == "classic"), None)
        stock = next((r for r in g if r["method"] == "stock"), None)
        c32 = next((r for r in g if r["method"] == "classic_fp32"), None)
        hier = [r for r in g if r["method"] == "hierarchical"]
        commits = sorted({r["commit"] for r in g})
        md.append(f"commit {', '.join(commits)}; files {', '.join(sorted({r['file'] for r in g}))}\n")
        md.append("| baseline | cycles | time | time/cycle | how |\n|---|---:|---:|---:|---|")
        labels = {"stock": "stock PETSc (KSPRICHARDSON + PCJACOBI)", "classic": "classic (hjacobi k = 1, fused sweep, fp64)",
                  "classic_fp32": "classic fp32 (hjacobi k = 1 on the tile kernel, fp32 sweeps of the correction, tile {})"}
        for r in (stock, classic, c32):
            if r:
                label = labels[r["method"]].format(r["tile"])
                md.append(f"| {label} | {inum(r['cycles'])} | {fmt_t(fnum(r['time_s']))} | {1e6 * fnum(r['time_per_cycle_s']):.3g} us | {r['cycles_how']} |")
        md.append("")
        tc = fnum(classic["time_s"]) if classic else math.nan
        ts = fnum(stock["time_s"]) if stock else math.nan
        t32 = fnum(c32["time_s"]) if c32 else math.nan
        if c32 and ok(fnum(c32["time_s"])):
            md.append(f"- precision's gain at k = 1: classic fp32 is {fmt_x(sx(c32, tc))} fp64 classic (same cycles, time per cycle "
                      f"{1e6 * fnum(c32['time_per_cycle_s']):.3g} against {1e6 * fnum(classic['time_per_cycle_s']) if classic else math.nan:.3g} us)")
        if key[5] == "single" and not c32:
            md.append("- **no classic fp32 row in this run** (written before paper.c measured one): the speedups below mix "
                      "the method's gain with the precision's; rerun `bench/gpu.sh run b1single` / `b2single` for it")
        for c in checks:
            md.append(f"- classic count check: {c['cycles_how']}")
        if checks or c32:
            md.append("")
        has32 = c32 is not None and ok(t32)
        h32 = " / over classic fp32" if has32 else ""
        for tile in sorted({r["tile"] for r in hier}, key=lambda s: [inum(v) for v in s.split("x")]):
            hr = [r for r in hier if r["tile"] == tile]
            ks = sorted({inum(r["k"]) for r in hr})
            os_ = sorted({inum(r["overlap"]) for r in hr})
            cell = {(inum(r["k"]), inum(r["overlap"])): r for r in hr}
            md.append(f"### tile {tile}: time / cycles / speedup over classic / over stock{h32} (rows k, columns overlap)\n")
            md.append("| k \\ o | " + " | ".join(str(o) for o in os_) + " |")
            md.append("|---|" + "---:|" * len(os_))
            for k in ks:
                cells = []
                for o in os_:
                    r = cell.get((k, o))
                    if r is None:
                        cells.append("")
                    elif inum(r["cycles"]) < 0 or not ok(fnum(r["time_s"])):
                        cells.append(f"{inum(r['cycles']) if inum(r['cycles']) >= 0 else '-'} ({r['cycles_how']})")
                    else:
                        t = fnum(r["time_s"])
                        flag = "" if inum(r["reps"]) >= 5 else f" ({inum(r['reps'])} reps)"
                        x32 = f" / {fmt_x(s32(r, t32))}" if has32 else ""
                        cells.append(f"{fmt_t(t)} / {inum(r['cycles'])} / {fmt_x(sx(r, tc))} / {fmt_x(ss(r, ts))}{x32}{flag}")
                md.append(f"| {k} | " + " | ".join(cells) + " |")
            md.append("")
            # the paper's Tables 1/3 (no overlap) and 2/4 (best overlap per k)
            md.append(f"Paper-style (Tables 1-4): speedup of tile {tile} over classic (and over stock PETSc{' and classic fp32' if has32 else ''})\n")
            md.append("| k | " + " | ".join(str(k) for k in ks) + " |")
            md.append("|---|" + "---:|" * len(ks))
            row0, rowo, rowb, rows_, row32 = [], [], [], [], []
            for k in ks:
                r0 = cell.get((k, 0))
                row0.append(fmt_x(sx(r0, tc)) if r0 and ok(fnum(r0["time_s"])) else "-")
                timed = [cell[(k, o)] for o in os_ if (k, o) in cell and ok(fnum(cell[(k, o)]["time_s"]))]
                if timed:
                    b = min(timed, key=lambda r: fnum(r["time_s"]))
                    rowo.append(b["overlap"])
                    rowb.append(fmt_x(sx(b, tc)))
                    rows_.append(fmt_x(ss(b, ts)))
                    row32.append(fmt_x(s32(b, t32)))
                else:
                    rowo.append("-")
                    rowb.append("-")
                    rows_.append("-")
                    row32.append("-")
            md.append("| over classic, o = 0 | " + " | ".join(row0) + " |")
            md.append("| optimal overlap | " + " | ".join(rowo) + " |")
            md.append("| over classic, optimal overlap | " + " | ".join(rowb) + " |")
            md.append("| over stock PETSc, optimal overlap | " + " | ".join(rows_) + " |")
            if has32:
                md.append("| over classic fp32, optimal overlap | " + " | ".join(row32) + " |")
            md.append("")
        timed = [r for r in hier if ok(fnum(r["time_s"]))]
        if timed:
            b = min(timed, key=lambda r: fnum(r["time_s"]))
            md.append(f"**Best**: tile {b['tile']}, k = {b['k']}, overlap {b['overlap']}: {inum(b['cycles'])} cycles, {fmt_t(fnum(b['time_s']))}, "
                      f"{fmt_x(sx(b, tc))} classic, {fmt_x(ss(b, ts))} stock PETSc"
                      + (f", {fmt_x(s32(b, t32))} classic fp32 (the method's gain at equal precision; classic fp32 is "
                         f"{fmt_x(sx(c32, tc))} fp64 classic: the precision's gain)" if has32 else "") + ".\n")
        skipped = [r for r in hier if not ok(fnum(r["time_s"]))]
        if skipped:
            md.append("Not timed: " + "; ".join(f"k={r['k']} o={r['overlap']} tile {r['tile']}: {r['cycles_how']}" for r in skipped) + "\n")
        if plt:
            png = guarded(name, plot_paper_group, plt, outdir, png_name(g, slug, used_names), key, g, hier, classic, stock,
                          c32, tc, ts, t32)
            if png:
                md.append(f"![{name}]({png})\n")


# ------------------------------------------------------------------------------------------------ plots (matplotlib, Agg)
# One PNG per table of summary.md: the group's k x overlap figure (the paper's Figures 7, 9, 12, 13) where a tile was
# swept over at least 3 k and 3 overlaps, else a bar chart of the configurations the run timed; one B5 figure per run.
# Every value drawn is a column of the CSV rows (or a ratio of two, as in the tables). 8 inches at 100 dpi: 800 px.
PNG_DPI = 100
PNG_WIDTH = 8.0


def run_of(fname):
    """'2026-11-21-run2-b1_1024.csv' -> '2026-11-21-run2' (the committed DATE-RUN-FILE names), else ''."""
    m = re.match(r"(\d{4}-\d\d-\d\d-[A-Za-z0-9]+)-", fname)
    return m.group(1) if m else ""


def png_name(rows, slug, used):
    """the CSV's own name with .png when the group is one file (beside its table), else RUN-slug.png; unique in used"""
    files = sorted({r["file"] for r in rows})
    base = files[0][:-4] if len(files) == 1 and files[0].endswith(".csv") else "-".join(
        x for x in (run_of(files[0]) if files else "", slug) if x)
    name, n = base + ".png", 2
    while name in used:
        name, n = f"{base}-{n}.png", n + 1
    used.add(name)
    return name


def plot_title(key, rows):
    mode, n, ny, rhs, gpu, inner, commit = key
    what = f"B1 2D Poisson {n} x {ny}" if mode == "2d" else f"B2 {ny} copies of 1D Poisson, N = {n}"
    prec = "fp32 sub-iterations" if inner == "single" else "fp64"
    runs = ", ".join(sorted({run_of(r["file"]) or r["file"] for r in rows}))
    return f"{what}, b = {'h^2' if rhs == 'paper' else '1'}, {prec}\n{gpu}, run {runs} (commit {commit})"


def tile_sort(t):
    return [inum(v) for v in t.split("x")]


def timed(r):
    return ok(fnum(r["time_s"])) and fnum(r["time_s"]) > 0 and inum(r["cycles"]) >= 0


WRITTEN = []  # the PNG files written


def write_png(plt, fig, path):
    """fig -> path at PNG_DPI, as a 256-colour palette PNG (a third of the size, the same picture for line plots) when
    Pillow (a dependency of matplotlib) is there, else as matplotlib writes it"""
    try:
        import io

        from PIL import Image

        buf = io.BytesIO()
        fig.savefig(buf, dpi=PNG_DPI, format="png")
        buf.seek(0)
        Image.open(buf).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    except (ImportError, AttributeError):  # no Pillow, or one without Image.Quantize (< 9.1)
        fig.savefig(path, dpi=PNG_DPI)
    plt.close(fig)


def save(plt, fig, outdir, name):
    write_png(plt, fig, os.path.join(outdir, name))
    WRITTEN.append(name)
    return name


def guarded(what, f, *args):
    """a plot that fails (odd data) costs its picture, never the tables"""
    try:
        return f(*args)
    except Exception as e:  # noqa: BLE001
        print(f"summary.py: no plot for {what}: {type(e).__name__}: {e}", file=sys.stderr)
        return None


def plain_log(ax, axis="y"):
    """plain numbers (0.3, 1, 2000) instead of 3x10^-1 on a log axis; minor ticks labelled only on a short range"""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    a = ax.yaxis if axis == "y" else ax.xaxis
    lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    f = FuncFormatter(lambda v, _: f"{v:.0f}" if v >= 1 and v == int(v) else f"{v:g}")
    a.set_major_formatter(f)
    a.set_minor_formatter(f if lo > 0 and hi / lo < 20 else NullFormatter())


def legend_room(ax, factor):
    """extend a log y axis upwards by factor, so that a legend in the upper part covers no curve"""
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi * factor)


def stock_axis(ax, factor, which="y"):
    """a second axis in speedup over stock PETSc: same run, so over stock = over classic x (t_stock / t_classic)"""
    if not (ok(factor) and factor > 0):
        return
    f = (lambda x: x * factor, lambda x: x / factor)
    sec = ax.secondary_yaxis("right", functions=f) if which == "y" else ax.secondary_xaxis("top", functions=f)
    (sec.set_ylabel if which == "y" else sec.set_xlabel)("speedup over stock PETSc")


def plot_paper_group(plt, outdir, name, key, g, hier, classic, stock, c32, tc, ts, t32):
    """-> the PNG's name, or None when the group has no timed hierarchical row"""
    if not any(timed(r) for r in hier):
        return None
    title = plot_title(key, g)
    if key[5] == "single" and not c32:
        title += "\nno classic fp32 row in this run: the speedups mix the method's gain with the precision's"
    cells = {}
    for r in hier:
        cells.setdefault(r["tile"], {})[(inum(r["k"]), inum(r["overlap"]))] = r
    tiles = sorted(cells, key=tile_sort)
    main = max(tiles, key=lambda t: (sum(timed(r) for r in cells[t].values()), -tiles.index(t)))
    ks = sorted({k for k, _ in cells[main]})
    os_ = sorted({o for _, o in cells[main]})
    factor = ts / tc if ok(ts) and ok(tc) and tc > 0 else math.nan
    if len(ks) >= 3 and len(os_) >= 3:
        plot_paper_grid(plt, outdir, name, title, cells, tiles, main, ks, os_, classic, c32, tc, t32, factor)
    else:
        plot_paper_bars(plt, outdir, name, title, hier, classic, stock, c32, tc, ts, t32, factor)
    return name


def best_per_k(cell):
    """{k: the fastest timed row of that k (over overlaps)}"""
    out = {}
    for (k, o), r in cell.items():
        if timed(r) and (k not in out or fnum(r["time_s"]) < fnum(out[k]["time_s"])):
            out[k] = r
    return out


def plot_paper_grid(plt, outdir, name, title, cells, tiles, main, ks, os_, classic, c32, tc, t32, factor):
    from matplotlib.ticker import NullLocator

    fig, axs = plt.subplots(2, 2, figsize=(PNG_WIDTH, 7.2))
    cmap = plt.get_cmap("viridis")
    color = {k: cmap(i / max(1, len(ks) - 1) * 0.9) for i, k in enumerate(ks)}
    cell = cells[main]
    # (a) cycles and (b) time against overlap, one curve per k (the paper's Figures 9 and 13)
    for ax, col, ylabel, panel in ((axs[0, 0], "cycles", "cycles to converge", "(a) cycles"),
                                   (axs[0, 1], "time_s", "time to converge [s]", "(b) time")):
        for k in ks:
            pts = [(o, cell[(k, o)]) for o in os_ if (k, o) in cell]
            pts = [(o, r) for o, r in pts if (timed(r) if col == "time_s" else inum(r["cycles"]) >= 0)]
            if pts:
                ax.plot([o for o, _ in pts], [fnum(r[col]) for _, r in pts], "o-", color=color[k], ms=4, label=f"k = {k}")
        if classic and ok(fnum(classic[col])):
            ax.axhline(fnum(classic[col]), color="k", ls="--", lw=1, label="classic (k = 1)")
        if col == "time_s" and ok(t32):
            ax.axhline(t32, color="gray", ls=":", lw=1.2, label="classic fp32")
        ax.set_yscale("log")
        legend_room(ax, 6.0 if col == "cycles" else 2.5)
        plain_log(ax)
        ax.set_xticks(os_)
        ax.set_xlabel("overlap [points]")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{panel} against overlap, tile {main}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=3, loc="upper center")
    # (c) speedup over classic and (d) time per cycle against k, each tile at its best overlap (Figures 7, 12; Tables 1-4)
    markers = "osD^v<>"
    ax, ax2 = axs[1, 0], axs[1, 1]
    for i, t in enumerate(tiles):
        best = best_per_k(cells[t])
        kk = sorted(best)
        if not kk:
            continue
        m = markers[i % len(markers)]
        ax.plot(kk, [sx(best[k], tc) for k in kk], m + "-", ms=5, label=f"tile {t}, best overlap")
        for k in kk:
            ax.annotate(f"o{best[k]['overlap']}", (k, sx(best[k], tc)), textcoords="offset points", xytext=(4, 3), fontsize=6)
        ax2.plot(kk, [1e6 * fnum(best[k]["time_per_cycle_s"]) for k in kk], m + "-", ms=5, label=f"tile {t}, best overlap")
    z = [k for k in ks if (k, 0) in cell and timed(cell[(k, 0)])]
    if z:
        ax.plot(z, [sx(cell[(k, 0)], tc) for k in z], "o--", color="gray", ms=4, mfc="none", label=f"tile {main}, overlap 0")
    ax.axhline(1.0, color="k", ls="--", lw=1, label="classic (k = 1)")
    if ok(t32) and ok(tc):
        ax.axhline(tc / t32, color="gray", ls=":", lw=1.2, label="classic fp32")
    ax.set_ylim(bottom=0)
    stock_axis(ax, factor)
    ax.set_ylabel("speedup over classic (fp64)")
    ax.set_title("(c) speedup against k (labels: overlap)", fontsize=9)
    if classic and ok(fnum(classic["time_per_cycle_s"])):
        ax2.axhline(1e6 * fnum(classic["time_per_cycle_s"]), color="k", ls="--", lw=1, label="classic (k = 1)")
    if c32 and ok(fnum(c32["time_per_cycle_s"])):
        ax2.axhline(1e6 * fnum(c32["time_per_cycle_s"]), color="gray", ls=":", lw=1.2, label="classic fp32")
    ax2.set_yscale("log")
    plain_log(ax2)
    ax2.set_ylabel("time per cycle [us]")
    ax2.set_title("(d) cost of one cycle against k", fontsize=9)
    allk = sorted({inum(r["k"]) for t in tiles for r in cells[t].values() if timed(r)})
    for a in (ax, ax2):
        a.set_xscale("log", base=2)
        a.set_xticks(allk)
        a.set_xticklabels([str(k) for k in allk])
        a.xaxis.set_minor_locator(NullLocator())
        a.set_xlabel("sub-iterations per cycle k")
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=7)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    save(plt, fig, outdir, name)


def plot_paper_bars(plt, outdir, name, title, hier, classic, stock, c32, tc, ts, t32, factor):
    bars = []  # (label, speedup over classic, text, colour)
    for r in hier:
        if timed(r) and ok(sx(r, tc)):
            x32 = f"; {s32(r, t32):.2f}x classic fp32" if c32 and ok(s32(r, t32)) else ""
            bars.append((f"tile {r['tile']}, k {r['k']}, overlap {r['overlap']}", sx(r, tc),
                         f"{sx(r, tc):.2f}x  ({fmt_t(fnum(r['time_s']))}, {inum(r['cycles'])} cycles{x32})", "tab:blue"))
    bars.sort(key=lambda b: b[1])
    base = []
    if stock and ok(ts) and ok(tc):
        base.append(("stock PETSc (Richardson + PCJACOBI)", tc / ts, f"{tc / ts:.2f}x  ({fmt_t(ts)})", "0.55"))
    if c32 and ok(t32) and ok(tc):
        base.append(("classic fp32 (k = 1, fp32 sweeps)", tc / t32, f"{tc / t32:.2f}x  ({fmt_t(t32)})", "0.55"))
    if classic and ok(tc):
        base.append(("classic fp64 (k = 1)", 1.0, f"1x  ({fmt_t(tc)}, {inum(classic['cycles'])} cycles)", "0.3"))
    bars = base + bars
    fig, ax = plt.subplots(figsize=(PNG_WIDTH, 1.9 + 0.36 * len(bars)))
    y = range(len(bars))
    ax.barh(list(y), [b[1] for b in bars], color=[b[3] for b in bars], height=0.6)
    top = max(b[1] for b in bars)
    for i, b in enumerate(bars):
        ax.text(b[1] + 0.01 * top, i, b[2], va="center", fontsize=8)
    ax.set_yticks(list(y))
    ax.set_yticklabels([b[0] for b in bars], fontsize=8)
    ax.set_xlim(0, top * 1.45)
    ax.axvline(1.0, color="k", ls="--", lw=1)
    ax.set_xlabel("speedup over fp64 classic (time to converge, ratio within the run)")
    stock_axis(ax, factor, "x")
    ax.grid(True, axis="x", alpha=0.3)
    untimed = [r for r in hier if not timed(r)]
    if untimed:
        fig.text(0.01, 0.005, "not timed: " + "; ".join(f"tile {r['tile']} k {r['k']} o {r['overlap']}" for r in untimed),
                 fontsize=7, va="bottom")
    ax.set_title(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.03 if untimed else 0, 1, 1))
    save(plt, fig, outdir, name)


def roofline_series(r, commands):
    """(kernel, precision, tile) of a roofline row: its own columns, else the -pc_hjacobi_cuda_* options of the command
    that wrote its file (files before the kernel column; no option: auto, the default kernel)"""
    cmd = commands.get(r["file"], "")
    opt = lambda o: (re.search(rf"{o}\s+(\S+)", cmd) or [None, None])[1]
    kernel = r.get("kernel") or opt("-pc_hjacobi_cuda_kernel") or "auto (default)"
    strip = opt("-pc_hjacobi_cuda_strip")
    if r.get("inner_bytes"):
        prec = "fp32" if inum(r["inner_bytes"]) == 4 else "fp64"
    else:
        prec = "fp32" if opt("-pc_hjacobi_inner_precision") == "single" else "fp64"
    return (kernel + (f" R {strip}" if strip else ""), prec, r["tile"])


def plot_roofline(plt, outdir, rows, commands, md):
    """B5, one figure per GPU and run: (a) time per whole cycle against k, per kernel (colour), precision (line) and
    tile (marker), beside one classic sweep and one copy measured in the same run; (b) the marginal cost of one more
    sub-iteration (the slope between two k)"""
    from matplotlib.ticker import NullLocator

    runs = {}
    for r in rows:
        runs.setdefault((r["gpu"], run_of(r["file"])), []).append(r)
    for (gpu, run), rr in sorted(runs.items()):
        cyc = [r for r in rr if r["test"] == "hierarchical" and ok(fnum(r["time_per_op_s"]))]
        if not cyc:
            continue
        series = {}
        for r in cyc:
            series.setdefault(roofline_series(r, commands), []).append(r)
        order = lambda s: (s[1], s[0], tile_sort(s[2]))
        kernels = sorted({s[0] for s in series})
        cmap = plt.get_cmap("tab10")
        colour = {kn: cmap(i % 10) for i, kn in enumerate(kernels)}
        tiles = sorted({s[2] for s in series}, key=tile_sort)
        marker = {t: "osD^v"[i % 5] for i, t in enumerate(tiles)}
        marg = [r for r in rr if r["test"] == "hierarchical_marginal" and ok(fnum(r["time_per_op_s"]))]
        hb = 1.0 + 0.3 * len(marg) if marg else 0.5
        fig, (ax, bx) = plt.subplots(2, 1, figsize=(PNG_WIDTH, 5.2 + hb), gridspec_kw={"height_ratios": [4.6, hb]})
        ks = set()
        for s in sorted(series, key=order):
            sr = sorted(dedup(series[s], lambda r: inum(r["k"])), key=lambda r: inum(r["k"]))
            ks |= {inum(r["k"]) for r in sr}
            ax.plot([inum(r["k"]) for r in sr], [1e6 * fnum(r["time_per_op_s"]) for r in sr], "-" if s[1] == "fp64" else "--",
                    marker=marker[s[2]], color=colour[s[0]], ms=5, label=f"{s[0]}, {s[1]}, tile {s[2]}")
        for test, label, style in (("classic", "one classic sweep (k = 1)", "-."), ("copy", "VecCopy (16 B/point)", ":")):
            v = sorted(1e6 * fnum(r["time_per_op_s"]) for r in rr if r["test"] == test and ok(fnum(r["time_per_op_s"])))
            if v:
                med = v[len(v) // 2]
                ax.axhline(med, color="k", ls=style, lw=1.2,
                           label=f"{label}: {med:.4g} us" + (f" (median of {len(v)} in this run)" if len(v) > 1 else ""))
        ks = sorted(ks)
        ax.set_xscale("log", base=2)
        ax.set_xticks(ks)
        ax.set_xticklabels([str(k) for k in ks])
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_yscale("log")
        lo, hi = ax.get_ylim()
        ax.set_ylim(lo, hi * 2.5)  # room for the legend
        plain_log(ax)
        ax.set_xlabel("sub-iterations per cycle k")
        ax.set_ylabel("time per cycle [us]")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2, loc="upper left")
        n = rr[0]["N"]
        ax.set_title(f"B5 roofline, {n} x {n}, overlap 0 (solid fp64, dashed fp32 sub-iterations)\n{gpu}, run "
                     f"{run or rr[0]['file']}: (a) time of one whole cycle", fontsize=10)
        if marg:
            marg = sorted(marg, key=lambda r: (order(roofline_series(r, commands)), inum(r["k"])), reverse=True)
            labels, vals, cols = [], [], []
            for r in marg:
                s = roofline_series(r, commands)
                m = re.search(r"between k=(\d+) and k=(\d+)", r.get("note", ""))
                labels.append(f"{s[0]}, {s[1]}, tile {s[2]}, k " + (f"{m.group(1)} to {m.group(2)}" if m else f"to {r['k']}"))
                vals.append(1e6 * fnum(r["time_per_op_s"]))
                cols.append(colour.get(s[0], "tab:gray"))
            bx.barh(range(len(vals)), vals, color=cols, height=0.6,
                    hatch=[None if "fp64" in lab else "//" for lab in labels])
            for i, v in enumerate(vals):
                bx.text(v, i, f" {v:.3g} us", va="center", fontsize=7)
            bx.set_yticks(range(len(vals)))
            bx.set_yticklabels(labels, fontsize=7)
            bx.set_xlim(0, max(vals) * 1.2)
            bx.set_xlabel("time of one more sub-iteration [us] (slope between two k of the same kernel; hatched: fp32)")
            bx.set_title("(b) marginal cost of one sub-iteration", fontsize=9)
            bx.grid(True, axis="x", alpha=0.3)
        else:
            bx.set_visible(False)
        fig.tight_layout()
        name = f"{run}-roofline.png" if run else "roofline_" + "".join(c if c.isalnum() else "_" for c in gpu)[:24] + ".png"
        save(plt, fig, outdir, name)
        md.append(f"![B5 roofline, {gpu}, run {run}]({name})\n")


def summarise_roofline(rows, md, plt=None, outdir=".", commands=None):
    """B5. Rows of roofline.c's current CSV (column ratio_to_smem_peak) carry each kernel's own bytes and their ratios
    to the measured copy, the HBM peak and the shared-memory peak; a ratio above 1 of a physical peak means the byte
    count is wrong: an ERROR line here and on stderr, and main() exits nonzero. Rows of older CSV files (one 48 B/update
    for every kernel, so ratios above 1 for the register kernel and fp32) are shown with their times only.
    -> number of ratios above 1 of a physical peak."""
    errors = 0
    if not rows:
        return errors
    key = lambda r: (r["gpu"], r["N"], r["test"], r.get("kernel", r["file"]), r.get("inner_bytes", ""), r["tile"], r["k"], r["overlap"])
    rows = dedup(rows, key)
    for gpu in sorted({r["gpu"] for r in rows}):
        g = [r for r in rows if r["gpu"] == gpu]
        new, old = [r for r in g if "ratio_to_smem_peak" in r], [r for r in g if "ratio_to_smem_peak" not in r]
        md.append(f"## B5 roofline, {gpu}\n")
        if new:
            md.append("Bytes charged per operation: copy 16 B/point, VecAXPY and the classic sweep 24 B/point; a hierarchical "
                      "cycle its tiles with their halo, b and the result (HBM) and its kernel's own shared-memory accesses "
                      "(shared kernel 6 per update, register strips (3R + 2)/R, in the sub-iteration scalar's bytes). "
                      "Ratios: to the device-to-device copy measured in the same run (not a peak: a sweep with 2 reads per "
                      "write may beat a copy), to the HBM peak (2 x memory clock x bus width) and to the shared-memory peak "
                      "(32 banks x 4 B x SMs x clock). Marginal rows are slopes between whole cycles: no ratio.\n")
            md.append("| test | kernel | B/scalar | N | tile | k | time per op | points (updates) / s | HBM GB/s | vs copy | vs HBM peak | shared TB/s | vs shared peak | file |")
            md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
            for r in new:
                t = fnum(r["time_per_op_s"])
                f3 = lambda x: f"{x:.3f}" if ok(x) else "-"
                hb, sb = fnum(r["hbm_bytes_per_s"]), fnum(r["smem_bytes_per_s"])
                md.append(f"| {r['test']} | {r['kernel']} | {r['inner_bytes']} | {r['N']} | {r['tile']} | {r['k']} | {1e6 * t:.4g} us | "
                          f"{fnum(r['points_per_s']) / 1e9:.4g} G | {f3(hb / 1e9) if hb > 0 else '-'} | {f3(fnum(r['ratio_to_copy']))} | "
                          f"{f3(fnum(r['ratio_to_hbm_peak']))} | {f3(sb / 1e12) if sb > 0 else '-'} | {f3(fnum(r['ratio_to_smem_peak']))} | {r['file']} |")
                for col, peak in (("ratio_to_hbm_peak", "HBM peak"), ("ratio_to_smem_peak", "shared-memory peak")):
                    x = fnum(r[col])
                    if ok(x) and x > 1.0:
                        errors += 1
                        msg = (f"ERROR: {r['file']}: {r['test']} {r['kernel']} tile {r['tile']} k {r['k']}: {x:.3f} of the {peak} "
                               f"(above 1: the bytes charged to this kernel are wrong)")
                        md.append(f"\n**{msg}**\n")
                        print("summary.py: " + msg, file=sys.stderr)
            md.append("")
        if old:
            md.append("Rows from CSV files written before the per-kernel byte count (they charged every kernel 48 B per "
                      "update): times only.\n")
            md.append("| test | N | tile | k | time per op | points (updates) / s | file |")
            md.append("|---|---:|---:|---:|---:|---:|---|")
            for r in old:
                md.append(f"| {r['test']} | {r['N']} | {r['tile']} | {r['k']} | {1e6 * fnum(r['time_per_op_s']):.4g} us | "
                          f"{fnum(r['points_per_s']) / 1e9:.4g} G | {r['file']} |")
            md.append("")
        if plt:
            guarded(f"B5 {gpu}", plot_roofline, plt, outdir, g, commands or {}, md)
    return errors


def import_pyplot(who):
    """matplotlib.pyplot on the Agg backend (files only, no display), or None with a note: plots are optional"""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # noqa: BLE001  (ImportError, or a broken installation)
        print(f"{who}: note: matplotlib not available ({type(e).__name__}: {e}); tables only, no PNG plots "
              f"(Debian: apt-get install python3-matplotlib, then run /usr/bin/python3)", file=sys.stderr)
        return None
    plt.rcParams.update({"font.size": 9, "axes.titlesize": 9, "axes.labelsize": 9, "legend.fontsize": 7,
                         "savefig.dpi": PNG_DPI, "figure.dpi": PNG_DPI})
    return plt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("-o", "--outdir")
    ap.add_argument("--no-plots", action="store_true", help="tables only")
    a = ap.parse_args()
    outdir = a.outdir or next((p for p in a.inputs if os.path.isdir(p)), ".")
    os.makedirs(outdir, exist_ok=True)
    paper, roof, comments = read_csvs(a.inputs)
    plt = None if a.no_plots else import_pyplot("summary.py")
    md = ["# petsc-hjacobi benchmarks: B1, B2 (the paper's Tables 1-4) and B5 (roofline)\n",
          "Times: median of the timed repetitions (reps < 5 is flagged), each exactly the cycle count found first, from x0 = 1, "
          "no norms, data on the device. Speedups are time ratios measured in the same run (each row against the classic and "
          "stock PETSc times of its own run; the baseline rows shown are those of the last run of the group; with fp32 sub-iterations also "
          "against classic fp32, classic Jacobi with fp32 sweeps, so that the method's gain and the precision's gain can be told apart). "
          "Stock PETSc's time is its time per "
          "iteration x classic's cycle count (its iterates are classic's). Classic counts marked *computed* come from the exact "
          "sine-basis formula, not from a run.\n"]
    summarise_paper(paper, outdir, plt, md)
    commands = {f: c.split(":", 1)[1].strip() for f, c in comments if c.startswith("command:")}
    errors = summarise_roofline(roof, md, plt, outdir, commands)
    if comments:
        md.append("## Runs\n")
        seen = set()
        for f, c in comments:
            if (f, c) not in seen:
                seen.add((f, c))
                md.append(f"- `{f}`: {c}")
        md.append("")
    path = os.path.join(outdir, "summary.md")
    with open(path, "w") as fh:
        fh.write("\n".join(md) + "\n")
    print(f"summary.py: wrote {path}" + (f" and {len(WRITTEN)} PNG plot(s)" if plt else " (no plots)"))
    if errors:
        print(f"summary.py: ERROR: {errors} ratio(s) above 1 of a physical peak", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
