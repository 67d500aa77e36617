# key misspelled
kernel = "k";
grid = [ 4, 1, 1 ];
arrays = ( { name = "in"; elems = 1024; type = "float"; } );
body = (
	{ op = "load"; array = "in"; index = "tx";
	  regg = "v"; }
);
