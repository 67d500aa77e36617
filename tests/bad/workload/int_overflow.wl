# a parameter too large for 64 bits
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
params = { n = 99999999999999999999; };
arrays = ( { name = "a"; elems = 1024; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "tx"; reg = "v"; } );
