local f = io.open("/etc/passwd") print(f:read("a"))
