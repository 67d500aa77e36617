set terminal svg size 800,500
set output 'l1_cycles_per_warp_load.svg'
set title "l1_cycles_per_warp_load: A100 (variant not stated) (A100-40GB)" noenhanced
set ylabel 'cycles'
set key best
plot 'l1_cycles_per_warp_load.dat' using 1:2 with linespoints title 'measured', \
     'l1_cycles_per_warp_load.dat' using 1:3 with linespoints title 'simulated'
