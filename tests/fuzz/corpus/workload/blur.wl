# blur.wl - 3x3 box blur of a w x h float image (stored with a 1-pixel border, pitch w + 2),
# 32x8 threads per block, each thread reading its 9 neighbours straight from global memory.
# Shows: each input pixel is read by 9 threads (3 warps' rows, 3 columns), so reuse has to come
# from the L1. Compare blur_tiled.wl. A block's 141 load line requests touch 20 lines, so its L1
# hit rate is at most 0.80 (its 8 store requests write through and miss); below that the L1 has
# lost reuse: 64 resident warps thrashing a 16 KB L1, or a pitch of 4 (w + 2) B near a multiple
# of sets x 128 B putting a block's rows in the same sets (w = 1024 on
# configs/test/small-gpu.cfg, 8192 on configs/default.cfg: about 0.05). Numbers in
# workloads/README.md.
kernel = "blur";
params = { w = 256; h = 64; };
grid   = ( "w / 32", "h / 8", 1 );
block  = [ 32, 8, 1 ];
arrays = (
	{ name = "in";  elems = "(w + 2) * (h + 2)"; type = "float"; },
	{ name = "out"; elems = "w * h"; type = "float"; }
);
body = (
	{ op = "loop"; var = "dy"; count = 3; body = (
		{ op = "loop"; var = "dx"; count = 3; body = (
			{ op = "load"; array = "in"; index = "(by * 8 + ty + dy) * (w + 2) + bx * 32 + tx + dx"; reg = "v"; },
			{ op = "alu"; latency = 4; uses = "v"; }
		); }
	); },
	{ op = "store"; array = "out"; index = "(by * 8 + ty) * w + bx * 32 + tx"; uses = "v"; }
);
