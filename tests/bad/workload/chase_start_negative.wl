# a chase whose start is negative: an error at run time naming the op's line
kernel = "chase_start";
params = { s = -3; };
grid   = ( 1, 1, 1 );
block  = [ 1, 1, 1 ];
arrays = ( { name = "chain"; elems = 16; elem_bytes = 64; } );
body = (
	{ op = "chase"; array = "chain"; loads = 4; start = "s"; reg = "p"; }
);
