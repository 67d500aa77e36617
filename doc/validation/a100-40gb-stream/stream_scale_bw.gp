set terminal svg size 800,500
set output 'stream_scale_bw.svg'
set title "stream_scale_bw: A100-40GB (variant not stated) (A100-40GB)" noenhanced
set ylabel 'GB/s'
set key best
plot 'stream_scale_bw.dat' using 1:2 with linespoints title 'measured', \
     'stream_scale_bw.dat' using 1:3 with linespoints title 'simulated'
