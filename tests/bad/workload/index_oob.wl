# a load past the end of its array (found when the load runs)
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
arrays = ( { name = "a"; elems = 64; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "bx * 32 + tx"; reg = "v"; } );
