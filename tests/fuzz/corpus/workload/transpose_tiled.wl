# transpose_tiled.wl - the same transpose through a shared-memory tile float tile[32][32 + pad].
# Shows: global reads and writes are both coalesced (one line per warp access); with pad = 1
# (the classic tile[32][33]) the column reads of the tile hit 32 different banks, with
# -p pad=0 all 32 lanes of a warp hit the same bank: a 32-way bank conflict.
kernel = "transpose_tiled";
params = { n = 1024; pad = 1; };
grid   = ( "n / 32", "n / 32", 1 );
block  = [ 32, 8, 1 ];
arrays = (
	{ name = "in";  elems = "n * n"; type = "float"; },
	{ name = "out"; elems = "n * n"; type = "float"; }
);
shared = (
	{ name = "tile"; elems = "32 * (32 + pad)"; type = "float"; }
);
body = (
	{ op = "loop"; var = "j"; count = 4; body = (
		{ op = "load"; array = "in"; index = "(by * 32 + ty + j * 8) * n + bx * 32 + tx"; reg = "v"; },
		{ op = "shared_store"; array = "tile"; index = "(ty + j * 8) * (32 + pad) + tx"; uses = "v"; }
	); },
	{ op = "barrier"; },
	{ op = "loop"; var = "j"; count = 4; body = (
		{ op = "shared_load"; array = "tile"; index = "tx * (32 + pad) + ty + j * 8"; reg = "t"; },
		{ op = "store"; array = "out"; index = "(bx * 32 + ty + j * 8) * n + by * 32 + tx"; uses = "t"; }
	); }
);
