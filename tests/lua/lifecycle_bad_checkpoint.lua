-- drasim.submit with a checkpoint but no owner job (tests/lua26.cmake).
drasim.submit{name = "x", cpu = "1", memory = "1Gi", duration = "1h", checkpoint = "1h"}
