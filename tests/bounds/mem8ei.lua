-- issue 25, finding 15: a pod of 8Ei memory (2^63 bytes: one more than int64 holds).
drasim.submit{cpu = "1", memory = "8Ei", duration = 10}
