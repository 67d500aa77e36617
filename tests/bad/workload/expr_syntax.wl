# an expression that stops in the middle
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
arrays = ( { name = "a"; elems = 1024; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "(bx * 32 + "; reg = "v"; } );
