# load without index
kernel = "k";
grid = [ 4, 1, 1 ];
arrays = ( { name = "in"; elems = 1024; type = "float"; } );
body = (
	{ op = "alu"; latency = 2; },
	{ op = "load"; array = "in";
	  reg = "v"; }
);
