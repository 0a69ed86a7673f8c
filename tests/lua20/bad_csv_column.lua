-- a type for a column the file does not have
for row in drasim.csv_rows("rows_bad.csv", {types = {gpu = "integer"}}) do end
