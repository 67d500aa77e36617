# gmsim plot: l2.hit_rate vs l2.cache.size_kb by kb, from /tmp/out/l2/results.csv. Run `gnuplot l2-hit-rate.gp` in the directory that holds l2-hit-rate.dat.
set terminal svg size 900,540 noenhanced
set output 'l2-hit-rate.svg'
set title 'l2.hit_rate vs l2.cache.size_kb by kb'
set xlabel 'l2.cache.size_kb'
set ylabel 'l2.hit_rate'
set grid
set key outside right top title 'kb'
set datafile missing '?'
plot 'l2-hit-rate.dat' index 0 using 1:2 with linespoints title '2048', \
     '' index 1 using 1:2 with linespoints title '4096', \
     '' index 2 using 1:2 with linespoints title '8192'
