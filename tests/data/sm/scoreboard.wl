# scoreboard.wl - one warp: a load into v, then an ALU op that uses v (uses = 1) or not.
kernel = "scoreboard";
params = { uses = 1; };
grid   = 1;
block  = 32;
arrays = ( { name = "a"; elems = 32; type = "float"; } );
body   = (
	{ op = "load"; array = "a"; index = "tx"; reg = "v"; },
	{ op = "loop"; var = "k"; count = "uses"; body = (
		{ op = "alu"; latency = 1; uses = "v"; }
	); },
	{ op = "loop"; var = "k"; count = "1 - uses"; body = (
		{ op = "alu"; latency = 1; }
	); }
);
