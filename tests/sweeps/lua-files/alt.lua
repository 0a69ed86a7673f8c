-- The second point's generator: reads alt.csv at 10 min (lua-files/scenario.yaml).
drasim.at("10m", function()
  for row in drasim.csv_rows("alt.csv") do
    drasim.submit{cpu = "1", memory = "1Gi", duration = "5m"}
  end
end)
