#!/usr/bin/env python3
"""calibrate.py - fit the three undocumented latency parameters of a GPU config on its
pointer-chase latency data, with `gmsim validate` (doc/validation.md, "Calibration").

  doc/calibrate.py GMSIM CONFIG GPU L1 L2 DRAM [--measured FILE]

L1, L2 and DRAM each name the rows one parameter is fitted on, in order:
  l1.hit_latency_cycles   on L1   (the L1 plateau of the chase)
  l2.hit_latency_cycles   on L2   (the L2 plateau), with l1 fixed
  l2.fill_latency_cycles  on DRAM (the DRAM plateau), with l1 and l2 fixed
Each is either `LO:HI` (the `pchase_latency@footprint_kB=K` rows of GPU with LO <= K <= HI,
at most 4 evenly spaced of them are simulated) or `VALUE@BYTES` (a scalar latency in SM
cycles from a clock-timed source, compared with a one-thread 128 B-line chase over BYTES:
the markdewing mapping of validate, which counts core cycles), `=N` (set to N, not fitted:
a value taken from another part), or `-` (left as the config has it). The fit is the integer value whose mean simulated latency over the rows is closest
to the mean measured one (secant steps, then the neighbours); one value per parameter for
all rows: no per-point factors. Prints the fitted values and the residual per row.
"""
import csv, os, subprocess, sys, tempfile

HDR = ["gpu", "memory_type", "metric", "value", "unit", "method", "source"]


def rows_for(measured, gpu, spec):
    if spec == "-":
        return None
    if "@" in spec:
        val, nbytes = spec.split("@")
        return [["fit", "x", "pchase_latency@footprint_bytes=%d" % int(nbytes), val, "cycles",
                 "scalar target", "calibrate.py"]]
    lo, hi = (float(x) for x in spec.split(":"))
    out = []
    for r in csv.reader(open(measured)):
        if r[0] == gpu and r[2].startswith("pchase_latency@footprint_kB="):
            k = float(r[2].split("=")[1])
            if lo <= k <= hi:
                out.append(r)
    if len(out) > 4:
        n = len(out)
        out = [out[round(i * (n - 1) / 3)] for i in range(4)]
    r2 = []
    for r in out:
        r2.append(["fit"] + r[1:])
    return r2


def simulate(gmsim, config, rows, sets):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        w = csv.writer(f)
        w.writerow(HDR)
        w.writerows(rows)
        name = f.name
    fd, js = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    cmd = [gmsim, "validate", "-q", "-c", config, "--measured", name, "--gpu", "fit",
           "--stats-json", js]
    for k, v in sets.items():
        cmd += ["-o", "%s=%d" % (k, v)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    import json
    d = json.load(open(js))
    os.unlink(name)
    os.unlink(js)
    pts = [(p["metric"], p["measured"], p["simulated"]) for p in d["points"]]
    meas = sum(p[1] for p in pts) / len(pts)
    sim = sum(p[2] for p in pts) / len(pts)
    return meas, sim, pts


def fit(gmsim, config, rows, sets, key, x0):
    cache = {}

    def f(x):
        if x not in cache:
            s = dict(sets)
            s[key] = x
            m, v, pts = simulate(gmsim, config, rows, s)
            cache[x] = (v - m, pts)
        return cache[x][0]

    a, b = x0, x0 + 20
    fa, fb = f(a), f(b)
    for _ in range(6):
        if fb == fa:
            break
        c = max(1, round(b - fb * (b - a) / (fb - fa)))
        if c in cache:
            break
        a, fa, b, fb = b, fb, c, f(c)
    best = min(cache, key=lambda x: abs(cache[x][0]))
    for x in (best - 1, best + 1):
        if x >= 1:
            f(x)
    best = min(cache, key=lambda x: abs(cache[x][0]))
    return best, cache[best][1]


def main():
    a = sys.argv[1:]
    measured = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "../data/hw/measured.csv")
    if "--measured" in a:
        i = a.index("--measured")
        measured = a[i + 1]
        del a[i:i + 2]
    if len(a) != 6:
        sys.exit(__doc__)
    gmsim, config, gpu, s1, s2, s3 = a
    sets = {}
    for key, spec, x0 in (("l1.hit_latency_cycles", s1, 28),
                          ("l2.hit_latency_cycles", s2, 100),
                          ("l2.fill_latency_cycles", s3, 150)):
        if spec.startswith("="):
            sets[key] = int(spec[1:])
            print("%-24s = %d   (given)" % (key, sets[key]))
            continue
        rows = rows_for(measured, gpu, spec)
        if not rows:
            print("%-24s not fitted" % key)
            continue
        best, pts = fit(gmsim, config, rows, sets, key, x0)
        sets[key] = best
        print("%-24s = %d   fitted on %s %s" % (key, best, gpu, spec))
        for m, meas, sim in pts:
            print("    %-44s measured %7.1f simulated %7.1f  %+5.1f%%"
                  % (m, meas, sim, 100 * (sim - meas) / meas))
    print(" ".join("-o %s=%d" % kv for kv in sets.items()))


if __name__ == "__main__":
    main()
