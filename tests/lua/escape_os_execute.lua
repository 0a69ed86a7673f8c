os.execute("touch /tmp/drasim-escaped")
