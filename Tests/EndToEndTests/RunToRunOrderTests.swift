import CKTestHelpers
import Foundation
import Testing

/// One script prints the same in every process (the outsider's attack on ComponentKit
/// semantics, break 08): what comes in the order of a hashed collection (Swift's hashing is
/// seeded per process, Lua's table traversal too) is put in a declared order first: scopes
/// leaving and on destroy in tree order, hosts at flush in the order made, warnings about
/// a definition's keys or a built-in's props by name.
@Suite struct RunToRunOrderTests {
    static let script = """
        local log = {}
        ck.controller("RowController", {invalidateController = function(self) log[#log + 1] = self.component.props.id end})
        local Row
        Row = ck.component("Row", {scope = function(p) return p.id end,
          render = function(self, p) if p.id < 100 then return Row{id = p.id * 100 + 1} end end})
        local n = 8
        local h = ck.host(function() local ch = {} for i = 1, n do ch[i] = Row{id = i} end return ck.Stack{children = ch} end)
        h:mount(); n = 0; h:update(nil)
        print("left: " .. table.concat(log, " ")); log = {}
        n = 8; h:update(nil); h:destroy()
        print("destroy: " .. table.concat(log, " ")); log = {}
        local Leaf = ck.component("Leaf", {scope = true, initialState = 0, render = function(self, p) log[#log + 1] = p.n end})
        local hosts = {}
        for i = 1, 8 do hosts[i] = ck.host(function() return Leaf{n = i} end); hosts[i]:mount() end
        log = {}
        for i = 8, 1, -1 do hosts[i].root:updateState(1) end
        ck.flush()
        print("flush: " .. table.concat(log, " "))
        ck.component("Misnamed", {componentDidMount = function() end, componentWillUnmount = function() end,
          shouldComponentUpdate = function() end, getInitialState = function() end, intialState = 1, rendr = function() end})
        ck.host(function() return ck.Text{text = "x", colour = 1, fnt = 2, alpha = 3, size = 4, tag = 5} end)
        """

    @Test func aScriptPrintsTheSameInEveryProcess() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.write("order.lua", Self.script)
        let runs = try (1...4).map { _ in try Ckrun.run([file.path]) }
        for r in runs { #expect(r.status == 0, "\(r.stderr)") }
        let first = runs[0]
        #expect(first.stdout.contains("left: 1 101 2 201 3 301 4 401 5 501 6 601 7 701 8 801\n"), "\(first.stdout)")
        #expect(first.stdout.contains("destroy: 1 101 2 201 3 301 4 401 5 501 6 601 7 701 8 801\n"), "\(first.stdout)")
        #expect(first.stdout.contains("flush: 1 2 3 4 5 6 7 8\n"), "\(first.stdout)")
        for r in runs.dropFirst() {
            #expect(r.stdout == first.stdout)
            #expect(r.stderr == first.stderr)
        }
    }
}
