# two arrays with the same name
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
arrays = ( { name = "a"; elems = 64; type = "float"; }, { name = "a"; elems = 64; type = "int"; } );
body = ( { op = "load"; array = "a"; index = "tx"; reg = "v"; } );
