-- drasim.sleep outside a process
drasim.sleep(5)
