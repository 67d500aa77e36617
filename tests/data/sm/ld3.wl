# ld3.wl - one block of 4 warps, each three independent loads of 32 floats 128 B apart (32 line
# requests each, several cycles of the LD/ST unit): the issue order shows how the schedulers
# share the LD/ST unit.
kernel = "ld3";
grid   = 1;
block  = 128;
arrays = ( { name = "a"; elems = 16384; type = "float"; } );
body   = (
	{ op = "load"; array = "a"; index = "tx * 32"; reg = "v0"; },
	{ op = "load"; array = "a"; index = "tx * 32 + 1"; reg = "v1"; },
	{ op = "load"; array = "a"; index = "tx * 32 + 2"; reg = "v2"; }
);
