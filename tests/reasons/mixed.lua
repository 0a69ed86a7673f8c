-- tests/reasons/mixed.yaml: group `mixed` waits for GPUs (2 pods) and for CPU (1 pod).
drasim.submit{name = "gpu4-1", group = "mixed", cpu = "1", gpu = {devicePlugin = {["nvidia.com/gpu"] = 4}}, duration = "10m"}
drasim.submit{name = "gpu4-2", group = "mixed", cpu = "1", gpu = {devicePlugin = {["nvidia.com/gpu"] = 4}}, duration = "10m"}
drasim.submit{name = "cpu100", group = "mixed", cpu = "100", duration = "10m"}
drasim.submit{name = "ok-1", group = "ok", cpu = "1", duration = "5m"}
