# waw.wl - one warp loads into v twice: the second load waits for the first (its destination
# is pending).
kernel = "waw";
grid   = 1;
block  = 32;
arrays = ( { name = "a"; elems = 64; type = "float"; } );
body   = (
	{ op = "load"; array = "a"; index = "tx"; reg = "v"; },
	{ op = "load"; array = "a"; index = "tx + 32"; reg = "v"; }
);
