# an array size that divides by zero (found when the file loads)
kernel = "k";
grid = [ 4, 1, 1 ];
block = [ 32, 1, 1 ];
params = { n = 0; };
arrays = ( { name = "a"; elems = "1024 / n"; type = "float"; } );
body = ( { op = "load"; array = "a"; index = "tx"; reg = "v"; } );
