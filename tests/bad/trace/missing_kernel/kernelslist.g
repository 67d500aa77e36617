kernel-1.traceg
kernel-7.traceg
