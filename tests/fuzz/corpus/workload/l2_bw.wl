# l2_bw.wl - L2 (and, past it, DRAM) read bandwidth against the working-set size: block b reads
# chunk (b mod chunks) of a ws_kb KiB double array split into chunk_kb KiB chunks, 1024 threads
# reading consecutive doubles. Below the L2 capacity the chunks stay in the L2 and every block
# re-reads them from there; above it most reads go to DRAM.
#
# Mirrors l2_read_bw@total_working_set_kB=K of measured.csv: RRZE-HPC gpu-l2-cache, "200000
# blocks x 1024 thr, each reads a 512 kB double chunk of a working set of this total size; read
# GB/s" (reads only, as the source counts).
# Scaling (doc/validation.md): 200000 blocks of 512 KiB is 100 GB of reads, days of simulation.
# gmsim validate keeps the working set and the 1024-thread blocks and shrinks the chunk to
# 64 KiB and the grid to `blocks` = 3 waves of resident blocks (3 x 2 x SMs): the steady state,
# every resident block streaming a chunk of the working set, is the same, and a warm-up kernel
# (-p blocks = chunks: every chunk read once) stands in for the source's first of 200000 blocks.
# The loads name no register: the source unrolls and sums, no load waits for another.
kernel = "l2_bw";
params = { ws_kb = 4096; chunk_kb = 64; blocks = 648; };
grid   = ( "blocks", 1, 1 );
block  = [ 1024, 1, 1 ];
arrays = (
	{ name = "ws"; elems = "ws_kb * 1024 / 8"; type = "double"; }
);
body = (
	{ op = "loop"; var = "i"; count = "chunk_kb * 1024 / 8 / 1024"; body = (
		{ op = "load"; array = "ws";
		  index = "(bx % (ws_kb / chunk_kb)) * (chunk_kb * 1024 / 8) + i * 1024 + tx"; }
	); }
);
