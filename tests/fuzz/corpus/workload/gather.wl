# gather.wl - random gather: thread i reads a[rand(n)], indices drawn from the run's seed.
# Shows: nearly every lane lands in its own line (up to 32 line requests and 32 sectors per
# warp for 4 sectors of useful data), so coalescing efficiency is far below 1 and the caches
# hit only as often as the footprint fits.
kernel = "gather";
params = { n = 1048576; threads = 16384; };   # n: table size in floats (4 MB)
grid   = ( "threads / 256", 1, 1 );
block  = [ 256, 1, 1 ];
arrays = (
	{ name = "a"; elems = "n"; type = "float"; }
);
body = (
	{ op = "load"; array = "a"; index = "rand(n)"; reg = "v"; },
	{ op = "alu"; latency = 4; uses = "v"; }
);
