-- issue 25, finding 10: drasim.free_devices{} in an endless loop (tests/bounds/view-mig.yaml).
while true do drasim.free_devices{class = "mig.nvidia.com"} end
