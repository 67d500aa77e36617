kernel = "chase";
params = { nodes = 64; loads = 200; };
grid = 1;
block = 1;
arrays = ( { name = "chain"; elems = "nodes"; elem_bytes = 128; } );
body = ( { op = "chase"; array = "chain"; loads = "loads"; order = "sequential"; reg = "p"; } );
