# an array size whose product wraps modulo 2^64 to 0 (expressions are 64-bit two's complement)
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
arrays = ( { name = "a"; elems = "4294967296 * 4294967296"; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "tx"; reg = "v"; } );
