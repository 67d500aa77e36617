# uses a register nobody wrote
kernel = "k";
grid = [ 4, 1, 1 ];
arrays = ( { name = "in"; elems = 1024; type = "float"; } );
body = (
	{ op = "load"; array = "in"; index = "tx"; reg = "v"; },
	{ op = "alu"; latency = 2; uses = [ "v", "w" ]; }
);
