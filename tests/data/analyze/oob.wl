# oob.wl - lane 31 reads a[32]: one past the end of the array.
kernel = "oob";
grid   = 1;
block  = 32;
arrays = ( { name = "a"; elems = 32; type = "float"; } );
body   = (
	{ op = "alu"; latency = 1; },
	{ op = "load"; array = "a"; index = "tx + 1"; }
);
