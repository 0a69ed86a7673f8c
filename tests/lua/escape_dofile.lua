assert(dofile == nil and loadfile == nil and debug == nil and package == nil and string.dump == nil)
dofile("/etc/passwd")
