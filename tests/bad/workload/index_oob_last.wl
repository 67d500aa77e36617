# a load whose first lanes are inside its array and last lanes past its end: a full warp in one
# row of the block (warpexec.c's row_addrs) must check its last index too
kernel = "k";
grid = [ 1, 1, 1 ];
block = [ 32, 1, 1 ];
arrays = ( { name = "a"; elems = 32; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "tx + 10"; reg = "v"; } );
