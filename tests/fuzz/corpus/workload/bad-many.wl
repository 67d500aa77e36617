# grid over a thread index, loop variable used outside its loop
kernel = "k";
params = { n = 64; };
grid = ( "tx", 1, 1 );
arrays = ( { name = "in"; elems = "n"; type = "floot"; } );
body = (
	{ op = "loop"; var = "j"; count = "n / 32"; body = (
		{ op = "barrier"; }
	); },
	{ op = "store"; array = "in"; index = "j"; bytes = 3; }
);
