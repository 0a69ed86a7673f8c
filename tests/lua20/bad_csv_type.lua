-- a cell that does not parse as its declared type: FILE:LINE, the column, and this line
for row in drasim.csv_rows("rows_bad.csv", {types = {gpus = "integer"}}) do end
