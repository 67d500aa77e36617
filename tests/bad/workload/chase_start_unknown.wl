# a chase whose start names no parameter
kernel = "chase_start";
params = { s = -3; };
grid   = ( 1, 1, 1 );
block  = [ 1, 1, 1 ];
arrays = ( { name = "chain"; elems = 16; elem_bytes = 64; } );
body = (
	{ op = "chase"; array = "chain"; loads = 4; start = "t"; reg = "p"; }
);
