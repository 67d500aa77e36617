# alu3.wl - one block of 4 warps, each three independent 1-cycle ALU ops: the issue order
# shows the scheduler.
kernel = "alu3";
grid   = 1;
block  = 128;
body   = (
	{ op = "alu"; latency = 1; },
	{ op = "alu"; latency = 1; },
	{ op = "alu"; latency = 1; }
);
