-- issue 25, finding 10: drasim.nodes{} in an endless loop (tests/bounds/view-mig.yaml).
while true do drasim.nodes{} end
