kernel = "k"; grid = (1,1,1); block = [32,1,1];
arrays = ({ name = "a"; elems = "1024"; type = "float"; });
body = ({ op = "loop"; var = "i"; count = "1 << 62"; body = ({ op = "load"; array = "a"; index = "i * tx"; reg = "v"; }); });
