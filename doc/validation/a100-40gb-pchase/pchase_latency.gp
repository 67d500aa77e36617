set terminal svg size 800,500
set output 'pchase_latency.svg'
set title "pchase_latency: A100-40GB (variant not stated) (A100-40GB)" noenhanced
set ylabel 'cycles'
set key best
set logscale x
plot 'pchase_latency.dat' using 1:2 with linespoints title 'measured', \
     'pchase_latency.dat' using 1:3 with linespoints title 'simulated'
