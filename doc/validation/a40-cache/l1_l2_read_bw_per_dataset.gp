set terminal svg size 800,500
set output 'l1_l2_read_bw_per_dataset.svg'
set title "l1_l2_read_bw_per_dataset: A40 (GA102 GDDR6; proxy for RTX A6000) (A40)" noenhanced
set ylabel 'GB/s'
set key best
set logscale x
plot 'l1_l2_read_bw_per_dataset.dat' using 1:2 with linespoints title 'measured', \
     'l1_l2_read_bw_per_dataset.dat' using 1:3 with linespoints title 'simulated'
