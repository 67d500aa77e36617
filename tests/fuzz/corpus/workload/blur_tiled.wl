# blur_tiled.wl - the blur of blur.wl through a shared-memory tile of the block's 34 x 10 input
# pixels: each thread loads up to 4 of them (rows ty, ty + 8 and columns tx, tx + 32, clamped to
# the tile; clamped lanes repeat a neighbour's address), barrier, then 9 shared reads.
# Shows: each input pixel leaves global memory about once per block instead of 9 times. The
# re-reads move to shared memory, so the L1 hit rate of the global loads that remain is LOWER
# than blur.wl's (at most 0.46: 47 line requests over the block's 20 lines, plus 8 store
# misses); what rises is the share of the 9 reads per pixel served on chip (0.56 -> 0.84 on
# configs/test/small-gpu.cfg), and only where the L1 loses the plain blur's reuse. See
# workloads/README.md.
kernel = "blur_tiled";
params = { w = 256; h = 64; };
grid   = ( "w / 32", "h / 8", 1 );
block  = [ 32, 8, 1 ];
arrays = (
	{ name = "in";  elems = "(w + 2) * (h + 2)"; type = "float"; },
	{ name = "out"; elems = "w * h"; type = "float"; }
);
shared = (
	{ name = "tile"; elems = "10 * 34"; type = "float"; }
);
body = (
	{ op = "loop"; var = "r"; count = 2; body = (
		{ op = "loop"; var = "c"; count = 2; body = (
			{ op = "load"; array = "in"; reg = "v";
			  index = "(by * 8 + min(ty + r * 8, 9)) * (w + 2) + bx * 32 + min(tx + c * 32, 33)"; },
			{ op = "shared_store"; array = "tile"; index = "min(ty + r * 8, 9) * 34 + min(tx + c * 32, 33)"; uses = "v"; }
		); }
	); },
	{ op = "barrier"; },
	{ op = "loop"; var = "dy"; count = 3; body = (
		{ op = "loop"; var = "dx"; count = 3; body = (
			{ op = "shared_load"; array = "tile"; index = "(ty + dy) * 34 + tx + dx"; reg = "t"; },
			{ op = "alu"; latency = 4; uses = "t"; }
		); }
	); },
	{ op = "store"; array = "out"; index = "(by * 8 + ty) * w + bx * 32 + tx"; uses = "t"; }
);
