# latency given as a string
kernel = "k";
grid = [ 4, 1, 1 ];
arrays = ( { name = "in"; elems = 1024; type = "float"; } );
body = (
	{ op = "alu";
	  latency = "fast"; }
);
