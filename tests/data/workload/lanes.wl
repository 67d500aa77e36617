# lanes.wl - each lane's thread ids (test_workload's lane test): lane addresses are tx + 1000 ty
# + 1000000 tz, once through an affine index and once through one that is not (the product
# times 0), for a block shape set with -p x=.. y=.. z=...
kernel = "lanes";
params = { x = 3; y = 5; z = 7; };
grid = "1";
block = ( "x", "y", "z" );
arrays = ( { name = "a"; elems = 100000000; type = "char"; } );
body = (
	{ op = "load"; array = "a"; index = "tx + 1000 * ty + 1000000 * tz"; reg = "v"; },
	{ op = "load"; array = "a"; index = "tx + 1000 * ty + 1000000 * tz + tx * ty * 0";
	  reg = "w"; }
);
