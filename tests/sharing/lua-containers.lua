-- A pod with a GPU sidecar (restartPolicy Always) and a usage profile (tests/sharing.cmake).
drasim.submit{name = "p", group = "side", duration = "10s",
  initContainers = {{name = "sc", restartPolicy = "Always", resources = {requests = {cpu = "1", ["nvidia.com/gpu"] = 1}}}},
  containers = {{name = "app", resources = {requests = {cpu = "2", ["nvidia.com/gpu"] = 1}}}},
  usage = {busy = 0.5}}
