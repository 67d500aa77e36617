# gmsim plot: dram.achieved_gbps vs stride by config, from /tmp/out/stride/results.csv. Run `gnuplot stride-dram.gp` in the directory that holds stride-dram.dat.
set terminal svg size 900,540 noenhanced
set output 'stride-dram.svg'
set title 'dram.achieved_gbps vs stride by config'
set xlabel 'stride'
set ylabel 'dram.achieved_gbps'
set grid
set key outside right top title 'config'
set datafile missing '?'
plot 'stride-dram.dat' index 0 using 1:2 with linespoints title 'configs/t4.cfg', \
     '' index 1 using 1:2 with linespoints title 'configs/a100-80gb.cfg'
