-- A module required from the script's directory.
return {answer = 42}
