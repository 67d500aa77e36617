MemcpyHtoD,0x10000000,4096
MemcpyHtoD,0xfffffffffffffffffffff,1
kernel-1.traceg
MemcpyHtoD,0x,
kernel-2.traceg.xz
