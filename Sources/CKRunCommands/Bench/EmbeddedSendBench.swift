import CKRuntime

/// `ckrun bench --embedded-send N@MODE`, for callgrind (scripts/bench): N typed sends from Swift
/// through the CKRuntime library's public API (`send`: `host.send` of a scope action typed
/// {"int", "number"}), or N calls of a plain Lua function through the same API (`call`), doing
/// the handler's work. scripts/bench subtracts the run of 0 from the run of N.
enum EmbeddedSendBench {
    static let source = """
        sink = 0
        return ck.component("T", {scope = true, hit = function(self, sender, a, b) sink = a + b end})
        """

    /// `N@send` or `N@call` as (N, whether to send); nil for anything else.
    static func parse(_ spec: String) -> (count: Int, sends: Bool)? {
        let parts = spec.split(separator: "@")
        guard parts.count == 2, let n = Int(parts[0]), n >= 0, ["send", "call"].contains(parts[1]) else { return nil }
        return (n, parts[1] == "send")
    }

    static func run(count n: Int, sends: Bool) throws {
        let runtime = try Runtime()
        let component = try runtime.load(string: source, name: "embedded-send")
        let host = try runtime.mount(component)
        let direct = try runtime.load(string: "return function(a, b) sink = a + b end", name: "direct")
        for i in 0..<n {
            if sends {
                try host.send("hit", types: ["int", "number"], to: .scope("T"), arguments: [.int(i), 2.0])
            } else {
                try direct.call([.int(i), 2.0])
            }
        }
    }

}
