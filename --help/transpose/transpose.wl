kernel = "transpose_naive";
params = { n = 128; };
grid = ( "n / 32", "n / 32", 1 );
block = [ 32, 8, 1 ];
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
