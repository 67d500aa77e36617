# layout.wl - every op kind, nested loops, odd sizes: checks addresses and describe output.
kernel = "layout";
params = { k = 3; };
grid = "2";
block = [ 64 ];
arrays = (
	{ name = "c"; elems = "k"; type = "char"; },
	{ name = "f4"; elems = 300; type = "float4"; },
	{ name = "d"; elems = 5; elem_bytes = 8; }
);
shared = (
	{ name = "s"; elems = 5; type = "half"; },
	{ name = "t"; elems = 8; type = "double"; }
);
body = (
	{ op = "load"; array = "f4"; index = "tx"; reg = "a"; },
	{ op = "load"; array = "d"; index = "tx % 5"; bytes = 4; reg = "b"; },
	{ op = "loop"; var = "i"; count = "k"; body = (
		{ op = "loop"; var = "m"; count = "i + gdx"; body = (
			{ op = "shared_store"; array = "s"; index = "i + m"; uses = [ "a", "b" ]; },
			{ op = "alu"; latency = 3; }
		); },
		{ op = "barrier"; }
	); },
	{ op = "shared_load"; array = "t"; index = 0; reg = "a"; uses = "b"; },
	{ op = "store"; array = "c"; index = "tx"; uses = [ "a" ]; },
	{ op = "chase"; array = "d"; loads = 12; order = "sequential"; }
);
