-- fields.lua: the Lua generator of tests/docs/fields-device-plugin.yaml:
-- drasim.args.rate CPU pods at time 0.
for _ = 1, drasim.args.rate do
  drasim.submit{group = "lua", cpu = "1", memory = "1Gi", duration = "15m",
                tolerations = {{key = "nvidia.com/gpu", operator = "Exists", effect = "NoSchedule"}}}
end
