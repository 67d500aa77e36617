# blocks4.wl - four one-warp blocks, each one 1-cycle ALU op: the cycle each block's warp
# first issues shows the block dispatcher and the block launch latency.
kernel = "blocks4";
grid   = 4;
block  = 32;
body   = ( { op = "alu"; latency = 1; } );
