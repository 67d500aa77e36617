# stream_triad.wl - STREAM triad, a[i] = b[i] + s * c[i], one float per thread over n = 2^18.
# Shows: two coalesced loads and a store per thread (an alu op for the multiply-add): like
# stream_copy.wl it is DRAM-bound, with 12 B moved per element instead of 8.
kernel = "stream_triad";
params = { n = 262144; };
grid   = ( "n / 256", 1, 1 );
block  = [ 256, 1, 1 ];
arrays = (
	{ name = "a"; elems = "n"; type = "float"; },
	{ name = "b"; elems = "n"; type = "float"; },
	{ name = "c"; elems = "n"; type = "float"; }
);
body = (
	{ op = "load";  array = "b"; index = "bx * bdx + tx"; reg = "vb"; },
	{ op = "load";  array = "c"; index = "bx * bdx + tx"; reg = "vc"; },
	{ op = "alu";   latency = 4; uses = [ "vb", "vc" ]; },
	{ op = "store"; array = "a"; index = "bx * bdx + tx"; uses = [ "vb", "vc" ]; }
);
