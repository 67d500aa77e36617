# aos.wl - array of structs { float x, y, z; } (12 B each); thread i reads p[i].x.
# Shows: lanes 12 B apart: a warp's 32 x 4 B = 128 B of useful data span 384 B, 3 lines and
# 12 sectors against an ideal 4: coalescing efficiency 1/3. Compare soa.wl.
kernel = "aos";
params = { n = 65536; };   # n structs, one per thread
grid   = ( "n / 256", 1, 1 );
block  = [ 256, 1, 1 ];
arrays = (
	{ name = "p"; elems = "n"; elem_bytes = 12; }
);
body = (
	{ op = "load"; array = "p"; index = "bx * bdx + tx"; bytes = 4; reg = "x"; },
	{ op = "alu"; latency = 4; uses = "x"; }
);
