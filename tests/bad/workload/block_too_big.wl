# more threads per block than an SM can hold (inconsistent grid and block)
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 1024, 1024, 1 ];
arrays = ( { name = "a"; elems = 1024; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "tx"; reg = "v"; } );
