set terminal svg size 800,500
set output 'l2_read_bw.svg'
set title "l2_read_bw: A100-80GB (variant not stated) (A100-SXM4-80GB)" noenhanced
set ylabel 'GB/s'
set key best
set logscale x
plot 'l2_read_bw.dat' using 1:2 with linespoints title 'measured', \
     'l2_read_bw.dat' using 1:3 with linespoints title 'simulated'
