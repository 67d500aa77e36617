set terminal svg size 800,500
set output 'l1_l2_read_bw_per_dataset.svg'
set title "l1_l2_read_bw_per_dataset: V100-PCIe-16GB (V100-PCIe-16GB)" noenhanced
set ylabel 'GB/s'
set key best
set logscale x
plot 'l1_l2_read_bw_per_dataset.dat' using 1:2 with linespoints title 'measured', \
     'l1_l2_read_bw_per_dataset.dat' using 1:3 with linespoints title 'simulated'
