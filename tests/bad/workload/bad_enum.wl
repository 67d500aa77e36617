# an array type that does not exist
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
arrays = ( { name = "a"; elems = 1024; type = "float32"; } );
body = ( { op = "load"; array = "a"; index = "tx"; reg = "v"; } );
