# regs.wl - three blocks of 8 warps, each one 100-cycle ALU op; `registers` per thread is a
# parameter (128: 8 x 4096 registers a block, two blocks fill a 65536-register SM).
kernel = "regs";
params = { r = 128; };
grid   = 3;
block  = 256;
registers = "r";
body   = ( { op = "alu"; latency = 100; } );
