# stream.wl - DRAM streaming bandwidth against occupancy: 2 blocks of `threads` threads per SM
# (grid = 2 x sms) run a grid-stride loop over double arrays; the variant is chosen by `loads`
# (0, 1 or 2 arrays read) and `stores` (0 or 1 array written):
#   init   a[i] = s                 -p loads=0 -p stores=1
#   read   sum += a[i]              -p loads=1 -p stores=0
#   scale  a[i] = s * b[i]          -p loads=1 -p stores=1
#   triad  a[i] = b[i] + s * c[i]   -p loads=2 -p stores=1
# (a loop of count 0 or 1 around each op selects it). Each warp has one iteration in flight:
# its store, or the add of read, waits for the loads (the source does not unroll).
#
# Mirrors stream_{init,read,scale,triad}_bw@blockSize=B;occupancy_pct=P of measured.csv:
# RRZE-HPC gpu-stream, "double, ~1 GiB arrays, 2 blocks/SM (smem spoiler), blockSize sweeps
# occupancy; GB/s counts loads+stores".
# Scaling: ~1 GiB arrays take seconds of GPU time and hours of simulation; `iters` grid-stride
# iterations per thread (gmsim validate: 4 L2 capacities per array, 16..2048) keep every warp
# streaming long enough that the start and the drain are a few percent of the run. Nothing is re-read (as with
# 1 GiB arrays, no cache holds them). The timed runs of gpu-stream follow earlier runs of the
# same kernel, so gmsim validate first runs the same kernel over iterations 0 .. first-1 (one
# L2 capacity: first x grid x threads x 8 B >= the L2), leaving the L2 as a previous run would
# (dirty for the kernels that store, clean for the read), then the measured kernel over
# iterations first .. first+iters-1: its stores evict dirty lines to DRAM as in the long run.
# The method's "total threads" (SMs x blockSize) is half of 2 blocks per SM; occupancy_pct
# agrees with 2 blocks per SM, which is what blocks_per_sm = 2 runs.
# Other sources' copy and read kernels (gmsim validate's scalar rows: a copy kernel, clpeak,
# OpenCL-Benchmark, bandwidthTest, saxpy) run this at their own occupancy (blocks_per_sm) and
# element size (elem: 4 float, 8 double or float2, 16 float4).
kernel = "stream";
params = { threads = 256; sms = 80; blocks_per_sm = 2; elem = 8; first = 0; iters = 16; loads = 2;
           stores = 1; };
grid   = ( "blocks_per_sm * sms", 1, 1 );
block  = ( "threads", 1, 1 );
arrays = (
	{ name = "a"; elems = "(first + iters) * blocks_per_sm * sms * threads"; elem_bytes = "elem"; },
	{ name = "b"; elems = "(first + iters) * blocks_per_sm * sms * threads"; elem_bytes = "elem"; },
	{ name = "c"; elems = "(first + iters) * blocks_per_sm * sms * threads"; elem_bytes = "elem"; }
);
body = (
	{ op = "loop"; var = "it"; count = "iters"; body = (
		# read: the one load is of a (sum += a[i]); scale and triad read b (and c)
		{ op = "loop"; var = "r"; count = "loads * (1 - stores)"; body = (
			{ op = "load"; array = "a"; index = "((first + it) * gdx + bx) * bdx + tx"; reg = "va"; },
			{ op = "alu"; latency = 4; uses = "va"; }
		); },
		{ op = "loop"; var = "lb"; count = "min(loads, 1) * stores"; body = (
			{ op = "load"; array = "b"; index = "((first + it) * gdx + bx) * bdx + tx"; reg = "vb"; }
		); },
		{ op = "loop"; var = "lc"; count = "(loads - 1) * stores"; body = (
			{ op = "load"; array = "c"; index = "((first + it) * gdx + bx) * bdx + tx"; reg = "vc"; }
		); },
		{ op = "loop"; var = "w"; count = "stores"; body = (
			{ op = "store"; array = "a"; index = "((first + it) * gdx + bx) * bdx + tx";
			  uses = [ "vb", "vc" ]; }
		); }
	); }
);
