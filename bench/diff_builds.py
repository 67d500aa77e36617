#!/usr/bin/env python3
"""diff_builds.py - random configurations through two gmsim builds, compared byte for byte.

bench/same_stats.sh compares two builds on 23 fixed reference runs; the fast paths of speed work
(look-aheads, skipped passes, cached candidates, front ends that do not ask again) fail in
corners those runs never reach: tiny queues, write-drain thresholds of 1-3, a port budget, a
front-end buffer of 0-2, inline ECC, fcfs, closed pages. This draws N such points, each a
`gmsim dram` run (GDDR6 or HBM2e test config, 1-16 channels, random controller parameters,
a synthetic stream of 2,000-15,000 requests) or, with --gpu, a small `gmsim run` (the small test
GPU, an RTX 2060 or a T4 with random controller parameters, half of them also with random L1,
L2 and crossbar ones: MSHR sizes and merge limits, miss queues, lookups and fills a cycle,
input buffers, arbiters; some of the small GPU's with two L2 partitions; and a workload from
workloads/),
runs each through both builds and reports every point where the `--stats-json --stats-no-host`
outputs differ, where either build exits other than 0 (a debug build's assertion, the watchdog:
exit 3), or where a run takes longer than --timeout seconds (a hang). Points both builds reject
as bad input (exit 1) are counted and skipped. --timings also sets one to five DRAM timings
anywhere in 1-4096 cycles: the timing checks must refuse every set that would stop a run.
--wide also draws, with --gpu, the clocks, the SM count, the SMs' scheduling, LD/ST rates and
block dispatch, the caches' sizes, ways, index and replacement, the L1's write policy, store ack
and data banks, the slice hash, the crossbar's ports and latency and the DRAM address map
(doc/limits.md); without, the DRAM's organisation (bank groups, banks, rows, page, data rate,
GDDR6 bank-group mode and clamshell) and address map.

Two uses: a build of the previous main against the new one (a speed step must change no
output), and the release build against the debug build (`--enable-debug`), which makes every
pass the release build skips and checks the skip: the two must agree everywhere. The release
against the debug build found two bugs of the fast paths (doc/performance.md, steps 6 and 22,
corrections of 2026-12-06). A benchmark script, not a test: a few minutes for 1,000 points.

usage: bench/diff_builds.py [--gpu] [--wide] [--timings] [--seed S] [--timeout T]
                            A_GMSIM B_GMSIM N
       (from the source folder; prints one line per finding and a summary; exit 1 on findings)
"""
import argparse
import hashlib
import os
import random
import shlex
import subprocess
import sys
import tempfile

WORKLOADS = [("workloads/stream_copy.wl", "n", [4096, 65536, 262144]),
             ("workloads/stream_triad.wl", "n", [4096, 65536]),
             ("workloads/transpose_naive.wl", "n", [64, 128, 256]),
             ("workloads/transpose_tiled.wl", "n", [64, 128]),
             ("workloads/gather.wl", None, []), ("workloads/stride.wl", None, []),
             ("workloads/aos.wl", None, []), ("workloads/blur.wl", None, []),
             ("workloads/pointer_chase.wl", "loads", [500, 3000]),
             ("workloads/straddle.wl", None, []), ("workloads/reread.wl", None, [])]


def queues(r):
    """Random controller queues and write-drain thresholds (low < high <= write queue)."""
    rq, wq = r.choice([2, 3, 4, 8, 16, 32, 64]), r.choice([2, 3, 4, 8, 16, 32, 64])
    wh = r.randint(1, wq)
    wl = r.randint(0, wh - 1)
    return ["-o", "mc.read_queue=%d" % rq, "-o", "mc.write_queue=%d" % wq,
            "-o", "mc.write_high=%d" % wh, "-o", "mc.write_low=%d" % wl]


def dram_point(r, k):
    hbm = r.random() < 0.4
    a = ["dram", "-c", "configs/test/hbm2e-40ch.cfg" if hbm else "configs/test/gddr6-16ch.cfg",
         "-o", "dram.channels=%d" % r.choice([1, 1, 2, 3, 4, 16])] + queues(r)
    a += ["-o", "mc.row_hit_cap=%d" % r.choice([0, 1, 2, 4, 16]),
          "-o", 'mc.page_policy="%s"' % r.choice(["open", "closed", "adaptive"]),
          "-o", 'mc.scheduler="%s"' % r.choice(["frfcfs", "frfcfs", "fcfs"]),
          "-o", 'mc.refresh="%s"' % r.choice(["per_bank", "per_bank", "all_bank", "off"]),
          "-o", "mc.refresh_postpone=%d" % r.randint(1, 8),
          "-o", "mc.accept_per_cycle=%d" % r.choice([0, 0, 1, 2, 3])]
    if not hbm and r.random() < 0.3:
        a += ["-o", 'mc.ecc="inline"', "-o", "dram.map.interleave_bytes=128"]
    elif hbm and r.random() < 0.3:
        a += ["-o", 'mc.ecc="sideband"']
    pattern = r.choice(["random", "stream", "strided"])
    a += ["--pattern", pattern, "--requests", str(r.randint(2000, 15000)),
          "--write-fraction", str(r.choice([0, 0.1, 0.3, 0.5, 0.9, 1.0])),
          "--footprint", r.choice(["64k", "1M", "64M", "4G"]),
          "--frontend-buffer", str(r.choice([0, 1, 2, 8, 1024])),
          "--requests-per-cycle", str(r.choice([0, 0, 1, 2, 4])),
          "--bytes", str(r.choice([32, 48, 64, 64, 128])), "--seed", str(k + 1)]
    if pattern == "strided":
        a += ["--stride", str(r.choice([64, 256, 4096, 8192]))]
    return a


def gpu_point(r, k):
    config = r.choice(["configs/test/small-gpu.cfg", "configs/test/small-gpu.cfg",
                       "configs/rtx2060.cfg", "configs/t4.cfg"])
    wl, param, values = r.choice(WORKLOADS)
    a = ["run", "-q", "-c", config, "-w", wl]
    if param is not None:
        a += ["-p", "%s=%d" % (param, r.choice(values))]
    a += queues(r)
    a += ["-o", 'mc.page_policy="%s"' % r.choice(["open", "closed", "adaptive"]),
          "-o", 'mc.refresh="%s"' % r.choice(["per_bank", "all_bank", "off"]),
          "-o", "mc.accept_per_cycle=%d" % r.choice([0, 0, 1, 2]),
          "-o", "sim.seed=%d" % (k + 1)]
    if r.random() < 0.3:
        a += ["-o", 'mc.ecc="inline"', "-o", "dram.map.interleave_bytes=128"]
    if r.random() < 0.5:
        a += memory_side(r)
    if config.endswith("small-gpu.cfg") and r.random() < 0.3:
        a += ["-o", "gpu.l2_partitions=2"]  # the far reads between twin slices
    return a


def memory_side(r):
    """Random L1, L2 and crossbar parameters of a GPU point: small MSHRs, merge limits and miss
    queues (the refused heads the L1 and L2 do not look up again before a fill or a drain can
    change the answer), several lookups or fills a cycle, small crossbar buffers and every
    arbiter (the offers kept across cycles)."""
    a = []
    for lvl, mq in (("l1", [1, 2, 8]), ("l2", [8, 12, 32])):
        # the fewest entries the params checks allow: a line's 4 sectors, or 2 line entries
        # (and one more of each kept back with two L2 partitions)
        line = r.random() < 0.5
        a += ["-o", "%s.mshr.entries=%d" % (lvl, r.choice([2, 3, 16, 256] if line
                                                          else [5, 6, 16, 256])),
              "-o", "%s.mshr.max_merge=%d" % (lvl, r.choice([1, 2, 8])),
              "-o", '%s.mshr.granularity="%s"' % (lvl, "line" if line else "sector"),
              "-o", "%s.miss_queue=%d" % (lvl, r.choice(mq)),
              "-o", "%s.lookups_per_cycle=%d" % (lvl, r.choice([1, 1, 2, 4])),
              "-o", "%s.fills_per_cycle=%d" % (lvl, r.choice([1, 1, 2]))]
    a += ["-o", "xbar.input_buffer=%d" % r.choice([1, 2, 8]),
          "-o", 'xbar.arbiter="%s"' % r.choice(["fifo", "islip", "age"]),
          "-o", 'xbar.reply_arbiter="%s"' % r.choice(["fifo", "islip", "age"])]
    return a


def maybe(r, a, key, values):
    """With even odds, one of values for key, appended to a as `-o key=value` (strings quoted
    but true and false, which are booleans)."""
    if r.random() < 0.5:
        v = r.choice(values)
        if isinstance(v, str) and v not in ("true", "false"):
            v = '"%s"' % v
        a.extend(["-o", "%s=%s" % (key, v)])


def address_map(r, a):
    """The DRAM address map's keys, each with even odds: field order, interleave, hashes."""
    if r.random() < 0.5:
        fields = ["row", "col", "ba", "bg", "pc", "ch"]
        r.shuffle(fields)
        a += ["-o", 'dram.map.order="%s"' % ":".join(fields)]
    maybe(r, a, "dram.map.interleave_bytes", [32, 64, 128, 256, 512])
    maybe(r, a, "dram.map.hash_channel", ["true", "false"])
    maybe(r, a, "dram.map.hash_bank", ["true", "false"])


def wide_dram(r, gddr6):
    """What --wide adds to a DRAM point: the organisation (bank groups and banks, rows, page
    size, data rate; GDDR6's bank-group mode and clamshell) and the address map, each with
    even odds (the standards fix the width and the pseudo-channels)."""
    a = []
    maybe(r, a, "dram.data_rate_gbps", [2.0, 3.2, 8.0, 14.0, 16.0])
    maybe(r, a, "dram.bank_groups", [0, 1, 2, 4, 8])
    maybe(r, a, "dram.banks_per_group", [0, 1, 2, 4, 8])
    maybe(r, a, "dram.rows", [0, 1024, 16384])
    maybe(r, a, "dram.row_bytes", [0, 512, 1024, 2048, 4096])
    if gddr6:
        maybe(r, a, "dram.bank_group_mode", ["true", "false"])
        maybe(r, a, "dram.clamshell", ["true", "false"])
    address_map(r, a)
    return a


def wide(r):
    """What --wide adds to a GPU point: the clocks' ratios, the SM count, the SMs' scheduling and
    LD/ST rates, block dispatch, the L1's and L2's geometry and policies, the slice hash, the
    crossbar's ports and the DRAM address map, each drawn with even odds (a key left out keeps
    the config's value). Lines and sectors stay the requests' (128 B, 32 B: other sizes are
    config errors in a GPU run); sizes the checks refuse (not a whole number of sets) make both
    builds exit 1: the point is skipped."""
    a = []
    for clk in ("core_mhz", "xbar_mhz", "l2_mhz"):
        maybe(r, a, "clock." + clk, [300.0, 765.0, 1000.0, 1410.0, 1500.0, 2100.0, 3000.0])
    maybe(r, a, "gpu.l2_slices_per_channel", [1, 2, 3])
    maybe(r, a, "gpu.sms", [1, 2, 3, 5, 8])
    maybe(r, a, "l2.hash.kind", ["linear", "xor", "ipoly"])
    maybe(r, a, "l2.hash.granularity_bytes", [128, 256, 4096])
    maybe(r, a, "l2.hash.per_channel", ["true", "false"])
    maybe(r, a, "l2.hash.local_index", ["true", "false"])
    maybe(r, a, "sm.max_warps", [8, 16, 32, 64])
    maybe(r, a, "sm.max_blocks", [1, 2, 32])
    maybe(r, a, "sm.schedulers", [1, 2, 4])
    maybe(r, a, "sm.issue_width", [1, 2])
    maybe(r, a, "sm.scheduler", ["lrr", "gto"])
    maybe(r, a, "sm.ldst_requests_per_cycle", [1, 2, 4])
    maybe(r, a, "sm.ldst_bytes_per_cycle", [0, 32, 128])
    maybe(r, a, "sm.block_launch_cycles", [0, 20, 500])
    maybe(r, a, "sm.block_dispatch_per_cycle", [0, 0.25, 1, 3])
    for lvl in ("l1", "l2"):
        maybe(r, a, lvl + ".cache.size_kb", [1, 2, 4, 16, 64])
        maybe(r, a, lvl + ".cache.assoc", [1, 2, 4, 8])
        maybe(r, a, lvl + ".cache.index", ["linear", "xor"])
        maybe(r, a, lvl + ".cache.replacement", ["lru", "fifo", "random", "plru"])
        maybe(r, a, lvl + ".hit_latency_cycles", [1, 2, 28, 100])
        maybe(r, a, lvl + ".fill_latency_cycles", [1, 4, 10])
    maybe(r, a, "l1.write_policy", ["write_through_no_allocate", "write_through_allocate"])
    maybe(r, a, "l1.store_ack", ["crossbar", "l2"])
    maybe(r, a, "l1.data_banks", [1, 4, 32])
    maybe(r, a, "l1.data_bank_bytes", [4, 32])
    maybe(r, a, "l1.data_bytes_per_cycle", [0, 16, 64])
    maybe(r, a, "l2.store_ack_cycles", [0, 1, 5])
    maybe(r, a, "l2.partial_write_cycles", [0, 2])
    maybe(r, a, "xbar.latency_cycles", [1, 8, 30])
    maybe(r, a, "xbar.req_port_bytes", [8, 32, 64])
    maybe(r, a, "xbar.reply_port_bytes", [8, 32, 64])
    maybe(r, a, "xbar.header_bytes", [0, 8])
    maybe(r, a, "xbar.slice_port_bytes", [0, 8, 32])
    address_map(r, a)
    return a


TIMINGS = ["RCDRD", "RCDWR", "RP", "RAS", "RC", "RTP", "WR", "CCD_S", "CCD_L", "RRD_S", "RRD_L",
           "FAW", "WTR_S", "WTR_L", "RTW", "RFC", "RFCpb", "RREFD", "REFI", "REFIpb", "CL", "CWL"]


def timings(r):
    """One to five DRAM timings set anywhere in 1-4096 cycles: most such sets are refused as
    inconsistent (both builds exit 1, the point is skipped); a set the checks let through must
    run to its end (before 2026-12-06 six in 1,500 stopped at the watchdog, behind refresh)."""
    a = []
    for t in r.sample(TIMINGS, r.randint(1, 5)):
        a += ["-o", "dram.timing.n%s=%d" % (t, r.choice([1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
                                                          1024, 4096]))]
    return a


def outcome(gmsim, args, out, timeout):
    """The md5 of the run's --stats-json, or a tuple saying why there is none."""
    try:
        p = subprocess.run([gmsim] + args + ["--stats-json", out, "--stats-no-host"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return ("timeout",)
    if p.returncode != 0:
        last = p.stderr.strip().splitlines()[-1:] or [""]
        return ("exit %d" % p.returncode, last[0])
    with open(out, "rb") as f:
        return hashlib.md5(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", action="store_true", help="small GPU runs instead of gmsim dram")
    ap.add_argument("--seed", type=int, default=1, help="first point's seed (default 1)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds a run may take")
    ap.add_argument("--timings", action="store_true",
                    help="also set one to five DRAM timings anywhere in 1-4096 cycles")
    ap.add_argument("--wide", action="store_true",
                    help="also draw clocks, SM, cache, crossbar and map keys (--gpu), or the "
                    "DRAM organisation and map")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("n", type=int)
    o = ap.parse_args()
    if not os.path.isfile("configs/default.cfg"):
        sys.exit("diff_builds.py: run it from the source folder")
    ran = bad_input = findings = 0
    with tempfile.TemporaryDirectory(prefix="gmsim-diff.") as tmp:
        for k in range(o.seed, o.seed + o.n):
            r = random.Random(k)
            args = gpu_point(r, k) if o.gpu else dram_point(r, k)
            if o.timings:
                args += timings(r)
            if o.wide:
                args += wide(r) if o.gpu else wide_dram(r, "configs/test/gddr6-16ch.cfg" in args)
            res = [outcome(g, args, os.path.join(tmp, "%d.json" % i), o.timeout)
                   for i, g in enumerate((o.a, o.b))]
            if all(isinstance(x, tuple) and x[0] == "exit 1" for x in res):
                bad_input += 1
                continue
            ran += 1
            if res[0] != res[1] or any(isinstance(x, tuple) for x in res):
                findings += 1
                print("point %d: %s | %s: gmsim %s" % (k, res[0], res[1], shlex.join(args)),
                      flush=True)
    print("%d points run, %d findings, %d rejected as bad input by both" %
          (ran, findings, bad_input))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
