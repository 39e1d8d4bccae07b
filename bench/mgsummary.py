#!/usr/bin/env python3
"""Summarise the CSV of bench/gpu.sh's mg suite (bench/suites.txt; B3: multigrid smoother; B4: Krylov preconditioner; ../shared/BENCHMARKS.md)
as markdown.

usage: mgsummary.py [-o FILE] MG_CSV        (default FILE: mg.md next to the CSV; the markdown also goes to stdout)

The CSV has the header bench,label,result (older files: bench,solver,result); each row holds one RESULT line of
examples/mg3d or examples/varcoef2d, e.g.
  B3,"3d mg+hjacobi(tile8,k4,w0.8,its2)+sweep","RESULT example=mg3d grid=257x257x257 ... smoother=richardson/hjacobi
     sweep=k4:w0.8:its2:t8 its=5 time=3.8e-02 time_per_it=7.6e-03 relres=4.1e-09 reason=CONVERGED_RTOL"
A run with -sweep prints one RESULT line for its base settings (no sweep=) and one per sweep entry. Every number
printed comes from the CSV; targets (B3: hjacobi >= 2x faster than Chebyshev/Jacobi and faster than GAMG; B4: CG +
hjacobi >= 3x faster than CG + Jacobi) are the only constants."""
import argparse
import csv
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summary import fnum, inum  # noqa: E402  (one parser for both summaries)

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


def read_rows(path):
    with open(path, newline="") as fh:
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


def b3_section(rows, out):
    b3 = [r for r in rows if (r["_bench"] == "B3" or (r["_bench"] not in ("B4",) and r.get("pc") in ("mg", "gamg")))
          and r.get("example", "mg3d") == "mg3d"]
    out.append("## B3. Multigrid smoother")
    out.append("")
    out.append("FGMRES, rtol 1e-8, KSPSolve time of a second solve (the first sets up). Ratios are the other solver's "
               "time over hjacobi's (> 1: hjacobi faster). Targets: >= %gx vs PCMG + Chebyshev/Jacobi, faster than "
               "GAMG." % B3_CHEB_TARGET)
    out.append("")
    grids = []
    for r in b3:
        if r.get("grid") not in grids:
            grids.append(r.get("grid"))
    for g in grids:
        gr = [r for r in b3 if r.get("grid") == g]
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


def b4_section(rows, out):
    b4 = [r for r in rows if r["_bench"] == "B4" or (r["_bench"] != "B3" and r.get("pc") not in ("mg", "gamg"))]
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
        # BENCHMARKS.md B1: beside every fp32 sub-iteration row the fp32 classic one (k = 1 in single precision), so
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
    ap.add_argument("-o", "--output", help="markdown file (default: mg.md next to the CSV)")
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
    try:
        with open(outpath, "w") as fh:
            fh.write(text)
    except OSError as e:
        print("mgsummary: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
