import CKCore
import CLua
import CLuaShims

/// `--sandbox`: removes what runs programs, loads C code or writes files.
enum Sandbox {
    static func apply(to lua: LuaState) {
        let message = Catalogue.sandbox.message("%s is not allowed under --sandbox")
        let script = """
        local message, names = ...
        local function deny(name) return function() error(string.format(message, name), 2) end end
        os.execute = deny("os.execute")
        io.popen = deny("io.popen")
        os.remove = deny("os.remove")
        os.rename = deny("os.rename")
        os.tmpname = deny("os.tmpname")
        package.loadlib = deny("package.loadlib")
        package.cpath = ""
        local searchers = package.searchers
        searchers[3], searchers[4] = nil, nil
        local open = io.open
        io.open = function(path, mode)
          mode = mode or "r"
          if not string.find(mode, "^r") or string.find(mode, "+", 1, true) then
            error(string.format(message, "io.open in mode '" .. mode .. "'"), 2)
          end
          return open(path, mode)
        end
        io.output = deny("io.output")
        io.tmpfile = deny("io.tmpfile")
        """
        do {
            try lua.load(script, name: "=(sandbox)")
            lua.push(message)
            try lua.call(arguments: 1, results: 0)
        } catch {
            fatalError("ckrun: the sandbox failed to install: \(error)")
        }
    }
}
