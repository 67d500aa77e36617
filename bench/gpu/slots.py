#!/usr/bin/env python3
"""Per-slot block lifetimes from blocktime's `bw` rows (see README.md).

A kernel of grid = N / blockSize blocks that runs for t seconds with k blocks resident on
each of S SMs at f Hz turns a residency slot over every t * f * S * k / grid cycles (the
block's launch, work and retire: its lifetime per slot), and the GPU starts grid / (t * f)
blocks per cycle. Usage: slots.py blocktime.csv
"""
import sys


def main(path):
    info, rows = {}, []
    for line in open(path):
        p = line.strip().split(",")
        if p[0] == "info":
            info[p[1]] = p[2]
        elif p[0] == "clock" and p[1] == "end":
            info["mhz"] = p[3]
        elif p[0] == "bw":
            rows.append(p)
    n, sms, hz = int(info["N_bw"]), int(info["sm_count"]), float(info["mhz"]) * 1e6
    print("# %s, %d SMs, %.0f MHz (clock64 against %%globaltimer)" %
          (info["device"], sms, hz / 1e6))
    print("kernel,blockSize,blocksPerSM,slot_cycles,blocks_per_cycle,GBps")
    for p in rows:
        bs, k, us = int(p[2]), int(p[3]), float(p[7])
        grid = n // bs
        t = us * 1e-6
        print("%s,%d,%d,%.0f,%.3f,%s" % (p[1], bs, k, t * hz * sms * k / grid,
                                         grid / (t * hz), p[6]))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: slots.py blocktime.csv")
    main(sys.argv[1])
