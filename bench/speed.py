#!/usr/bin/env python3
"""speed.py - host CPU per simulated run: the rows of doc/performance.md.

    python3 bench/speed.py GMSIM SRCDIR [--base GMSIM0] [--rows NAME,...] [--repeat N]
                           [--markdown] [--runner RUNRSS]

Runs each row with GMSIM (and, with --base, with GMSIM0 in turn with it, so that both see the
same machine load) and prints, per row: the work (warp instructions, or DRAM requests), CPU
seconds (user + sys of the gmsim process, the least of its runs: 3 for the short rows, 1 for the
others, or --repeat N for all), the rate (work per CPU second), events per warp instruction
(events per request for DRAM rows), unit ticks per warp instruction or request (sim.ticks: an
event, a clock edge, ticks every unit awake at it, so the ticks say how many units' work the
events stand for; "-" for a binary older than sim.ticks), the slowdown (CPU seconds per
simulated second: issue 15's goal for a full-GPU run is under 2e4), peak RSS, and with --base
the baseline's CPU seconds, its peak RSS and the ratio (baseline CPU / this CPU: 3.0 means a
third of the CPU time). With --base the runs alternate (this, base; then base, this; ...), and
with 3 repeats or more two columns more say what the pairs say on a noisy machine: "pairs" is
the median of the pairs' ratios with the range of their middle half, "faster" in how many pairs
this binary took less CPU. A row the baseline cannot run (an older binary refuses a key that
today's configs have) shows "-" in its columns, and a line after the table says why. A
benchmark, not a test: it prints figures, it checks nothing.

Rows (names for --rows):
  copy, transpose, chase, chase1sm, copytrace, copywl    on configs/a100-class.cfg: a 4 M-float stream copy, the 1024^2 naive transpose, a 100 k-load
      pointer chase (108 SMs, then 1 SM), the copy as an Accel-Sim trace and its .wl twin;
  a100copy    the same copy on the shipped configs/a100-40gb.cfg, whose L1s (as every shipped
      GPU's: 4 sets of 128-352 ways) the test config's few-way L1 does not exercise;
  v100copy, v100transpose, v100chase    Accel-Sim traces written by tests/trace/gen_traces.py on
      configs/v100.cfg: a copy of 360,448 warp instructions, a 1024^2 naive transpose, a 4,096-
      load chase;
  gddr6seq, gddr6rand, hbm2eseq, hbm2erand    `gmsim dram` on 2 M sequential or uniform
      random 64 B reads (DRAMsim3's trace format; the random ones over 4 GiB) on configs/test/gddr6-16ch.cfg and hbm2e-40ch.cfg.

Peak RSS: a child's ru_maxrss counts the memory of the process it was forked from until its
exec, so a gmsim that Python starts shows at least Python's own ~20 MB, which is more than the
DRAM rows use (about 6-11 MB). With --runner RUNRSS (bench/runrss, built by `make bench`, which
passes it) each run is started by that small program and its CPU seconds and peak RSS are the
command's own; without it the RSS column is marked "(py)" where it may be Python's.

Traces are written once to ./bench/traces (under the build folder for `make bench`) and reused.
`make bench BENCH_BASE=/path/to/old/gmsim` adds the baseline columns; BENCH_REPEAT=N sets
--repeat (7 or more gives the pairs' columns something to say).
"""
import json
import os
import resource
import subprocess
import sys
import tempfile

A100 = "configs/a100-class.cfg"
A100_40 = "configs/a100-40gb.cfg"
V100 = "configs/v100.cfg"
DRAM_N = 2000000


def rows(traces):
    t = traces
    return [
        # name, kind, gmsim arguments (run from SRCDIR), repeats
        ("copy", "run", ["-c", A100, "-w", "workloads/stream_copy.wl", "-p", "n=4194304"], 1),
        ("transpose", "run", ["-c", A100, "-w", "workloads/transpose_naive.wl"], 1),
        ("chase", "run", ["-c", A100, "-w", "workloads/pointer_chase.wl", "-p", "loads=100000"],
         1),
        ("chase1sm", "run", ["-c", A100, "-w", "workloads/pointer_chase.wl", "-p",
                             "loads=100000", "-o", "gpu.sms=1"], 1),
        ("copytrace", "run", ["-c", A100, "--trace", t + "/a100copy/copy/kernelslist.g"], 1),
        ("copywl", "run", ["-c", A100, "-w", t + "/a100copy/copy/copy.wl"], 1),
        ("a100copy", "run", ["-c", A100_40, "-w", "workloads/stream_copy.wl", "-p",
                             "n=4194304"], 1),
        ("v100copy", "run", ["-c", V100, "--trace", t + "/v100copy/copy/kernelslist.g"], 3),
        ("v100transpose", "run", ["-c", V100, "--trace",
                                  t + "/v100transpose/transpose/kernelslist.g"], 1),
        ("v100chase", "run", ["-c", V100, "--trace", t + "/v100chase/chase/kernelslist.g"], 3),
        ("gddr6seq", "dram", ["-c", "configs/test/gddr6-16ch.cfg", "--trace",
                              t + "/seq64-%d.trace" % DRAM_N], 1),
        ("gddr6rand", "dram", ["-c", "configs/test/gddr6-16ch.cfg", "--trace",
                               t + "/rand64-%d.trace" % DRAM_N], 1),
        ("hbm2eseq", "dram", ["-c", "configs/test/hbm2e-40ch.cfg", "--trace",
                              t + "/seq64-%d.trace" % DRAM_N], 1),
        ("hbm2erand", "dram", ["-c", "configs/test/hbm2e-40ch.cfg", "--trace",
                               t + "/rand64-%d.trace" % DRAM_N], 1),
    ]


def make_traces(src, t):
    """The traces the rows read, written once."""
    gen = os.path.join(src, "tests/trace/gen_traces.py")
    for sub, args in (("a100copy", ["--copy-n", "4194304", "--only", "copy"]),
                      ("v100copy", ["--copy-n", "1441792", "--only", "copy"]),
                      ("v100transpose", ["--transpose-n", "1024", "--only", "transpose"]),
                      ("v100chase", ["--chase-loads", "4096", "--only", "chase"])):
        d = os.path.join(t, sub)
        if not os.path.isdir(d):
            subprocess.run([sys.executable, gen, d] + args, check=True)
    seq = os.path.join(t, "seq64-%d.trace" % DRAM_N)
    rnd = os.path.join(t, "rand64-%d.trace" % DRAM_N)
    if not os.path.exists(seq) or os.path.getsize(seq) == 0:
        with open(seq, "w") as f:
            subprocess.run(["awk", "-v", "n=%d" % DRAM_N,
                            'BEGIN { for (i = 0; i < n; i++) printf "0x%x READ %d\\n", '
                            'i * 64, 0 }'], stdout=f, check=True)
    if not os.path.exists(rnd) or os.path.getsize(rnd) == 0:
        with open(rnd, "w") as f:
            # 2^26 slots of 64 B = 4 GiB; two draws: awk's rand() has 31 good bits at most.
            subprocess.run(["awk", "-v", "n=%d" % DRAM_N,
                            'BEGIN { srand(1); for (i = 0; i < n; i++) { '
                            'slot = int(rand() * 65536) * 1024 + int(rand() * 1024); '
                            'printf "0x%x READ %d\\n", slot * 64, 0 } }'],
                           stdout=f, check=True)


def get(d, name):
    for k in name.split("."):
        d = d[k]
    return d


class RunFailed(Exception):
    """A gmsim process that exited non-zero: the message says which and why; first is the first
    line of what it wrote to stderr."""

    def __init__(self, message, first):
        super().__init__(message)
        self.first = first


# bench/runrss (--runner): starts each run, so that its peak RSS is its own (see the top)
RUNNER = None
PY_RSS_MB = 0.0


def run_once(gmsim, src, kind, args):
    """(CPU seconds, peak RSS MB, statistics) of one gmsim process; RunFailed if it failed."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as jf:
        jpath = jf.name
    cmd = [gmsim, kind] + (["-q"] if kind == "run" else []) + args + ["--stats-json", jpath]
    if RUNNER is not None:
        with tempfile.NamedTemporaryFile(suffix=".ru", delete=False) as rf:
            rpath = rf.name
        cmd = [RUNNER, rpath] + cmd
    with open(os.devnull, "w") as null:
        p = subprocess.Popen(cmd, cwd=src, stdout=null, stderr=subprocess.PIPE)
        err = p.stderr.read()
        _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    cpu, rss = ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0
    if RUNNER is not None:
        with open(rpath) as f:
            got = f.read().split()
        os.unlink(rpath)
        if len(got) == 3:
            cpu, rss = float(got[0]) + float(got[1]), int(got[2]) / 1024.0
    if p.returncode != 0:
        os.unlink(jpath)
        text = err.decode(errors="replace")
        raise RunFailed("%s exited %d: %s" % (" ".join(cmd), p.returncode, text.rstrip("\n")),
                        (text.splitlines() or ["exit %d" % p.returncode])[0])
    with open(jpath) as f:
        st = json.load(f)
    os.unlink(jpath)
    return cpu, rss, st


def measure(gmsim, src, kind, args, repeat):
    best = None
    for _ in range(repeat):
        cpu, rss, st = run_once(gmsim, src, kind, args)
        if best is None or cpu < best[0]:
            best = (cpu, rss, st)
    return best


def quartiles(v):
    """(first quartile, median, third quartile) of v, linear between ranks."""
    v = sorted(v)

    def at(q):
        x = q * (len(v) - 1)
        i = int(x)
        return v[i] if i + 1 >= len(v) else v[i] + (v[i + 1] - v[i]) * (x - i)
    return at(0.25), at(0.5), at(0.75)


def measure_pairs(gmsim, base, src, kind, args, repeat):
    """Both binaries in turn, repeat times each, the order swapped every pair: (this binary's
    least (CPU, RSS, statistics), the base's least (CPU, RSS) or the RunFailed that stopped it,
    the pairs' CPU ratios, base / this)."""
    best, bbest, ratios = None, None, []
    for i in range(repeat):
        order = (gmsim, base) if i % 2 == 0 else (base, gmsim)
        got = {}
        for g in order:
            if g is base and isinstance(bbest, RunFailed):
                continue
            try:
                got[g] = run_once(g, src, kind, args)
            except RunFailed as e:
                if g is not base:
                    raise
                bbest = e
        cpu, rss, st = got[gmsim]
        if best is None or cpu < best[0]:
            best = (cpu, rss, st)
        if base in got:
            bcpu, brss, _ = got[base]
            if bbest is None or bcpu < bbest[0]:
                bbest = (bcpu, brss)
            ratios.append(bcpu / cpu if cpu > 0 else 0)
    return best, bbest, ratios


def per_unit(st, name, work):
    """A statistic per unit of work for the table; "-" where the binary has no such statistic."""
    try:
        return "%.1f" % (get(st, name) / work if work else 0)
    except KeyError:
        return "-"


def rss_text(mb):
    """A peak RSS for the table; without the runner, marked where it may be Python's own (the
    figure of a process forked from this one, at least what this one held: see the top)."""
    if RUNNER is None:
        own = PY_RSS_MB
        return "%.0f" % mb + (" (py)" if mb <= own * 1.05 else "")
    return "%.0f" % mb


def text_line(head, line):
    """One line of the text table: the row name left, the figures right in their columns."""
    return "  ".join(v.ljust(14) if j == 0 else v.rjust(18 if head[j] == "pairs" else 12)
                     for j, v in enumerate(line))


def main():
    global PY_RSS_MB, RUNNER
    argv = sys.argv[1:]
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        sys.stdout.write(__doc__.lstrip("\n"))
        sys.exit(0 if argv and argv[0] in ("-h", "--help") else 2)
    gmsim, src = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    base, only, markdown, repeat = None, None, False, None
    i = 2
    while i < len(argv):
        if argv[i] == "--base" and i + 1 < len(argv):
            base = os.path.abspath(argv[i + 1])
            i += 2
        elif argv[i] == "--rows" and i + 1 < len(argv):
            only = argv[i + 1].split(",")
            i += 2
        elif argv[i] == "--repeat" and i + 1 < len(argv) and argv[i + 1].isdigit():
            repeat = max(1, int(argv[i + 1]))
            i += 2
        elif argv[i] == "--markdown":
            markdown = True
            i += 1
        elif argv[i] == "--runner" and i + 1 < len(argv):
            RUNNER = os.path.abspath(argv[i + 1])
            i += 2
        else:
            sys.stderr.write("speed.py: bad argument '%s'\n" % argv[i])
            sys.exit(2)
    for b in [gmsim] + ([base] if base is not None else []) + ([RUNNER] if RUNNER else []):
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            sys.stderr.write("speed.py: %s: not an executable file\n" % b)
            sys.exit(2)
    traces = os.path.abspath("bench/traces")
    os.makedirs(traces, exist_ok=True)
    make_traces(src, traces)
    # this process's peak so far (the traces written): a child shows at least about this much
    PY_RSS_MB = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    table = rows(traces)
    if only is not None:
        known = [r[0] for r in table]
        for n in only:
            if n not in known:
                sys.stderr.write("speed.py: no row '%s' (rows: %s)\n" % (n, ", ".join(known)))
                sys.exit(2)
        table = [r for r in table if r[0] in only]
    head = ["row", "work", "CPU s", "rate/CPU s", "events/unit", "ticks/unit", "slowdown",
            "RSS MB"]
    # the pairs' columns: with a base and 3 repeats or more
    paired = base is not None and repeat is not None and repeat >= 3
    if base is not None:
        head += ["base CPU s", "base RSS MB", "base/this"]
        if paired:
            head += ["pairs", "faster"]
    out = []
    if not markdown:
        print(text_line(head, head), flush=True)
    notes = []
    for name, kind, args, rep in table:
        rep = repeat if repeat is not None else rep
        try:
            if base is None:
                (cpu, rss, st), bbest, ratios = measure(gmsim, src, kind, args, rep), None, []
            else:
                (cpu, rss, st), bbest, ratios = measure_pairs(gmsim, base, src, kind, args,
                                                              rep)
        except RunFailed as e:
            sys.stderr.write("speed.py: %s\n" % e)
            sys.exit(1)
        work = get(st, "sim.warp_insts") if kind == "run" else get(st, "dram.requests")
        sim_s = get(st, "sim.time_ns") * 1e-9
        line = [name, "%d" % work, "%.2f" % cpu, "%.3g" % (work / cpu if cpu > 0 else 0),
                per_unit(st, "sim.events", work), per_unit(st, "sim.ticks", work),
                "%.3g" % (cpu / sim_s if sim_s > 0 else 0), rss_text(rss)]
        if base is not None:
            # An older binary may not read today's configs (a key it does not know is an
            # error): its columns say so and the table goes on.
            if isinstance(bbest, RunFailed):
                line += ["-", "-", "-"] + (["-", "-"] if paired else [])
                notes.append("%s: the base could not run it (%s)" % (name, bbest.first))
            else:
                bcpu, brss = bbest
                line += ["%.2f" % bcpu, rss_text(brss),
                         "%.2f" % (bcpu / cpu if cpu > 0 else 0)]
                if paired:
                    q1, med, q3 = quartiles(ratios)
                    line += ["%.2f (%.2f-%.2f)" % (med, q1, q3),
                             "%d of %d" % (sum(r > 1 for r in ratios), len(ratios))]
        out.append(line)
        if not markdown:
            print(text_line(head, line), flush=True)
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for line in out:
            print("| " + " | ".join(line) + " |")
    for n in notes:
        print(n)


if __name__ == "__main__":
    main()
