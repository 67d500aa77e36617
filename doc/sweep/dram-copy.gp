# gmsim plot: dram.achieved_gbps vs mc.page_policy by mc.scheduler, from /tmp/out/dram/copy.csv. Run `gnuplot dram-copy.gp` in the directory that holds dram-copy.dat.
set terminal svg size 900,540 noenhanced
set output 'dram-copy.svg'
set title 'dram.achieved_gbps vs mc.page_policy by mc.scheduler'
set xlabel 'mc.page_policy'
set ylabel 'dram.achieved_gbps'
set grid
set key outside right top title 'mc.scheduler'
set datafile missing '?'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0:*]
plot 'dram-copy.dat' using 2:xtic(1) title 'frfcfs', \
     '' using 3 title 'fcfs'
