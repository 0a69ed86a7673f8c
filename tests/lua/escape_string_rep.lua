local s = string.rep("x", 512 * 1024 * 1024)
