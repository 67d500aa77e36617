# gmsim plot: coal.efficiency vs stride by config, from /tmp/out/stride/results.csv. Run `gnuplot stride-efficiency.gp` in the directory that holds stride-efficiency.dat.
set terminal svg size 900,540 noenhanced
set output 'stride-efficiency.svg'
set title 'coal.efficiency vs stride by config'
set xlabel 'stride'
set ylabel 'coal.efficiency'
set grid
set key outside right top title 'config'
set datafile missing '?'
plot 'stride-efficiency.dat' index 0 using 1:2 with linespoints title 'configs/t4.cfg', \
     '' index 1 using 1:2 with linespoints title 'configs/a100-80gb.cfg'
