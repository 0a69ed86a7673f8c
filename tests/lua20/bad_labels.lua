-- a label value that is not valid Kubernetes syntax: an error at this line
drasim.submit{cpu = "1", duration = "1m", labels = {app = "not valid!"}}
