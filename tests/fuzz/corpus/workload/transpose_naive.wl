# transpose_naive.wl - out = transpose(in) for an n x n float matrix (n = 1024), 32x32 tiles,
# 32x8 threads per block, each thread moving 4 elements (rows ty, ty+8, ty+16, ty+24).
# Shows: the read of a warp is 32 consecutive floats (one 128 B line, fully coalesced); the
# write of a warp walks down a column, lanes n * 4 B = 4 KiB apart: 32 lines per store.
kernel = "transpose_naive";
params = { n = 1024; };
grid   = ( "n / 32", "n / 32", 1 );
block  = [ 32, 8, 1 ];
arrays = (
	{ name = "in";  elems = "n * n"; type = "float"; },
	{ name = "out"; elems = "n * n"; type = "float"; }
);
body = (
	{ op = "loop"; var = "j"; count = 4; body = (
		{ op = "load";  array = "in";  index = "(by * 32 + ty + j * 8) * n + bx * 32 + tx"; reg = "v"; },
		{ op = "store"; array = "out"; index = "(bx * 32 + tx) * n + by * 32 + ty + j * 8"; uses = "v"; }
	); }
);
