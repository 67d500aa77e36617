# stride32.wl - one warp loads 32 floats 128 B apart (32 line requests), then uses them.
kernel = "stride32";
grid   = 1;
block  = 32;
arrays = ( { name = "a"; elems = 1024; type = "float"; } );
body   = (
	{ op = "load"; array = "a"; index = "tx * 32"; reg = "v"; },
	{ op = "alu"; latency = 1; uses = "v"; }
);
