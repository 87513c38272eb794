import CKTestHelpers
import Foundation
import Testing

/// Issue 24, class 5, measured on a process of its own (its peak resident size): what a state
/// holds outside Lua's count stays near the limit.
@Suite("What a limited test file's process holds")
struct MemoryLimitProcessTests {
    static let peak = """
        local peak = io.open("/proc/self/status"):read("a"):match("VmHWM:%s*(%d+) kB")
        print("peak " .. peak .. " kB")
        assert(tonumber(peak) < 160 * 1024, "the process peaked at " .. peak .. " kB")
        """

    /// A test file's state kept the blocks it freed on its size-class pools, and each class's
    /// peak added up (about 400 MB under a 32 MB limit). A state with a limit takes no pools.
    @Test func freedBlocksOfEverySizeClassAreNotKept() throws {
        let dir = try TemporaryDirectory()
        try dir.write("spec/classes_spec.lua", """
            describe("size classes", function()
              it("fills and frees each in turn", function()
                for size = 32, 480, 16 do
                  local t, s = {}, string.rep("x", size - 30)
                  for i = 1, (16 * 1024 * 1024) // (size + 32) do t[i] = s .. i end
                  t = nil
                  collectgarbage()
                end
                \(Self.peak)
              end)
            end)
            """)
        let r = try Ckrun.run(["test", "--memory-limit", "32", "--timeout", "60", "--jobs", "1", "spec"], directory: dir.url, timeout: 120)
        #expect(r.status == 0, "\(r.stdout)")
    }

    /// One 1 MB Lua string queued 800 times, or kept as the state of 800 scopes: Swift kept a
    /// copy each (800 MB under a 32 MB limit). A long string stays the Lua string.
    @Test(arguments: [
        "for i = 1, 800 do host.root:updateState(s) end",
        "local Leaf = ck.component('Leaf', {scope = function(p) return p.i end, initialState = function() return s end}) "
            + "ck.host(function() local c = {} for i = 1, 800 do c[i] = Leaf{i = i} end return ck.Stack{children = c} end):mount()",
    ])
    func aLongStringKeptManyTimesIsOneString(_ keep: String) throws {
        let r = try Ckrun.run(["--memory-limit", "32", "-e", """
            local C = ck.component("Queued", {scope = true, initialState = ""})
            host = ck.host(function() return C{} end)
            host:mount()
            local s = string.rep("x", 1 << 20)
            \(keep)
            \(Self.peak)
            """], timeout: 60)
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
    }
}
