# registers.wl - 300 registers per thread: more than the 255 a thread may have.
kernel = "k";
grid = 1;
registers = 300;
body = ( { op = "alu"; latency = 1; } );
