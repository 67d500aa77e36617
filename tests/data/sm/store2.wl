# store2.wl - two one-warp blocks, each one coalesced 128 B store: with one block per SM the
# second block starts when the first retires, which waits for its store's acknowledgement.
kernel = "store2";
grid   = 2;
block  = 32;
arrays = ( { name = "A"; elems = 64; type = "float"; } );
body   = ( { op = "store"; array = "A"; index = "bx * bdx + tx"; } );
