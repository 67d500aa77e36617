set terminal svg size 800,500
set output 'stream_init_bw.svg'
set title "stream_init_bw: A100-80GB (variant not stated) (A100-SXM4-80GB)" noenhanced
set ylabel 'GB/s'
set key best
plot 'stream_init_bw.dat' using 1:2 with linespoints title 'measured', \
     'stream_init_bw.dat' using 1:3 with linespoints title 'simulated'
