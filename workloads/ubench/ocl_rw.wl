# ocl_rw.wl - OpenCL-style global bandwidth kernels: `items` work-items (blocks of `threads`)
# each read or write `vec` elements of elem bytes, laid out either coalesced (element i of
# work-item n at i * items + n: a warp touches consecutive elements each step) or misaligned
# (at n * vec + i: each work-item owns vec consecutive elements, so one warp instruction spans
# 32 x vec x elem bytes and touches one element per lane in each of them).
#   read  (store = 0): x += data[...] over i, then data[n] = x: the sources' loop has a
#         compile-time trip count, so the compiler issues its loads back to back into their own
#         registers and adds after them. Here the same: loads i = 0..15 write x0..x15 (a load
#         waits while its destination is pending, so one register for all of them would keep
#         one load a warp in flight) and the store uses all of them (a vec above 16, which no
#         validated row uses, loads the rest one at a time into x16)
#   write (store = 1): data[...] = 0 over i
# Mirrors measured.csv rows without a swept parameter (gmsim validate's scalar families):
#   {coalesced,misaligned}_{read,write}_bw   ProjectPhysX OpenCL-Benchmark: 16 floats a
#        work-item, workgroups of 64
#   opencl_global_read_bw_float{,2,4}        clpeak "global memory bandwidth": 16 floatN
#        vectors a work-item, coalesced, elem = 4, 8, 16
# Scaling: the sources stream 1 GiB buffers; gmsim validate runs a warm-up kernel over one L2
# capacity (leaving the cache as the previous timed run would), then the measured kernel over
# 4 L2 capacities at element offset `off`, past the warm-up's region.
kernel = "ocl_rw";
params = { items = 262144; vec = 16; misaligned = 0; store = 0; elem = 4; threads = 64; off = 0; };
grid   = ( "items / threads", 1, 1 );
block  = ( "threads", 1, 1 );
arrays = (
	{ name = "data"; elems = "off + items * vec"; elem_bytes = "elem"; }
);
body = (
	# the unrolled loads, one register each
	{ op = "loop"; var = "l0"; count = "(1 - store) * min(max(vec - 0, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x0";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 0) + (1 - misaligned) * (0 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l1"; count = "(1 - store) * min(max(vec - 1, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x1";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 1) + (1 - misaligned) * (1 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l2"; count = "(1 - store) * min(max(vec - 2, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x2";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 2) + (1 - misaligned) * (2 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l3"; count = "(1 - store) * min(max(vec - 3, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x3";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 3) + (1 - misaligned) * (3 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l4"; count = "(1 - store) * min(max(vec - 4, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x4";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 4) + (1 - misaligned) * (4 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l5"; count = "(1 - store) * min(max(vec - 5, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x5";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 5) + (1 - misaligned) * (5 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l6"; count = "(1 - store) * min(max(vec - 6, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x6";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 6) + (1 - misaligned) * (6 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l7"; count = "(1 - store) * min(max(vec - 7, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x7";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 7) + (1 - misaligned) * (7 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l8"; count = "(1 - store) * min(max(vec - 8, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x8";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 8) + (1 - misaligned) * (8 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l9"; count = "(1 - store) * min(max(vec - 9, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x9";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 9) + (1 - misaligned) * (9 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l10"; count = "(1 - store) * min(max(vec - 10, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x10";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 10) + (1 - misaligned) * (10 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l11"; count = "(1 - store) * min(max(vec - 11, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x11";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 11) + (1 - misaligned) * (11 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l12"; count = "(1 - store) * min(max(vec - 12, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x12";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 12) + (1 - misaligned) * (12 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l13"; count = "(1 - store) * min(max(vec - 13, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x13";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 13) + (1 - misaligned) * (13 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l14"; count = "(1 - store) * min(max(vec - 14, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x14";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 14) + (1 - misaligned) * (14 * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "l15"; count = "(1 - store) * min(max(vec - 15, 0), 1)"; body = (
		{ op = "load"; array = "data"; reg = "x15";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 15) + (1 - misaligned) * (15 * items + bx * bdx + tx)"; }
	); },
	# beyond 16 (no validated row): one more load at a time into x16, each waiting for the last
	{ op = "loop"; var = "i"; count = "(1 - store) * max(vec - 16, 0)"; body = (
		{ op = "load"; array = "data"; reg = "x16";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + 16 + i) + (1 - misaligned) * ((16 + i) * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "r"; count = "1 - store"; body = (
		{ op = "store"; array = "data"; index = "off + bx * bdx + tx";
		  uses = [ "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16" ]; }
	); },
	{ op = "loop"; var = "j"; count = "vec * store"; body = (
		{ op = "store"; array = "data";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + j) + (1 - misaligned) * (j * items + bx * bdx + tx)"; }
	); }
);
