-- an unknown DeviceClass
local n = drasim.free_devices{class = "nope.example.com"}
