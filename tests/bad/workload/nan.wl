# a latency of nan
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
arrays = ( { name = "a"; elems = 1024; type = "float"; } );
body = ( { op = "alu"; latency = nan; } );
