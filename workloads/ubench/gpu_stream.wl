# gpu_stream.wl - RRZE gpu-stream's kernels as the source writes them (gpu-stream/main.cu): one
# element per thread, no loop, `blocks` blocks of `threads` threads; thread i = bx * bdx + tx
# of the measured kernel handles element (first + bx) * bdx + tx:
#   init   A[i] = 0.23                        -p loads=0 -p stores=1
#   read   t = B[i]; if (t == 123.0) A[i] = t  -p loads=1 -p stores=0 (the store never happens)
#   scale  A[i] = 1.2 * B[i]                  -p loads=1 -p stores=1
#   triad  A[i] = 1.2 * B[i] + C[i]           -p loads=2 -p stores=1
#   (the later source's triad, A[i] = B[i] * D[i] + C[i]: -p loads=3 -p stores=1)
# (a loop of count 0 or 1 around each op selects it). The measured rows (data/hw, gpu-benches
# at 1c36d50: 1 GiB arrays, a "blockSize threads %occ" header whose threads column is SMs x
# blockSize) come from the version whose triad reads two arrays, B and C, and counts 3 streams;
# ../shared/reference/ubench-sources.md describes the later one (2 GiB arrays, B * D + C, 4
# streams). Before its memory access every thread runs
# the kernel's prologue as the compiler emits it for sm_70 and later: S2R of the thread and
# block index (20 cycles, data/isa/latency.cfg), the IMAD of the index, the ISETP of the bound
# check (whose predicated EXIT never fires here) and the IMAD.WIDE of the address (4 cycles
# each, dependent); the read then compares the value (DSETP, 8 cycles).
#
# Occupancy: the source gives every kernel a shared-memory "spoiler" (that version: 6 KB of
# static shared memory and the smallest carve-out that holds 2 blocks) so that only
# blocksPerSM blocks fit on an SM; `spoiler` bytes of shared memory per block do the same here
# (gmsim validate: sm.shared_kb x 1024 / blocks per SM).
#
# Mirrors stream_{init,read,scale,triad}_bw@blockSize=B of measured.csv. Scaling: the source's
# arrays hold 128 Mi doubles (millions of blocks); gmsim validate runs enough blocks for 32
# waves of resident blocks (start and drain a few percent) and at least one L2 capacity per
# array, after a warm-up run of the same kernel over the `first` blocks before them (one L2
# capacity: the timed runs of gpu-stream follow earlier runs, so the L2 holds the previous
# run's lines, dirty for the kernels that store).
kernel = "gpu_stream";
params = { threads = 256; blocks = 1024; first = 0; spoiler = 0; loads = 1; stores = 1; };
grid   = ( "blocks", 1, 1 );
block  = ( "threads", 1, 1 );
arrays = (
	{ name = "A"; elems = "(first + blocks) * threads"; type = "double"; },
	{ name = "B"; elems = "(first + blocks) * threads"; type = "double"; },
	{ name = "C"; elems = "(first + blocks) * threads"; type = "double"; },
	{ name = "D"; elems = "(first + blocks) * threads"; type = "double"; }
);
shared = (
	{ name = "spoiler"; elems = "max(spoiler, 1)"; elem_bytes = 1; }
);
body = (
	{ op = "alu"; latency = 20; },  # S2R SR_TID.X, S2R SR_CTAID.X
	{ op = "alu"; latency = 4; },   # IMAD i = ctaid * ntid + tid
	{ op = "alu"; latency = 4; },   # ISETP i >= N; @P0 EXIT
	{ op = "alu"; latency = 4; },   # IMAD.WIDE the address
	# read: t = B[i], then the compare behind which the store never runs
	{ op = "loop"; var = "r"; count = "loads * (1 - stores)"; body = (
		{ op = "load"; array = "B"; index = "(first + bx) * bdx + tx"; reg = "t"; },
		{ op = "alu"; latency = 8; uses = "t"; }
	); },
	{ op = "loop"; var = "lb"; count = "min(loads, 1) * stores"; body = (
		{ op = "load"; array = "B"; index = "(first + bx) * bdx + tx"; reg = "vb"; }
	); },
	{ op = "loop"; var = "lc"; count = "min(max(loads - 1, 0), 1) * stores"; body = (
		{ op = "load"; array = "C"; index = "(first + bx) * bdx + tx"; reg = "vc"; }
	); },
	{ op = "loop"; var = "ld"; count = "min(max(loads - 2, 0), 1) * stores"; body = (
		{ op = "load"; array = "D"; index = "(first + bx) * bdx + tx"; reg = "vd"; }
	); },
	{ op = "loop"; var = "w"; count = "stores"; body = (
		{ op = "store"; array = "A"; index = "(first + bx) * bdx + tx";
		  uses = [ "vb", "vc", "vd" ]; }
	); }
);
