# pointer_chase.wl - one thread follows a chain of pointers through a footprint_kb KiB buffer,
# one node every stride_bytes bytes, in a random order drawn from the run's seed.
# Shows: the load-to-use latency of each level: each load waits for the one before, so the
# time per load is the latency of whatever level holds the footprint (L1, L2 or DRAM).
kernel = "pointer_chase";
params = { footprint_kb = 1024; stride_bytes = 128; loads = 100000; };
grid   = ( 1, 1, 1 );
block  = [ 1, 1, 1 ];
arrays = (
	{ name = "chain"; elems = "footprint_kb * 1024 / stride_bytes"; elem_bytes = "stride_bytes"; }
);
body = (
	{ op = "chase"; array = "chain"; loads = "loads"; order = "random"; reg = "p"; }
);
