#!/usr/bin/env python3
"""Summarise the CSV files of bench/paper (B1, B2) and bench/roofline (B5) as markdown tables in the paper's style
(Islam & Wang, Tables 1-4; Figures 7, 9, 12, 13) and, when matplotlib is importable, PNG plots.

usage: summary.py [-o OUTDIR] CSV_OR_DIR...      (a directory stands for every *.csv in it; default OUTDIR: the first
                                                  directory given, or the current one)
writes OUTDIR/summary.md and OUTDIR/<group>_{time,cycles,speedup}.png. Later rows of the same configuration replace
earlier ones (the CSV files are appended to). Runs with fp32 sub-iterations have a classic_fp32 row (classic Jacobi with
fp32 sweeps) and a speedup_vs_classic_fp32 column; their tables show speedups over it too. Older CSV files, without
them, read as before."""
import argparse
import csv
import math
import os
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
            if plt:
                plot_group(plt, outdir, f"{slug}_t{tile}", f"{name}, tile {tile}", ks, os_, cell, tc, t32)
                md.append(f"![time]({slug}_t{tile}_time.png) ![cycles]({slug}_t{tile}_cycles.png) ![speedup]({slug}_t{tile}_speedup.png)\n")
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


def plot_group(plt, outdir, slug, title, ks, os_, cell, tc, t32=math.nan):
    # Figures 9/13 (a) time and (b) cycles against overlap, one curve per k
    for what, col, ylabel in (("time", "time_s", "time to converge [s]"), ("cycles", "cycles", "cycles to converge")):
        fig, ax = plt.subplots(figsize=(6.4, 4.4))
        for k in ks:
            xs = [o for o in os_ if (k, o) in cell and ok(fnum(cell[(k, o)]["time_s"]))]
            ys = [fnum(cell[(k, o)][col]) for o in xs]
            if xs:
                ax.plot(xs, ys, "o-", label=f"k = {k}")
        if what == "time" and ok(tc):
            ax.axhline(tc, color="k", ls="--", label="classic")
        if what == "time" and ok(t32):
            ax.axhline(t32, color="gray", ls=":", label="classic fp32")
        ax.set_yscale("log")
        ax.set_xlabel("overlap")
        ax.set_ylabel(ylabel)
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, f"{slug}_{what}.png"), dpi=110)
        plt.close(fig)
    # Figures 7/12 and Tables 1-4: speedup over classic against k (o = 0 and the best overlap)
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    s0, sb = [], []
    for k in ks:
        r0 = cell.get((k, 0))
        s0.append(sx(r0, tc) if r0 and ok(fnum(r0["time_s"])) else math.nan)
        timed = [fnum(cell[(k, o)]["time_s"]) for o in os_ if (k, o) in cell and ok(fnum(cell[(k, o)]["time_s"]))]
        sb.append(tc / min(timed) if timed else math.nan)
    ax.plot(ks, s0, "o-", label="overlap 0")
    ax.plot(ks, sb, "s-", label="best overlap")
    ax.axhline(1.0, color="k", ls="--", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("sub-iterations k")
    ax.set_ylabel("speedup over classic")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, f"{slug}_speedup.png"), dpi=110)
    plt.close(fig)


def summarise_roofline(rows, md):
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
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("-o", "--outdir")
    a = ap.parse_args()
    outdir = a.outdir or next((p for p in a.inputs if os.path.isdir(p)), ".")
    os.makedirs(outdir, exist_ok=True)
    paper, roof, comments = read_csvs(a.inputs)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as e:  # markdown only
        plt = None
        print(f"summary.py: matplotlib not available ({e}); writing markdown only", file=sys.stderr)
    md = ["# petsc-hjacobi benchmarks: B1, B2 (the paper's Tables 1-4) and B5 (roofline)\n",
          "Times: median of the timed repetitions (reps < 5 is flagged), each exactly the cycle count found first, from x0 = 1, "
          "no norms, data on the device. Speedups are time ratios measured in the same run (each row against the classic and "
          "stock PETSc times of its own run; the baseline rows shown are those of the last run of the group; with fp32 sub-iterations also "
          "against classic fp32, classic Jacobi with fp32 sweeps, so that the method's gain and the precision's gain can be told apart). "
          "Stock PETSc's time is its time per "
          "iteration x classic's cycle count (its iterates are classic's). Classic counts marked *computed* come from the exact "
          "sine-basis formula, not from a run.\n"]
    summarise_paper(paper, outdir, plt, md)
    errors = summarise_roofline(roof, md)
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
    print(f"summary.py: wrote {path}" + ("" if plt else " (no plots: matplotlib missing)"))
    if errors:
        print(f"summary.py: ERROR: {errors} ratio(s) above 1 of a physical peak", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
