# name misspelled in an expression
kernel = "k";
grid = [ 4, 1, 1 ];
arrays = ( { name = "in"; elems = 1024; type = "float"; } );
body = (
	{ op = "load"; array = "in"; reg = "v";
	  index = "bx * 32 + txx"; }
);
