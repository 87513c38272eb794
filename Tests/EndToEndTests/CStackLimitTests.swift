import CKTestHelpers
import Foundation
import Testing

/// Calls from Lua into the runtime nested inside each other end with `[stackLimit]` and the
/// script's file:line, on a 512 KB C stack as on the default one: under `ulimit -s 512` a few
/// dozen host builds nested in renders ended in SIGSEGV, and a handler that sends nested to
/// Lua's own "C stack overflow" (no id).
@Suite("Nested calls into the runtime and the C stack")
struct CStackLimitTests {
    static let scripts: [String: String] = [
        // A render that builds a host whose render builds a host ...
        "hosts_in_renders.lua": """
        local N
        N = ck.component("N", { render = function(self, props)
          ck.host(function() return N{n = props.n + 1} end)
        end })
        ck.host(function() return N{n = 0} end)
        """,
        // A handler that sends to a handler that sends ... (through Swift: a target action).
        "target_sends.lua": """
        local t = {}
        function t.m(self) ck.action(t, "m"):send(nil) end
        ck.action(t, "m"):send(nil)
        """,
        // The same through the C send path (a block action's planned send).
        "block_sends.lua": """
        local a
        a = ck.action(function(sender) a:send(sender) end)
        a:send(nil)
        """,
        // A metamethod that builds a host whose provider reads the metamethod again.
        "metamethod_hosts.lua": """
        local mt = {}
        mt.__index = function() return ck.host(function() return ck.Text{text = tostring(setmetatable({}, mt).x)} end) end
        local _ = setmetatable({}, mt).x
        """,
    ]

    @Test(arguments: ["512", "default"], scripts.keys.sorted())
    func nestedCallsEndWithStackLimit(_ stack: String, _ name: String) throws {
        let dir = try TemporaryDirectory()
        let script = try dir.write(name, Self.scripts[name]!)
        let limit = stack == "default" ? "" : "ulimit -s \(stack) && "
        let r = try Ckrun.runProcess(URL(fileURLWithPath: "/bin/bash"),
                                     ["-c", "\(limit)exec \"$0\" \"$1\"", Ckrun.executableURL.path, script.path], timeout: 60)
        #expect(r.status == 1, "\(stack) \(name): status \(r.status)\n\(r.stderr.prefix(600))")
        let stackLimit = try Regex("\\[stackLimit\\] [^ ]*\(name):[0-9]+: ")
        #expect(r.stderr.contains(stackLimit), "\(stack) \(name):\n\(r.stderr.prefix(600))")
    }
}
