kernel-1.traceg
LaunchKernel foo
