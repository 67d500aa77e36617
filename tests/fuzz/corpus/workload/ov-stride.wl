# stride.wl - load-only stride sweep: thread i reads a[i * stride] (stride in floats).
# Shows: stride 1 -> 32 consecutive floats per warp, 1 line and 4 sectors; stride 32 -> 32
# lines, 4 of 128 bytes used in each; -p stride=250 puts lanes 1000 B apart (32 sectors, 12.5%
# of the moved bytes used).
kernel = "stride";
params = { stride = 1; n = 1048576; };   # n threads
grid   = ( "n / 256", 1, 1 );
block  = [ 256, 1, 1 ];
arrays = (
	{ name = "a"; elems = "n * stride"; type = "float"; }
);
body = (
	{ op = "load"; array = "a"; index = "(bx * bdx + tx) * stride"; reg = "v"; },
	{ op = "alu"; latency = 4; uses = "v"; }
);
%%
stride=0
n=-1
nope=3
stride=99999999999999999999
