# pchase.wl - pointer-chase latency: one warp follows a random cyclic permutation of the nodes of
# a footprint_bytes buffer, one node every stride_bytes bytes; each load waits for the one
# before, so the time per load is the load-to-use latency of the level holding the footprint.
#
# Mirrors (data/hw/measured.csv):
#   pchase_latency@footprint_kB=K   RRZE-HPC gpu-latency: <<<1,64>>>, random cyclic order over
#       int64 slots 64 B apart, cycles = host time / loads x clock. Its 64 threads all follow
#       the same chain (one address per step), which is one warp's single line request per
#       step here: -p stride_bytes=64 -p footprint_bytes=K*1024.
#   pchase_latency@footprint_bytes=B   markdewing/AI_kernels: <<<1,1>>>, clock64() around
#       dependent int loads over a random permutation of 128-B lines:
#       -p stride_bytes=128 -p threads=1 -p footprint_bytes=B.
# gmsim validate runs this twice as a kernel list (doc/validation.md): a warm-up chase that
# touches the footprint (as the sources' untimed first passes and 7 repetitions do), then the
# measured chase of `loads` loads; the metric is the measured kernel's cycles / loads, the mean
# the sources report (not the p50: at a cache knee the mean mixes hits and misses as the
# hardware curve does).
kernel = "pchase";
params = { footprint_bytes = 1048576; stride_bytes = 64; loads = 4096; threads = 32; start = 0; };
grid   = ( 1, 1, 1 );
block  = ( "threads", 1, 1 );
arrays = (
	{ name = "chain"; elems = "footprint_bytes / stride_bytes"; elem_bytes = "stride_bytes"; }
);
body = (
	{ op = "chase"; array = "chain"; loads = "loads"; order = "random"; start = "start"; reg = "p"; }
);
