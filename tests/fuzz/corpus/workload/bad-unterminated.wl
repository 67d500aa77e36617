kernel = "abc;
body = (
