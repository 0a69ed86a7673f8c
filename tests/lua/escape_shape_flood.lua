-- Every distinct demand makes a scheduler class: their number is capped.
local i = 0
while true do
  i = i + 1
  drasim.submit{cpu = i .. "m", duration = 1}
end
