kernel = "stream_copy";
params = { n = 8192; };
grid = ( "n / 256", 1, 1 );
block = [ 256, 1, 1 ];
arrays = (
	{ name = "a"; elems = "n"; type = "float"; },
	{ name = "b"; elems = "n"; type = "float"; }
);
body = (
	{ op = "load";  array = "a"; index = "bx * bdx + tx"; reg = "v"; },
	{ op = "store"; array = "b"; index = "bx * bdx + tx"; uses = "v"; }
);
