MemcpyHtoD,0x0000000010000000,32768
kernel-1.traceg
