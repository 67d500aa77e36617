# the same key twice at the top
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
kernel = "k2";
arrays = ( { name = "a"; elems = 1024; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "tx"; reg = "v"; } );
