import CKTestHelpers
import Foundation
import Testing

/// The outsider's attack after issue 24, the limits part: text Swift builds for a script (a
/// message quoting a value, `ckrun tree`'s formats) stays within `--memory-limit` and linear in
/// the tree; files ckrun loads itself are regular files; Lua that C runs from Swift mode (`-l`)
/// allocates under the limit. Peaks are read by the script itself (`/proc/self/status`).
@Suite("Swift's text for a script, within its limits")
struct SwiftTextLimitsTests {
    private static let peak = """
        local peak = io.open("/proc/self/status"):read("a"):match("VmHWM:%s*(%d+) kB")
        print("peak " .. peak .. " kB")
        """

    private static func peakKB(_ stdout: String) -> Int {
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("peak ") }) else { return .max }
        return Int(line.split(separator: " ")[1]) ?? .max
    }

    /// B7: a 10 MB name that is not UTF-8 was quoted whole as `\255…` (40 MB built in Swift,
    /// 170 MB of RSS under a 40 MB limit); the message shows 200 bytes and the length.
    @Test func aMessageQuotesAtMostAnExcerpt() throws {
        let r = try Ckrun.run(["--memory-limit", "40", "-e", """
            local s = string.rep("\\255", 10e6)
            local ok, e = pcall(ck.action, s)
            print("message " .. #e)
            assert(e:find("(10000000 bytes)", 1, true), e:sub(1, 300))
            \(Self.peak)
            """], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("message 9"), "\(r.stdout)")
        #expect(Self.peakKB(r.stdout) < 100 * 1024, "\(r.stdout)")
    }

    /// B7, the same class: an unknown prop named by a 4 MB key was compared by edit distance
    /// (8 bytes × its length × the prop's: 378 MB, then `[timeout]` in Swift).
    @Test func aLongUnknownPropIsNotComparedByDistance() throws {
        let r = try Ckrun.run(["--memory-limit", "40", "--timeout", "20", "-e", """
            local k = string.rep("a", 4e6)
            ck.host(function() return ck.Text{text = "x", [k] = 1} end)
            \(Self.peak)
            """], timeout: 60)
        #expect(r.status == 0, "\(r.stderr.prefix(300))")
        #expect(r.stderr.contains("(4000000 bytes)"), "\(r.stderr.prefix(300))")
        #expect(Self.peakKB(r.stdout) < 100 * 1024, "\(r.stdout)")
    }

    /// B8: `ckrun tree --format json|dot` built 75 MB (208 MB of RSS) and printed it under a
    /// 40 MB limit; every format counts what it builds and stops with `[memoryLimit]`.
    @Test(arguments: ["json", "dot", "text"])
    func treeFormatsStopAtTheMemoryLimit(_ format: String) throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("big.lua", """
            local s = string.rep("\\0", 6 * 1024 * 1024)
            return ck.component("L", {scope = true, initialState = function() return {s = s} end,
                                      render = function() return ck.Text{text = s} end})
            """)
        let r = try Ckrun.run(["--memory-limit", "40", "tree", app.path, "--format", format], timeout: 120)
        #expect(r.status == 1)
        #expect(r.stderr.contains("[memoryLimit]"), "\(r.stderr.prefix(300))")
        #expect(r.stdout.utf8.count < 1 << 20)
    }

    /// B21: each node's JSON path was its full path, so the output grew with depth squared
    /// (4,000 levels: 17 MB); past 64 levels a path is its last 64 labels after `…/`.
    @Test func treeJSONIsLinearInDepth() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("deep.lua", """
            local N = tonumber(os.getenv("DEPTH"))
            local A
            A = ck.component("A", {render = function(self, p)
              if p.d < N then return A{d = p.d + 1} end
              return ck.Text{text = "end"}
            end})
            return function() return A{d = 1} end
            """)
        let sizes = try [1000, 2000, 4000].map { depth in
            try Ckrun.run(["tree", app.path, "--format", "json"], environment: ["DEPTH": "\(depth)"], timeout: 120).stdout.utf8.count
        }
        #expect(Double(sizes[2]) / Double(sizes[1]) < 2.2, "\(sizes)")
        #expect(Double(sizes[1]) / Double(sizes[0]) < 2.2, "\(sizes)")
        let deep = try Ckrun.run(["tree", app.path, "--format", "json"], environment: ["DEPTH": "70"]).stdout
        #expect(deep.contains("\"path\": \"…/A/A/"), "\(deep.suffix(400))")
    }

    /// B13: a FIFO given as the app script blocked in open(2) before any limit (`--timeout 2`
    /// never returned); `ckrun tree`'s and `ckrun repl`'s, which read it again, are refused at
    /// once; the script, which lua5.4 reads as it comes, is read under `--timeout` (atk-safety4 03).
    @Test(arguments: [[String](), ["tree"], ["repl"]])
    func aFIFOIsNotLoaded(_ command: [String]) throws {
        let dir = try TemporaryDirectory()
        let fifo = dir.url.appendingPathComponent("pipe.lua").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let r = try Ckrun.run(["--timeout", "2"] + command + [fifo], stdin: "", timeout: 20)
        #expect(r.status == 1)
        if command.isEmpty {
            #expect(r.stderr.contains("[timeout] \(fifo) was still being read when the time limit (--timeout) ran out"), "\(r.stderr)")
            #expect(Date().timeIntervalSince(started) < 8)
        } else {
            #expect(r.stderr.contains("[cannotRead] cannot read \(fifo): a FIFO or socket"), "\(r.stderr)")
        }
    }

    /// B15's class: `-l g=mod` assigned the global under `lua_pcall` from Swift mode, where the
    /// allocator never fails: a `_G.__newindex` filled 546 MB under a 50 MB limit.
    @Test func dashLRunsMetamethodsUnderTheMemoryLimit() throws {
        let r = try Ckrun.run(["--memory-limit", "50",
                               "-e", "setmetatable(_G, {__newindex = function() local x = {} for i = 1, 3e7 do x[i] = i end print('filled') end})",
                               "-l", "g=string", "-e", "print('end')"], timeout: 60)
        #expect(r.status == 1)
        #expect(r.stderr.contains("[memoryLimit]"), "\(r.stderr)")
        #expect(!r.stdout.contains("filled"))
    }
}
