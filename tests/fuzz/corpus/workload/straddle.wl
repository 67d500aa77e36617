# straddle.wl - each warp reads 32 consecutive floats at bytes 120..248 of a 256 B line pair
# (float index 30 .. 61 of its pair), an access straddling a 128 B line boundary.
# Shows: the coalescer splits it into 2 line requests, 5 sectors (sector 3 of the first line,
# all 4 of the second) for 4 sectors of useful data: efficiency 0.8. One block of one warp by
# default; -p blocks=N gives N warps, each on its own line pair.
kernel = "straddle";
params = { blocks = 1; };
grid   = ( "blocks", 1, 1 );
block  = [ 32, 1, 1 ];
arrays = (
	{ name = "a"; elems = "blocks * 64"; type = "float"; }
);
body = (
	{ op = "load"; array = "a"; index = "bx * 64 + 30 + tx"; reg = "v"; },
	{ op = "alu"; latency = 4; uses = "v"; }
);
