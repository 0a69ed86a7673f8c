local os = require "os" os.execute("true")
