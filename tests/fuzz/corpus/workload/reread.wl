# reread.wl - blocks read a buffer of `kb` KB `passes` times in coalesced 1 KB steps, each pass
# a different block's slice (pass p: the slice of block bx + p, which ran on
# another SM), so the L1s see no reuse: the first pass misses everywhere, later passes hit in
# the L2 only if the buffer fits it. For L2 capacity studies (sweeps/l2.sweep).
kernel = "reread";
params = { kb = 4096; passes = 2; blocks = 160; };
grid   = ( "blocks", 1, 1 );
block  = [ 256, 1, 1 ];
arrays = ( { name = "buf"; elems = "kb * 1024 / 4"; type = "float"; } );
body = (
	{ op = "loop"; var = "p"; count = "passes"; body = (
		{ op = "loop"; var = "i"; count = "kb * 1024 / 4 / (blocks * 256)"; body = (
			{ op = "load"; array = "buf"; index = "(i * blocks + (bx + p) % blocks) * 256 + tx"; reg = "v"; },
			{ op = "alu"; latency = 4; uses = "v"; }
		); }
	); }
);
