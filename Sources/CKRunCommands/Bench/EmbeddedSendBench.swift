import CKRuntime

/// `ckrun bench --embedded-send N@MODE`, for callgrind (scripts/bench): N typed sends from Swift
/// through the CKRuntime library's public API of a scope action typed {"int", "number"} (`send`:
/// `host.send`, which finds the component and makes the action each time; `action`: one
/// `host.action` sent N times), or N calls of a plain Lua function doing the handler's work
/// through the same API (`call`). scripts/bench subtracts the run of 0 from the run of N.
enum EmbeddedSendBench {
    static let source = """
        sink = 0
        return ck.component("T", {scope = true, hit = function(self, sender, a, b) sink = a + b end})
        """

    /// `N@send` or `N@call` as (N, whether to send); nil for anything else.
    static func parse(_ spec: String) -> (count: Int, mode: String)? {
        let parts = spec.split(separator: "@")
        guard parts.count == 2, let n = Int(parts[0]), n >= 0, ["send", "action", "call"].contains(parts[1]) else { return nil }
        return (n, String(parts[1]))
    }

    static func run(count n: Int, mode: String) throws {
        let runtime = try Runtime()
        let host = try runtime.mount(try runtime.load(string: source, name: "embedded-send"))
        let direct = try runtime.load(string: "return function(a, b) sink = a + b end", name: "direct")
        let action = try host.action("hit", types: ["int", "number"], to: .scope("T"))
        for i in 0..<n {
            switch mode {
            case "send": try host.send("hit", types: ["int", "number"], to: .scope("T"), arguments: [.int(i), 2.0])
            case "action": try action.send([.int(i), 2.0])
            default: try direct.call([.int(i), 2.0])
            }
        }
    }

}
