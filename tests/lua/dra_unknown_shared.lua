-- A Lua pod naming a shared claim the scenario does not define is an error.
drasim.submit{name = "nb", cpu = "1", duration = "10m",
  gpu = {dra = {claims = {{name = "gpu", resourceClaimName = "nope"}}}}}
