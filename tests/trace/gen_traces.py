#!/usr/bin/env python3
"""gen_traces.py - writes small Accel-Sim traces (doc/trace.md) and the same kernels in the
workload language, so that tests/sys/trace.sh can check that both give the same memory
statistics, plus broken traces for the error tests.

    python3 tests/trace/gen_traces.py OUTDIR [--copy-n N] [--transpose-n N] [--chase-loads N]
                                      [--only copy|transpose|chase]
    python3 tests/trace/gen_traces.py -h | --help

An argument that starts with '-' is an option, never OUTDIR (write ./-x for such a folder); an
unknown option, a missing or bad value or a second OUTDIR is a usage error (exit 2).

OUTDIR/copy       stream copy b[i] = a[i] of n floats (256 threads per block; --copy-n, 8192),
                  base-stride addresses (mode 1), tracer version 4; copy.wl; also kernelslist.g
                  naming the same kernel as kernel-1.traceg.xz in OUTDIR/copy_xz
OUTDIR/transpose  naive transpose of an n x n float matrix (--transpose-n, 128; 32 x 8
                  threads, 4 rows per thread), loads as address lists (mode 0), stores as
                  base + deltas (mode 2), tracer version 5 with line numbers; transpose.wl
OUTDIR/chase      one thread chasing pointers (--chase-loads, 200) through 64 nodes 128 B apart
                  in order (mode 2 with one active lane: no deltas), tracer version 3; chase.wl
--only K          only OUTDIR/K (copy, transpose or chase), for benchmarks (bench/speed.py)
OUTDIR/warm       the copy after MemcpyHtoD of its source array
OUTDIR/err_*      a truncated file, a bad line, an unknown opcode, a missing kernel file

The addresses follow the workload language's layout (sim/front/workload.h): global arrays from
0x10000000 in file order, each aligned to 256 bytes. Written from the format description only.
"""
import lzma
import os
import sys

BASE = 0x10000000
ALIGN = 256


def layout(sizes):
    out, a = [], BASE
    for s in sizes:
        out.append(a)
        a = (a + s + ALIGN - 1) // ALIGN * ALIGN
    return out


def header(f, name, grid, block, version=4, lineinfo=0, binary=80):
    # keys in an order different from the tracer's: the reader must go by name
    f.write("-kernel name = %s\n" % name)
    f.write("-grid dim = (%d,%d,%d)\n" % grid)
    f.write("-kernel id = 1\n")
    f.write("-block dim = (%d,%d,%d)\n" % block)
    f.write("-shmem = 0\n-nregs = 16\n-binary version = %d\n" % binary)
    f.write("-cuda stream id = 0\n-shmem base_addr = 0x00007f0000000000\n")
    f.write("-local mem base_addr = 0x00007e0000000000\n-nvbit version = 1.7\n")
    f.write("-accelsim tracer version = %d\n" % version)
    if version >= 4:
        f.write("-enable lineinfo = %d\n" % lineinfo)
    f.write("\n#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
            "[reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate\n\n")


def block(f, bid, warps, lineinfo=False):
    """warps: list of instruction-line lists."""
    f.write("\n#BEGIN_TB\n\nthread block = %d,%d,%d\n\n" % bid)
    for w, insts in enumerate(warps):
        f.write("warp = %d\ninsts = %d\n" % (w, len(insts)))
        for i, line in enumerate(insts):
            f.write(("%d " % (10 + i) if lineinfo else "") + line + "\n")
        f.write("\n")
    f.write("#END_TB\n")


def stride(addr, s):
    return "1 0x%016x %d" % (addr, s)


def lst(addrs):
    return "0 " + " ".join("0x%016x" % a for a in addrs)


def delta(addrs):
    return "2 0x%016x" % addrs[0] + "".join(" %d" % (b - a) for a, b in zip(addrs, addrs[1:]))


def copy_warp(a, b, i0):
    return [
        "0000 ffffffff 1 R0 S2R 0 0 0",
        "0010 ffffffff 1 R3 S2R 0 0 0",
        "0020 ffffffff 1 R0 IMAD 2 R3 R0 0 0",
        "0030 ffffffff 1 R2 IMAD.WIDE 1 R0 0 0",
        "0040 ffffffff 1 R4 LDG.E.SYS 1 R2 4 %s 0" % stride(a + 4 * i0, 4),
        "0050 ffffffff 1 R6 IMAD.WIDE 1 R0 0 0",
        "0060 ffffffff 0 STG.E.SYS 2 R6 R4 4 %s 0" % stride(b + 4 * i0, 4),
        "0070 ffffffff 0 EXIT 0 0 0",
    ]


def write_copy(d, n, xz=False, memcpy=False, name="kernel-1.traceg"):
    os.makedirs(d, exist_ok=True)
    a, b = layout([4 * n, 4 * n])
    path = os.path.join(d, name + (".xz" if xz else ""))
    f = lzma.open(path, "wt", preset=1) if xz else open(path, "w")
    header(f, "_Z11stream_copyPKfPfi", (n // 256, 1, 1), (256, 1, 1))
    for blk in range(n // 256):
        block(f, (blk, 0, 0), [copy_warp(a, b, blk * 256 + w * 32) for w in range(8)])
    f.close()
    with open(os.path.join(d, "kernelslist.g"), "w") as k:
        if memcpy:
            k.write("MemcpyHtoD,0x%016x,%d\n" % (a, 4 * n))
        k.write(os.path.basename(path) + "\n")
    with open(os.path.join(d, "copy.wl"), "w") as w:
        w.write('kernel = "stream_copy";\nparams = { n = %d; };\ngrid = ( "n / 256", 1, 1 );\n'
                'block = [ 256, 1, 1 ];\narrays = (\n'
                '\t{ name = "a"; elems = "n"; type = "float"; },\n'
                '\t{ name = "b"; elems = "n"; type = "float"; }\n);\nbody = (\n'
                '\t{ op = "load";  array = "a"; index = "bx * bdx + tx"; reg = "v"; },\n'
                '\t{ op = "store"; array = "b"; index = "bx * bdx + tx"; uses = "v"; }\n);\n'
                % n)


def write_transpose(d, n=128):
    os.makedirs(d, exist_ok=True)
    a, b = layout([4 * n * n, 4 * n * n])
    with open(os.path.join(d, "kernel-1.traceg"), "w") as f:
        header(f, "_Z15transpose_naivePfPKfi", (n // 32, n // 32, 1), (32, 8, 1), version=5,
               lineinfo=1)
        for by in range(n // 32):
            for bx in range(n // 32):
                warps = []
                for w in range(8):
                    insts = ["0000 ffffffff 1 R0 S2R 0 0 0", "0010 ffffffff 1 R2 IMAD 1 R0 0 0"]
                    for j in range(4):
                        ld = [a + 4 * ((by * 32 + w + j * 8) * n + bx * 32 + l) for l in range(32)]
                        st = [b + 4 * ((bx * 32 + l) * n + by * 32 + w + j * 8) for l in range(32)]
                        insts.append("%04x ffffffff 1 R4 LDG.E.SYS 1 R2 4 %s 0"
                                     % (0x20 + 0x20 * j, lst(ld)))
                        insts.append("%04x ffffffff 0 STG.E.SYS 2 R2 R4 4 %s 0"
                                     % (0x30 + 0x20 * j, delta(st)))
                    insts.append("00c0 ffffffff 0 EXIT 0 0 0")
                    warps.append(insts)
                block(f, (bx, by, 0), warps, lineinfo=True)
    with open(os.path.join(d, "kernelslist.g"), "w") as k:
        k.write("kernel-1.traceg\n")
    with open(os.path.join(d, "transpose.wl"), "w") as w:
        w.write('kernel = "transpose_naive";\nparams = { n = %d; };\n'
                'grid = ( "n / 32", "n / 32", 1 );\nblock = [ 32, 8, 1 ];\narrays = (\n'
                '\t{ name = "in";  elems = "n * n"; type = "float"; },\n'
                '\t{ name = "out"; elems = "n * n"; type = "float"; }\n);\nbody = (\n'
                '\t{ op = "loop"; var = "j"; count = 4; body = (\n'
                '\t\t{ op = "load";  array = "in";  index = "(by * 32 + ty + j * 8) * n + bx * 32 + tx"; reg = "v"; },\n'
                '\t\t{ op = "store"; array = "out"; index = "(bx * 32 + tx) * n + by * 32 + ty + j * 8"; uses = "v"; }\n'
                '\t); }\n);\n' % n)


def write_chase(d, nodes=64, loads=200):
    os.makedirs(d, exist_ok=True)
    (a,) = layout([128 * nodes])
    with open(os.path.join(d, "kernel-1.traceg"), "w") as f:
        header(f, "_Z5chasePPvi", (1, 1, 1), (1, 1, 1), version=3)
        insts = ["0000 00000001 1 R2 LDG.E.64.SYS 1 R2 8 2 0x%016x 0" % (a + 128 * (i % nodes))
                 for i in range(loads)]
        insts.append("0010 00000001 0 EXIT 0 0 0")
        block(f, (0, 0, 0), [insts])
    with open(os.path.join(d, "kernelslist.g"), "w") as k:
        k.write("kernel-1.traceg\n")
    with open(os.path.join(d, "chase.wl"), "w") as w:
        w.write('kernel = "chase";\nparams = { nodes = %d; loads = %d; };\ngrid = 1;\nblock = 1;\n'
                'arrays = ( { name = "chain"; elems = "nodes"; elem_bytes = 128; } );\n'
                'body = ( { op = "chase"; array = "chain"; loads = "loads"; order = "sequential"; '
                'reg = "p"; } );\n' % (nodes, loads))


def write_small(d, lines, version=4):
    """One block of one warp (32 threads) with the given instruction lines."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kernel-1.traceg"), "w") as f:
        header(f, "small", (1, 1, 1), (32, 1, 1), version=version)
        block(f, (0, 0, 0), [lines])
    with open(os.path.join(d, "kernelslist.g"), "w") as k:
        k.write("kernel-1.traceg\n")


def write_errors(out):
    good = ["0000 ffffffff 1 R4 LDG.E.SYS 1 R2 4 %s 0" % stride(BASE, 4),
            "0010 ffffffff 0 EXIT 0 0 0"]
    # truncated: the warp announces 2 instructions, the file ends after 1
    d = os.path.join(out, "err_trunc")
    write_small(d, good)
    p = os.path.join(d, "kernel-1.traceg")
    text = open(p).read()
    open(p, "w").write(text[:text.index("0010 ffffffff")])
    # a bad line: the mask is not hexadecimal
    write_small(os.path.join(out, "err_badline"),
                [good[0], "0010 fffzffff 0 EXIT 0 0 0"])
    # base-delta with one delta per active lane (the parser off-by-one): a trailing token
    write_small(os.path.join(out, "err_delta"),
                ["0000 00000005 0 STG.E.SYS 2 R2 R5 4 2 0x%016x 8 8 0" % BASE,
                 "0010 ffffffff 0 EXIT 0 0 0"])
    # an unknown opcode
    write_small(os.path.join(out, "err_unknown"),
                ["0000 ffffffff 1 R1 FROBNICATE.X 1 R2 0 0", good[0],
                 "0020 ffffffff 1 R1 FROBNICATE 1 R2 0 0", good[1]])
    # a missing kernel file (line 2 of the list)
    d = os.path.join(out, "err_missing")
    write_small(d, good)
    with open(os.path.join(d, "kernelslist.g"), "w") as k:
        k.write("kernel-1.traceg\nkernel-2.traceg\n")
    # version-6 additions: cluster lines, uniform registers, imm2 and register values
    write_small(os.path.join(out, "v6"),
                ["0000 ffffffff 1 UR4 S2UR 0 0 0 NoVal",
                 "0010 ffffffff 1 R4 LDG.E.SYS 2 R2 UR4 4 %s 0 0 Val 1 0x5 1 0x7 32 %s"
                 % (stride(BASE, 4), " ".join(["0x0"] * 32)),
                 "0020 ffffffff 0 EXIT 0 0 0 0 NoVal"], version=6)


USAGE_LINE = ("usage: gen_traces.py OUTDIR [--copy-n N] [--transpose-n N] [--chase-loads N] "
              "[--only copy|transpose|chase] (-h for more)")
ONLY = ("copy", "transpose", "chase")


def usage_error(msg):
    sys.stderr.write("gen_traces.py: %s\n%s\n" % (msg, USAGE_LINE))
    sys.exit(2)


def parse_args(args):
    """(OUTDIR, sizes, only) from the command line; -h prints the module docstring and exits.
    sizes: {"copy": n, "transpose": n, "chase": loads}."""
    out, only = None, None
    sizes = {"copy": 8192, "transpose": 128, "chase": 200}
    opts = {"--copy-n": ("copy", 256, "a positive multiple of 256 (threads per block)"),
            "--transpose-n": ("transpose", 32, "a positive multiple of 32 (the tile)"),
            "--chase-loads": ("chase", 1, "a positive number of loads")}
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-h", "--help"):
            sys.stdout.write(__doc__.lstrip("\n"))
            sys.exit(0)
        if a in opts or a == "--only":
            if i + 1 == len(args):
                usage_error("%s needs a value" % a)
            v = args[i + 1]
            i += 2
            if a in opts:
                what, mult, expected = opts[a]
                if not v.isdigit() or int(v) == 0 or int(v) % mult:
                    usage_error("%s: expected %s, got '%s'" % (a, expected, v))
                sizes[what] = int(v)
            elif v not in ONLY:
                usage_error("--only: expected one of %s, got '%s'" % (", ".join(ONLY), v))
            else:
                only = v
            continue
        if a.startswith("-"):
            usage_error("unknown option '%s' (an OUTDIR never starts with '-'; for a folder of "
                        "that name write ./%s)" % (a, a))
        if out is not None:
            usage_error("one OUTDIR, got '%s' and '%s'" % (out, a))
        out = a
        i += 1
    if out is None:
        usage_error("no OUTDIR")
    return out, sizes, only


def main():
    out, sizes, only = parse_args(sys.argv[1:])
    if only in (None, "copy"):
        write_copy(os.path.join(out, "copy"), sizes["copy"])
    if only == "transpose":
        write_transpose(os.path.join(out, "transpose"), sizes["transpose"])
    if only == "chase":
        write_chase(os.path.join(out, "chase"), loads=sizes["chase"])
    if only is not None:
        return
    write_copy(os.path.join(out, "copy_xz"), sizes["copy"], xz=True)
    write_copy(os.path.join(out, "warm"), sizes["copy"], memcpy=True)
    write_transpose(os.path.join(out, "transpose"), sizes["transpose"])
    write_chase(os.path.join(out, "chase"), loads=sizes["chase"])
    write_errors(out)


if __name__ == "__main__":
    main()
