set terminal svg size 800,500
set output 'l1_load_bytes_per_cycle_per_SM.svg'
set title "l1_load_bytes_per_cycle_per_SM: A100 (variant not stated) (A100-40GB)" noenhanced
set ylabel 'B/cycle/SM'
set key best
plot 'l1_load_bytes_per_cycle_per_SM.dat' using 1:2 with linespoints title 'measured', \
     'l1_load_bytes_per_cycle_per_SM.dat' using 1:3 with linespoints title 'simulated'
