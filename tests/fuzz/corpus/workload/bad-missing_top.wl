# no kernel, no body
grid = [ 1 ];
bloc = [ 32 ];
