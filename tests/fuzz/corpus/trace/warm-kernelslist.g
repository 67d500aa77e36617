MemcpyHtoD,0x0000000010000000,2048
kernel-1.traceg
