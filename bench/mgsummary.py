#!/usr/bin/env python3
"""Summarise the CSV of bench/gpu.sh's mg suite (bench/suites.txt; B3: multigrid smoother; B4: Krylov preconditioner; bench/README.md)
as markdown and, when matplotlib is importable, PNG plots.

usage: mgsummary.py [-o FILE|-] [--plots DIR] [--no-plots] MG_CSV[.gz]
       (default FILE: mg.md next to the CSV; the markdown also goes to stdout; -o -: stdout only)
Plots (Agg; Debian: python3-matplotlib; without it the tables are written all the same): CSV_STEM.png, the KSPSolve
times of the B3 and B4 tables; CSV_STEM-levels.png when the run's log CSV_STEM.log[.gz] holds -log_view of PCMG runs:
GPU time per V-cycle by level (MGSmooth, MGResid, MGInterp), one bar per smoother.

The CSV has the header bench,label,result (older files: bench,solver,result); each row holds one RESULT line of
examples/mg3d or examples/varcoef2d, e.g.
  B3,"3d mg+hjacobi(tile8,k4,w0.8,its2)+sweep","RESULT example=mg3d grid=257x257x257 ... smoother=richardson/hjacobi
     sweep=k4:w0.8:its2:t8 its=5 time=3.8e-02 time_per_it=7.6e-03 relres=4.1e-09 reason=CONVERGED_RTOL"
A run with -sweep prints one RESULT line for its base settings (no sweep=) and one per sweep entry. Every number
printed comes from the CSV; targets (B3: hjacobi >= 2x faster than Chebyshev/Jacobi and faster than GAMG; B4: CG +
hjacobi >= 3x faster than CG + Jacobi) are the only constants."""
import argparse
import csv
import gzip
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import fnum, inum, import_pyplot, run_of, write_png, PNG_WIDTH  # noqa: E402  (one parser for both summaries)

B3_CHEB_TARGET = 2.0  # hjacobi smoother vs Chebyshev/Jacobi smoother, KSPSolve time
B3_GAMG_TARGET = 1.0  # hjacobi smoother faster than GAMG
B4_TARGET = 3.0  # CG + hjacobi vs CG + Jacobi, KSPSolve time


# ------------------------------------------------------------------------------------------------ parsing


def ok(x):
    return x is not None and not (isinstance(x, float) and math.isnan(x))


def parse_result(text):
    """'RESULT key=value ...' -> dict (tokens without '=' are ignored)."""
    kv = {}
    for tok in (text or "").split():
        if "=" not in tok:
            continue
        k, v = tok.split("=", 1)
        if k:
            kv[k.strip()] = v.strip().strip('",;')
    return kv


def label_settings(label):
    """hjacobi settings named in a label's parentheses, e.g. 'mg+hjacobi(tile8,k4,w0.8,its2)+sweep' ->
    {'tile': '8', 'k': '4', 'w': '0.8', 'its': '2'}; also 'o' (overlap) and 'single'."""
    s = {}
    for grp in re.findall(r"\(([^)]*)\)", label or ""):
        for item in grp.split(","):
            item = item.strip()
            m = re.fullmatch(r"(tile|k|w|its|o)(\d+(?:\.\d*)?(?:e[-+]?\d+)?)", item)
            if m:
                s[m.group(1)] = m.group(2)
            elif item in ("single", "fp32"):
                s["single"] = "yes"
    return s


def sweep_settings(tag):
    """'k4:w0.8:its2:t8' -> {'k': '4', 'w': '0.8', 'its': '2', 'tile': '8'} (t0: the level's own tile)."""
    s = {}
    for part in (tag or "").split(":"):
        m = re.fullmatch(r"(k|w|its|t)(.+)", part.strip())
        if m:
            s["tile" if m.group(1) == "t" else m.group(1)] = m.group(2)
    return s


def open_text(path):
    """a text file, gzip-compressed when its name ends in .gz (the committed logs and CSV files of later runs)"""
    return gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")


def read_rows(path):
    with open_text(path) as fh:
        lines = [ln for ln in fh.read().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        return []
    header = [h.strip().lower() for h in next(csv.reader([lines[0]]))]
    body = lines[1:]
    if "result" not in header:  # no header line: bench,label,result
        header, body = ["bench", "label", "result"], lines
    ib = header.index("bench") if "bench" in header else 0
    il = next((header.index(h) for h in ("label", "solver", "name") if h in header), 1)
    ir = header.index("result")
    rows = []
    for n, rec in enumerate(csv.reader(body)):
        if len(rec) <= max(ib, il, ir):
            # a row whose result lost its quotes: take the RESULT part of the raw line
            raw = ",".join(rec)
            if "RESULT" not in raw:
                continue
            rec = [rec[0] if rec else "", "", raw[raw.index("RESULT"):]]
            ib, il, ir = 0, 1, 2
        kv = parse_result(rec[ir])
        if not kv:
            continue
        label = rec[il].strip()
        r = dict(kv)
        r["_bench"] = rec[ib].strip().upper()
        r["_label"] = label
        r["_case"] = label.split()[0] if label else ""
        r["_n"] = n
        r["_its"] = inum(kv.get("its"), None)
        r["_time"] = fnum(kv.get("time"))
        r["_tpi"] = fnum(kv.get("time_per_it"))
        if not ok(r["_tpi"]) and ok(r["_time"]) and r["_its"]:
            r["_tpi"] = r["_time"] / max(r["_its"], 1)
        r["_relres"] = fnum(kv.get("relres"))
        r["_reason"] = kv.get("reason", "")
        rows.append(r)
    # a configuration given twice (a CSV appended to): the later row wins
    seen = {}
    for r in rows:
        key = (r["_bench"], r["_label"], r.get("example"), r.get("grid"), r.get("n"), r.get("pc"), r.get("ksp"),
               r.get("smoother"), r.get("sweep"))
        seen[key] = r
    return sorted(seen.values(), key=lambda r: r["_n"])


def converged(r):
    return r is not None and r["_reason"].startswith("CONVERGED")


def grid_dims(grid):
    d = [inum(x, None) for x in (grid or "").split("x")]
    return [x for x in d if x is not None]


def grid_title(grid):
    d = grid_dims(grid)
    if len(d) == 3 and d[2] == 1:
        d = d[:2]
    if not d:
        return "grid %s" % grid
    if all(x == d[0] for x in d):
        return "%dD %d^%d" % (len(d), d[0], len(d))
    return "%dD %s" % (len(d), " x ".join(map(str, d)))


def grid_dim(grid):
    d = grid_dims(grid)
    return 2 if len(d) == 2 or (len(d) == 3 and d[2] == 1) else len(d)


# ------------------------------------------------------------------------------------------------ formatting
def ft(x):
    return "%.4g" % x if ok(x) else "-"


def fms(x):
    return "%.4g" % (1e3 * x) if ok(x) else "-"


def fr(x):
    return "%.2e" % x if ok(x) else "-"


def fx(x):
    return "%.2fx" % x if ok(x) else "-"


def fits(r):
    return str(r["_its"]) if r and r["_its"] is not None else "-"


def note(r):
    return "" if converged(r) else (r["_reason"] or "no reason")


TEXT_COLUMNS = ("note", "row", "target")


def table(head, rows):
    """markdown table; the first column and the text columns (note, row, target...) left-aligned, numbers right."""
    align = ["---" if i == 0 or h.startswith(TEXT_COLUMNS) else "---:" for i, h in enumerate(head)]
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    for row in rows:
        out.append("| " + " | ".join(row) + " |")
    return out


def ratio(base, other):
    """other's time / base's time (> 1: base faster), or None."""
    if base is None or other is None or not ok(base["_time"]) or not ok(other["_time"]) or base["_time"] <= 0:
        return None
    return other["_time"] / base["_time"]


def verdict(x, target, hj, other, othername, strict=False):
    if hj is None:
        return "not run"
    if other is None:
        return "n/a (%s not run)" % othername
    if x is None:
        return "n/a (no time)"
    if not converged(hj):
        return "missed (%s: hjacobi %s)" % (fx(x), hj["_reason"] or "did not converge")
    met = x > target if strict else x >= target
    rel = (">" if strict else ">=") if met else ("<=" if strict else "<")
    s = "%s (%s %s %sx)" % ("met" if met else "missed", fx(x), rel, ("%g" % target))
    if not converged(other):
        s += ", %s %s" % (othername, other["_reason"] or "did not converge")
    return s


# ------------------------------------------------------------------------------------------------ B3
def hj_settings(r):
    """the smoother settings of an hjacobi row: the sweep tag's, else the label's."""
    if r.get("sweep"):
        s = sweep_settings(r["sweep"])
        if s.get("tile") == "0":
            base = label_settings(r["_label"])
            s["tile"] = base["tile"] + " (level's)" if base.get("tile") else "level's"
        return s
    return label_settings(r["_label"])


def settings_text(r):
    s = hj_settings(r)
    parts = []
    for key, name in (("k", "k"), ("w", "omega"), ("its", "its"), ("tile", "tile")):
        if key in s:
            parts.append("%s %s" % (name, s[key]))
    return ", ".join(parts) or r["_label"]


def b3_kind(r):
    pc = r.get("pc", "")
    sm = r.get("smoother", "")
    if pc == "gamg":
        return "gamg"
    if pc == "mg":
        if "hjacobi" in sm:
            return "hjacobi"
        if "chebyshev" in sm:
            return "cheb"
        return "mg-other"
    return None


def b3_rows(rows):
    return [r for r in rows if (r["_bench"] == "B3" or (r["_bench"] not in ("B4",) and r.get("pc") in ("mg", "gamg")))
            and r.get("example", "mg3d") == "mg3d"]


def b3_grids(b3):
    grids = []
    for r in b3:
        if r.get("grid") not in grids:
            grids.append(r.get("grid"))
    return grids


def b3_select(gr):
    """one grid's rows -> (hjacobi rows, hjacobi rows without a sweep entry, base, best, Chebyshev/Jacobi, GAMG, other)"""
    hj = [r for r in gr if b3_kind(r) == "hjacobi"]
    hj_base_all = [r for r in hj if not r.get("sweep")]
    base = hj_base_all[0] if hj_base_all else None
    cheb = next((r for r in gr if b3_kind(r) == "cheb"), None)
    gamg = next((r for r in gr if b3_kind(r) == "gamg"), None)
    # rows of another kind, and further Chebyshev/GAMG rows (the first one of each is compared)
    other = [r for r in gr if b3_kind(r) in ("mg-other", None) or (b3_kind(r) in ("cheb", "gamg")
                                                                     and r is not cheb and r is not gamg)]
    conv = [r for r in hj if converged(r) and ok(r["_time"])]
    best = min(conv, key=lambda r: r["_time"]) if conv else None
    return hj, hj_base_all, base, best, cheb, gamg, other


def b3_section(rows, out):
    b3 = b3_rows(rows)
    out.append("## B3. Multigrid smoother")
    out.append("")
    out.append("FGMRES, rtol 1e-8, KSPSolve time of a second solve (the first sets up). Ratios are the other solver's "
               "time over hjacobi's (> 1: hjacobi faster). Targets: >= %gx vs PCMG + Chebyshev/Jacobi, faster than "
               "GAMG." % B3_CHEB_TARGET)
    out.append("")
    grids = b3_grids(b3)
    for g in grids:
        gr = [r for r in b3 if r.get("grid") == g]
        hj, hj_base_all, base, best, cheb, gamg, other = b3_select(gr)
        lv = next((r.get("levels") for r in gr if r.get("levels")), None)

        out.append("### %s (grid %s%s)" % (grid_title(g), g, ", %s levels" % lv if lv else ""))
        out.append("")
        head = ["solver", "iterations", "KSPSolve time (s)", "time per iteration (ms)", "relres", "note"]
        trs = []
        for name, r in (("PCMG + Richardson/hjacobi, base: " + (settings_text(base) if base else ""), base),
                        ("PCMG + Chebyshev/Jacobi", cheb), ("GAMG", gamg)):
            if r is None:
                trs.append([name.split(", base")[0], "not run", "", "", "", ""])
            else:
                trs.append([name, fits(r), ft(r["_time"]), fms(r["_tpi"]), fr(r["_relres"]), note(r)])
        if best is not None and best is not base:
            trs.append(["PCMG + Richardson/hjacobi, best %s: " % ("sweep entry" if best.get("sweep") else "row")
                        + settings_text(best), fits(best), ft(best["_time"]),
                        fms(best["_tpi"]), fr(best["_relres"]), note(best)])
        for r in other:
            sm = " " + r["smoother"] if r.get("smoother") else ""
            trs.append(["%s (pc=%s%s)" % (r["_label"], r.get("pc", "?"), sm), fits(r),
                        ft(r["_time"]), fms(r["_tpi"]), fr(r["_relres"]), note(r)])
        out += table(head, trs)
        out.append("")

        head = ["hjacobi", "vs Chebyshev/Jacobi", "target >= %gx" % B3_CHEB_TARGET, "vs GAMG", "target: faster"]
        trs = []
        if base is None and best is None:
            trs.append(["not run", "-", "not run", "-", "not run"])
        for name, r in (("base: " + settings_text(base) if base else "base: not run", base),
                        (("best (= base)" if best is base else "best %s: %s" % (
                            "sweep entry" if best.get("sweep") else "row", settings_text(best)))
                         if best else "best: no converged hjacobi row", best)):
            if r is None:
                if base is not None or best is not None:
                    trs.append([name, "-", "-", "-", "-"])
                continue
            xc, xg = ratio(r, cheb), ratio(r, gamg)
            trs.append([name, fx(xc), verdict(xc, B3_CHEB_TARGET, r, cheb, "Chebyshev/Jacobi"),
                        fx(xg), verdict(xg, B3_GAMG_TARGET, r, gamg, "GAMG", strict=True)])
        out += table(head, trs)
        out.append("")
        if len(hj_base_all) > 1:
            out.append("(%d hjacobi rows without a sweep entry; the first, %s, is taken as the base.)"
                       % (len(hj_base_all), base["_label"]))
            out.append("")

        # the sweep table
        out.append("#### %s: hjacobi smoother settings, by time" % grid_title(g))
        out.append("")
        if not hj:
            out += ["not run", ""]
            continue
        fastest = best["_time"] if best else math.nan
        head = ["k", "omega", "smoothing its", "tile", "iterations", "time (s)", "time per iteration (ms)",
                "vs fastest", "vs Cheb/Jacobi", "vs GAMG", "row", "note"]
        trs = []
        for r in sorted(hj, key=lambda r: (not converged(r), r["_time"] if ok(r["_time"]) else math.inf)):
            s = hj_settings(r)
            xc, xg = ratio(r, cheb), ratio(r, gamg)
            trs.append([s.get("k", "-"), s.get("w", "-"), s.get("its", "-"), s.get("tile", "default"), fits(r),
                        ft(r["_time"]), fms(r["_tpi"]),
                        fx(r["_time"] / fastest) if ok(fastest) and ok(r["_time"]) else "-",
                        fx(xc) if xc is not None else "-", fx(xg) if xg is not None else "-",
                        "sweep" if r.get("sweep") else "base", note(r)])
        out += table(head, trs)
        out.append("")
    dims_seen = {grid_dim(g) for g in grids}
    for d in (3, 2):
        if d not in dims_seen:
            out += ["### %dD: not run" % d, ""]


# ------------------------------------------------------------------------------------------------ B4
def b4_operator(r):
    if r.get("example") == "varcoef2d":
        return ("varcoef2d", r.get("n"), r.get("contrast")), "varcoef2d (2D variable coefficients), n = %s, " \
            "contrast %s" % (r.get("n", "?"), r.get("contrast", "?"))
    sym = " (symmetric)" if "symmetric" in r["_label"] else ""
    return ("mg3d", r.get("grid"), sym), "%s Poisson%s, grid %s" % (grid_title(r.get("grid")), sym, r.get("grid"))


def b4_variant(r):
    """the label's parenthesised settings without the operator words."""
    m = re.search(r"\(([^)]*)\)", r["_label"])
    items = [i.strip() for i in m.group(1).split(",")] if m else []
    items = [i for i in items if i and i not in ("3d", "2d", "symmetric", "varcoef2d")]
    items = ["fp32 inner" if i == "single" else i for i in items]
    ksp = r.get("ksp", "cg")
    return "%s + %s%s" % (ksp.upper(), r.get("pc", "?"), " (%s)" % ", ".join(items) if items else "")


def b4_rows(rows):
    return [r for r in rows if r["_bench"] == "B4" or (r["_bench"] != "B3" and r.get("pc") not in ("mg", "gamg"))]


def b4_section(rows, out):
    b4 = b4_rows(rows)
    out.append("## B4. Krylov preconditioner")
    out.append("")
    out.append("CG, rtol 1e-8 (CG's default norm), KSPSolve time of a second solve. Speedup: CG + Jacobi's time "
               "over the variant's. Target: >= %gx." % B4_TARGET)
    out.append("")
    ops, titles = [], {}
    for r in b4:
        key, title = b4_operator(r)
        if key not in ops:
            ops.append(key)
            titles[key] = title
    for key in ops:
        orow = [r for r in b4 if b4_operator(r)[0] == key]
        jac = next((r for r in orow if r.get("pc") == "jacobi"), None)
        var = [r for r in orow if r is not jac]
        out.append("### " + titles[key])
        out.append("")
        head = ["preconditioner", "iterations", "time (s)", "time per iteration (ms)", "relres",
                "speedup vs Jacobi", "target >= %gx" % B4_TARGET, "vs fp32 classic", "note"]
        trs = []
        if jac is None:
            trs.append(["CG + jacobi", "not run", "", "", "", "", "", "", ""])
        else:
            trs.append([b4_variant(jac), fits(jac), ft(jac["_time"]), fms(jac["_tpi"]), fr(jac["_relres"]), "1.00x",
                        "", "", note(jac)])
        # B1 (bench/README.md): beside every fp32 sub-iteration row the fp32 classic one (k = 1 in single precision), so
        # that the method's gain and the precision's can be told apart
        single = [r for r in var if label_settings(r["_label"]).get("single")]
        c32 = next((r for r in single if label_settings(r["_label"]).get("k") == "1"), None)
        best = None
        for r in var:
            x = ratio(r, jac)
            if converged(r) and x is not None and (best is None or x > best[0]):
                best = (x, r)
            vs32 = ""
            if r in single:
                if r is c32:
                    vs32 = "(fp32 classic)"
                elif c32 is None:
                    vs32 = "no fp32 classic row in this run"
                else:
                    y = ratio(r, c32)
                    vs32 = fx(y) if y is not None else "-"
            trs.append([b4_variant(r), fits(r), ft(r["_time"]), fms(r["_tpi"]), fr(r["_relres"]),
                        fx(x) if x is not None else "-", verdict(x, B4_TARGET, r, jac, "CG + Jacobi"), vs32, note(r)])
        if not var:
            trs.append(["CG + hjacobi", "not run", "", "", "", "", "", "", ""])
        out += table(head, trs)
        out.append("")
        if best is not None:
            out.append("Best converged variant: %s, %s vs CG + Jacobi: %s." % (
                b4_variant(best[1]), fx(best[0]), verdict(best[0], B4_TARGET, best[1], jac, "CG + Jacobi")))
        elif var:
            out.append("No converged CG + hjacobi variant%s."
                       % ("" if jac is not None else " (and CG + Jacobi not run)"))
        out.append("")
    if not any(k[0] == "mg3d" for k in ops):
        out += ["### 3D Poisson (symmetric): not run", ""]
    if not any(k[0] == "varcoef2d" for k in ops):
        out += ["### varcoef2d: not run", ""]


# ------------------------------------------------------------------------------------------------ plots
# With matplotlib (Agg): CSV_STEM.png, the B3 and B4 solve times of the tables above (one panel per grid / operator),
# and, when the run's log (CSV_STEM.log or .log.gz) holds PETSc's -log_view of PCMG runs (-pc_mg_log
# -log_view_gpu_time), CSV_STEM-levels.png: the GPU time of MGSmooth, MGResid and MGInterp per V-cycle on each level,
# one bar per smoother, averaged over the V-cycles of both solves (a matrix copied to the GPU during the first solve
# would count in its level's MGResid: -log_view's CpuToGpu column shows it). Every value drawn is in the CSV or log.
EVENTS = (("MGSmooth", "smoothing (MGSmooth; level 0: coarse solve)", None, 1.0),
          ("MGResid", "residual (MGResid)", "..", 0.55),
          ("MGInterp", "restriction + interpolation (MGInterp)", "//", 0.3))


def run_context(csvpath):
    """{'GPU': ..., 'commit': ..., 'run': ...} from the run's summary.txt (summary.txt beside the CSV, or the committed
    DATE-RUN-summary.txt) and the DATE-RUN prefix of the file name"""
    d = os.path.dirname(os.path.abspath(csvpath))
    run = run_of(os.path.basename(csvpath))
    ctx = {"run": run}
    for name in ([run + "-summary.txt"] if run else []) + ["summary.txt"]:
        try:
            with open(os.path.join(d, name)) as fh:
                for ln in fh:
                    if ln.startswith("GPU:") and "GPU" not in ctx:
                        ctx["GPU"] = ln[4:].split(",")[0].strip()
                    elif ln.startswith("commit:") and "commit" not in ctx and ln[7:].split():
                        ctx["commit"] = ln[7:].split()[0][:7] + ("+" if "uncommitted" in ln else "")
            break
        except OSError:
            continue
    return ctx


def context_title(ctx, csvpath):
    parts = [ctx.get("GPU") or "GPU not recorded", "run " + (ctx.get("run") or os.path.basename(csvpath))]
    if ctx.get("commit"):
        parts.append("commit " + ctx["commit"])
    return ", ".join(parts)


def stem(path):
    b = os.path.basename(path)
    for ext in (".csv.gz", ".csv"):
        if b.endswith(ext):
            return b[: -len(ext)]
    return os.path.splitext(b)[0]


def bar_panel(ax, items, title, unit_s, ref=None):
    """horizontal bars of KSPSolve time; items: (label, row). Not converged: hatched, its reason printed. ref: the row
    the others are compared with, as in the tables (B3: their time over hjacobi's; B4: speedup over CG + Jacobi)."""
    from matplotlib.transforms import blended_transform_factory

    items = [(lab, r) for lab, r in items if r is not None and ok(r["_time"])]
    scale, unit = (1e3, "ms") if unit_s == "ms" else (1.0, "s")
    vals = [scale * r["_time"] for _, r in items]
    y = list(range(len(items)))[::-1]
    colours = ["tab:blue" if "hjacobi" in (r.get("smoother", "") + r.get("pc", "")) else "0.55" for _, r in items]
    ax.barh(y, vals, color=colours, height=0.6, hatch=[None if converged(r) else "xx" for _, r in items])
    top = max(vals) if vals else 1.0
    for yi, v, (lab, r) in zip(y, vals, items):
        txt = " %.4g %s: %s its x %.3g ms" % (v, unit, fits(r), 1e3 * r["_tpi"]) if ok(r["_tpi"]) else " %.4g %s" % (v, unit)
        if not converged(r):
            txt += " (%s)" % (r["_reason"] or "did not converge")
        elif ref is not None and r is not ref and ref.get("pc") == "jacobi":  # B4: the table's speedup over CG + Jacobi
            x = ratio(r, ref)
            txt += ", %s vs CG + Jacobi" % fx(x) if x is not None else ""
        elif ref is not None and r is not ref:  # B3: the table's ratio, the other solver's time over hjacobi's
            x = ratio(ref, r)
            txt += ", %s hjacobi's time" % fx(x) if x is not None else ""
        ax.text(v, yi, txt, va="center", fontsize=7)
    ax.set_yticks(y)
    ax.set_yticklabels([lab for lab, _ in items], fontsize=7)
    ax.set_xlim(0, top * 2.2)
    ax.set_xlabel("KSPSolve time, second solve [%s]; labels: iterations x time per iteration" % unit, fontsize=8)
    # the panel's title from the figure's left edge (the bar labels take the left part of the width)
    ax.text(0.01, 1.04, title, transform=blended_transform_factory(ax.figure.transFigure, ax.transAxes), fontsize=9,
            va="bottom", ha="left")
    ax.grid(True, axis="x", alpha=0.3)


def plot_mg(plt, rows, path, title):
    """the B3 and B4 tables as bars: per grid PCMG + hjacobi (base, best), Chebyshev/Jacobi, GAMG, other rows; per B4
    operator CG + Jacobi and every CG + hjacobi variant -> True when drawn"""
    panels = []
    b3 = b3_rows(rows)
    for g in b3_grids(b3):
        hj, _, base, best, cheb, gamg, other = b3_select([r for r in b3 if r.get("grid") == g])
        items = [("Richardson/hjacobi, base: " + settings_text(base) if base else "", base)]
        if best is not None and best is not base:
            items.append(("hjacobi, best %s: %s" % ("sweep entry" if best.get("sweep") else "row", settings_text(best)),
                          best))
        items += [("Chebyshev/Jacobi", cheb), ("GAMG (pc_type gamg)", gamg)]
        items += [("%s (pc=%s%s)" % (r["_label"], r.get("pc", "?"), " " + r["smoother"] if r.get("smoother") else ""), r)
                  for r in other]
        lv = next((r.get("levels") for r in b3 if r.get("grid") == g and r.get("levels")), None)
        panels.append(("B3 %s%s (FGMRES, rtol 1e-8): PCMG smoothers%s" % (grid_title(g), ", %s levels" % lv if lv else "",
                                                                         " and GAMG" if gamg else ""), items, "ms", base))
    b4 = [r for r in b4_rows(rows) if r["_bench"] in ("B4", "")]  # rows the table's fallback takes in: bench B4 only
    ops = []
    for r in b4:
        key, t = b4_operator(r)
        if key not in [k for k, _ in ops]:
            ops.append((key, t))
    for key, t in ops:
        orow = [r for r in b4 if b4_operator(r)[0] == key]
        jac = [r for r in orow if r.get("pc") == "jacobi"][:1]
        var = [r for r in orow if r not in jac]
        panels.append(("B4 %s (CG, rtol 1e-8)" % t, [(b4_variant(r), r) for r in jac + var], "s", jac[0] if jac else None))
    panels = [p for p in panels if any(r is not None and ok(r["_time"]) for _, r in p[1])]
    if not panels:
        return False
    heights = [0.9 + 0.3 * sum(1 for _, r in p[1] if r is not None and ok(r["_time"])) for p in panels]
    total = 1.0 + sum(heights) + 0.35 * len(panels)
    fig, axs = plt.subplots(len(panels), 1, figsize=(PNG_WIDTH, total), gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, (ptitle, items, unit, ref) in zip(axs[:, 0], panels):
        bar_panel(ax, items, ptitle, unit, ref)
    fig.suptitle("B3 (multigrid smoother) and B4 (Krylov preconditioner), blue: hjacobi\n" + title, fontsize=10)
    fig.subplots_adjust(left=0.42, right=0.98, top=1 - 1.05 / total, bottom=0.45 / total, hspace=0.9 * len(panels) / sum(heights))
    write_png(plt, fig, path)
    return True


EVENT_RE = re.compile(r"^(MGSmooth|MGResid|MGInterp) Level\s+(\d+)\s+(\d+)\s+\S+\s+(\S+)")


def parse_levels(logpath):
    """PETSc -log_view output in a gpu.sh log -> sections, one per command ('== LABEL: command' lines) that printed a
    RESULT line of PCMG and MG events: {'label', 'result' (dict), 'events' {(event, level): [calls, seconds]}}; an
    event printed in several stages is summed."""
    sections, cur = [], None
    with open_text(logpath) as fh:
        for ln in fh:
            if ln.startswith("== "):
                cur = {"label": ln[3:].split(":", 1)[0].strip(), "result": {}, "events": {}}
                sections.append(cur)
                continue
            if cur is None:
                continue
            if ln.startswith("RESULT ") and not cur["result"]:
                cur["result"] = parse_result(ln)
                continue
            m = EVENT_RE.match(ln)
            if m:
                e = cur["events"].setdefault((m.group(1), int(m.group(2))), [0, 0.0])
                e[0] += int(m.group(3))
                e[1] += fnum(m.group(4))
    return [s for s in sections if s["result"].get("pc") == "mg" and ("MGSmooth", 0) in s["events"]]


def level_points(grid, levels, lev):
    """points per direction of level lev (0: coarsest) when each level halves the fine grid's n - 1, else None"""
    d = grid_dims(grid)
    if len(d) == 3 and d[2] == 1:
        d = d[:2]
    if not d or not levels:
        return None
    f = 2 ** (levels - 1 - lev)
    if any((n - 1) % f for n in d):
        return None
    p = [(n - 1) // f + 1 for n in d]
    return "$%d^%d$" % (p[0], len(p)) if all(x == p[0] for x in p) else "x".join(map(str, p))


def series_label(sec):
    r = sec["result"]
    sm = r.get("smoother", "?")
    m = re.search(r"\(([^)]*)\)", sec["label"])
    return "PCMG + %s%s" % (sm, " (%s)" % m.group(1).replace(",", ", ") if m and "hjacobi" in sm else "")


def plot_levels(plt, sections, path, title):
    """GPU time per V-cycle by level, one bar per smoother (section), stacked by event -> True when drawn. V-cycles:
    the coarse solves in the log (MGSmooth Level 0 calls), which count both solves of mg3d."""
    from matplotlib.patches import Patch

    grids = []
    for s in sections:
        if s["result"].get("grid") not in grids:
            grids.append(s["result"].get("grid"))
    if not grids:
        return False
    fig, axs = plt.subplots(len(grids), 1, figsize=(PNG_WIDTH, 0.8 + 3.6 * len(grids)), squeeze=False)
    cmap = plt.get_cmap("tab10")
    for ax, g in zip(axs[:, 0], grids):
        ss = [s for s in sections if s["result"].get("grid") == g]
        nl = max(lev for s in ss for (_, lev) in s["events"]) + 1
        width = 0.8 / len(ss)
        handles = []
        hjc = iter(["tab:blue", "tab:cyan", "tab:purple", "navy", "tab:pink"])
        otc = iter(["tab:orange", "tab:red", "tab:brown", "tab:olive", "tab:green"])
        for i, s in enumerate(ss):
            vc = s["events"][("MGSmooth", 0)][0]
            col = next(hjc if "hjacobi" in s["result"].get("smoother", "") else otc, None) or cmap(i % 10)
            xs = [lev + (i - (len(ss) - 1) / 2) * width for lev in range(nl)]
            bottom = [0.0] * nl
            total = 0.0
            for ev, _, hatch, alpha in EVENTS:
                v = [1e3 * s["events"].get((ev, lev), [0, 0.0])[1] / vc for lev in range(nl)]
                ax.bar(xs, v, width * 0.92, bottom=bottom, color=col, alpha=alpha, hatch=hatch, edgecolor=col, lw=0.5)
                bottom = [b + x for b, x in zip(bottom, v)]
                total += sum(v)
            r = s["result"]
            tpi = fnum(r.get("time_per_it"))
            handles.append(Patch(color=col, label="%s%s\n    these events: %.3g ms per V-cycle (%d V-cycles in the log)"
                                 % (series_label(s), ": %s its, %.3g ms per iteration" % (r.get("its", "?"), 1e3 * tpi)
                                    if ok(tpi) else "", total, vc)))
        handles += [Patch(facecolor="0.5", alpha=a, hatch=h, edgecolor="0.5", label=lab) for _, lab, h, a in EVENTS]
        ax.set_xticks(range(nl))
        ax.set_xticklabels(["%d\n%s" % (lev, level_points(g, nl, lev) or "") for lev in range(nl)], fontsize=8)
        ax.set_xlabel("level (0: coarsest) and its grid")
        ax.set_ylabel("GPU time per V-cycle [ms]")
        lv = ss[0]["result"].get("levels")
        ax.set_title("B3 %s (grid %s%s)" % (grid_title(g), g, ", %s levels" % lv if lv else ""), fontsize=9)
        ax.grid(True, axis="y", alpha=0.3)
        lo, hi = ax.get_ylim()
        ax.set_ylim(0, hi * (1.2 + 0.12 * len(handles)))  # room for the legend above the bars
        ax.legend(handles=handles, fontsize=7, loc="upper left")
    fig.suptitle("B3: GPU time per V-cycle by level and smoother (-log_view_gpu_time, both solves)\n" + title, fontsize=10)
    fig.tight_layout()
    write_png(plt, fig, path)
    return True


def find_log(csvpath):
    base = os.path.join(os.path.dirname(os.path.abspath(csvpath)), stem(csvpath))
    return next((base + ext for ext in (".log", ".log.gz") if os.path.exists(base + ext)), None)


def draw(plt, rows, csvpath, plotdir):
    """-> the PNG files written"""
    ctx = run_context(csvpath)
    title = context_title(ctx, csvpath)
    written = []
    for what, f in (("B3/B4 bars", lambda p: plot_mg(plt, rows, p, title)),
                    ("levels", lambda p: (find_log(csvpath) is not None
                                          and plot_levels(plt, parse_levels(find_log(csvpath)), p, title)))):
        p = os.path.join(plotdir, stem(csvpath) + (".png" if what.startswith("B3") else "-levels.png"))
        try:
            if f(p):
                written.append(p)
        except Exception as e:  # noqa: BLE001  (a plot that fails costs its picture, never the tables)
            print("mgsummary: no %s plot: %s: %s" % (what, type(e).__name__, e), file=sys.stderr)
    return written


# ------------------------------------------------------------------------------------------------ main
def context_lines(csvpath):
    """GPU, commit and command from the summary.txt of the same run, when there is one."""
    p = os.path.join(os.path.dirname(os.path.abspath(csvpath)), "summary.txt")
    out = []
    try:
        with open(p) as fh:
            for ln in fh:
                if ln.startswith(("GPU:", "commit:", "command:", "date:")):
                    out.append("- " + ln.strip())
    except OSError:
        pass
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="mg.csv written by bench/gpu.sh run mg")
    ap.add_argument("-o", "--output", help="markdown file (default: mg.md next to the CSV; -: standard output only)")
    ap.add_argument("--plots", metavar="DIR", help="where the PNG plots go (default: the markdown's folder, with -o - "
                    "the CSV's): CSV_STEM.png (B3/B4 times) and, from the run's CSV_STEM.log[.gz], CSV_STEM-levels.png")
    ap.add_argument("--no-plots", action="store_true", help="tables only")
    a = ap.parse_args(argv)
    try:
        rows = read_rows(a.csv)
    except OSError as e:
        print("mgsummary: %s" % e, file=sys.stderr)
        return 1
    outpath = a.output or os.path.join(os.path.dirname(os.path.abspath(a.csv)), "mg.md")
    out = ["# B3 (multigrid smoother) and B4 (Krylov preconditioner)", "",
           "Input: `%s` (%d RESULT rows)." % (a.csv, len(rows))]
    ctx = context_lines(a.csv)
    if ctx:
        out += [""] + ctx
    out.append("")
    if not rows:
        out += ["No RESULT rows: B3 and B4 not run.", ""]
    else:
        b3_section(rows, out)
        b4_section(rows, out)
    text = "\n".join(out).rstrip() + "\n"
    sys.stdout.write(text)
    if a.output != "-":
        try:
            with open(outpath, "w") as fh:
                fh.write(text)
        except OSError as e:
            print("mgsummary: %s" % e, file=sys.stderr)
            return 1
    plt = None if a.no_plots or not rows else import_pyplot("mgsummary")
    if plt:
        plotdir = a.plots or os.path.dirname(os.path.abspath(a.csv if a.output == "-" else outpath))
        for p in draw(plt, rows, a.csv, plotdir):
            print("mgsummary: wrote %s" % p, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
