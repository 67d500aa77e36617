# ocl_rw.wl - OpenCL-style global bandwidth kernels: `items` work-items (blocks of `threads`)
# each read or write `vec` elements of elem bytes, laid out either coalesced (element i of
# work-item n at i * items + n: a warp touches consecutive elements each step) or misaligned
# (at n * vec + i: each work-item owns vec consecutive elements, so one warp instruction spans
# 32 x vec x elem bytes and touches one element per lane in each of them).
#   read  (store = 0): x += data[...] over i, then data[n] = x (the loads are independent, as
#         the unrolled loop of the sources; the store waits for them)
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
	{ op = "loop"; var = "i"; count = "vec * (1 - store)"; body = (
		{ op = "load"; array = "data"; reg = "x";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + i) + (1 - misaligned) * (i * items + bx * bdx + tx)"; }
	); },
	{ op = "loop"; var = "r"; count = "1 - store"; body = (
		{ op = "store"; array = "data"; index = "off + bx * bdx + tx"; uses = "x"; }
	); },
	{ op = "loop"; var = "j"; count = "vec * store"; body = (
		{ op = "store"; array = "data";
		  index = "off + misaligned * ((bx * bdx + tx) * vec + j) + (1 - misaligned) * (j * items + bx * bdx + tx)"; }
	); }
);
