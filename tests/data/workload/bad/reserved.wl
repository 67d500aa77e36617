# a parameter and a loop variable named like functions of the expression language
kernel = "k";
params = { hash = 3; };
grid = [ 4, 1, 1 ];
arrays = ( { name = "in"; elems = 1024; type = "float"; } );
body = (
	{ op = "loop"; var = "rand"; count = 2; body = (
		{ op = "load"; array = "in"; index = "bx * 32 + tx"; }
	); }
);
