set terminal svg size 800,500
set output 'l1_cycles_per_warp_load.svg'
set title "l1_cycles_per_warp_load: A40 (GA102 GDDR6; proxy for RTX A6000) (A40)" noenhanced
set ylabel 'cycles'
set key best
plot 'l1_cycles_per_warp_load.dat' using 1:2 with linespoints title 'measured', \
     'l1_cycles_per_warp_load.dat' using 1:3 with linespoints title 'simulated'
