# op name misspelled
kernel = "k";
grid = [ 4, 1, 1 ];
arrays = ( { name = "in"; elems = 1024; type = "float"; } );
body = (
	{ op = "lod"; array = "in"; index = "tx"; reg = "v"; }
);
