-- a claim whose selector does not compile is an error of drasim.submit at this line
drasim.submit{cpu = "1", duration = "1m", gpu = {dra = {claims = {drasim.claim{selector = "1 +"}}}}}
