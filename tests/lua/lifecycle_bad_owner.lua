-- drasim.submit with an owner that is not none, job or service (tests/lua26.cmake).
drasim.submit{name = "x", cpu = "1", memory = "1Gi", duration = "1h", owner = "boss"}
