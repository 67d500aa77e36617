# a list closed with the wrong bracket
kernel = "k";
grid = [ 4, 1, 1 );
