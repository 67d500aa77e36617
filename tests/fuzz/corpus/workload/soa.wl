# soa.wl - the struct-of-arrays layout of aos.wl: float x[n], y[n], z[n]; thread i reads x[i].
# Shows: 32 consecutive floats per warp: 1 line, 4 sectors, coalescing efficiency 1.0.
kernel = "soa";
params = { n = 65536; };
grid   = ( "n / 256", 1, 1 );
block  = [ 256, 1, 1 ];
arrays = (
	{ name = "x"; elems = "n"; type = "float"; },
	{ name = "y"; elems = "n"; type = "float"; },
	{ name = "z"; elems = "n"; type = "float"; }
);
body = (
	{ op = "load"; array = "x"; index = "bx * bdx + tx"; reg = "v"; },
	{ op = "alu"; latency = 4; uses = "v"; }
);
