it("bg", function() os.execute("sleep 60 2>/dev/null &") end)
