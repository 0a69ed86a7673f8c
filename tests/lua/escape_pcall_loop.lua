-- Catching the instruction-limit error with pcall must not let the loop go on.
while true do pcall(function() while true do end end) end
