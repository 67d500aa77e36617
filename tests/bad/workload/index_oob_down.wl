# a load whose index counts down from past the end of its array: lane 0 is outside, lane 31 in
# (a full warp in one row with a step of -1, which warpexec.c's row_addrs must not take)
kernel = "k";
grid = [ 1, 1, 1 ];
block = [ 32, 1, 1 ];
arrays = ( { name = "a"; elems = 32; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "40 - tx"; reg = "v"; } );
