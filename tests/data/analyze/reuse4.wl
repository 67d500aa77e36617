# reuse4.wl - one warp reads the same 32 floats (one line, 4 sectors) four times.
# Sector stream s0 s1 s2 s3 s0 s1 s2 s3 ...: 4 cold, then 12 reuses at distance 3.
# Line stream: 1 cold, 3 reuses at distance 0.
kernel = "reuse4";
grid   = 1;
block  = 32;
arrays = ( { name = "a"; elems = 32; type = "float"; } );
body   = (
	{ op = "loop"; var = "i"; count = 4; body = (
		{ op = "load"; array = "a"; index = "tx"; reg = "v"; }
	); }
);
