# stream_copy.wl - STREAM copy, b[i] = a[i], one float per thread over n = 2^20 elements.
# Shows: the bandwidth ceiling: every access is coalesced and streams through the caches once,
# so achieved DRAM bandwidth over peak is the number to look at. The default workload of
# `gmsim run` and `gmsim analyze`: 2 x 4 MiB, more than the default L2 reads and keeps, and a
# run of under a second; STREAM proper wants arrays several times the L2 (-p n=16777216).
kernel = "stream_copy";
params = { n = 1048576; };
grid   = ( "n / 256", 1, 1 );
block  = [ 256, 1, 1 ];
arrays = (
	{ name = "a"; elems = "n"; type = "float"; },
	{ name = "b"; elems = "n"; type = "float"; }
);
body = (
	{ op = "load";  array = "a"; index = "bx * bdx + tx"; reg = "v"; },
	{ op = "store"; array = "b"; index = "bx * bdx + tx"; uses = "v"; }
);
