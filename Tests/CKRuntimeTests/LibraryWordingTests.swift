import CKRuntime
import Testing

/// Attack lib 14, lib2 11: errors from Swift calls pointed at the library's own Lua,
/// `(CKRuntime glue):57:`, and gave the command line's remedies (`ck.host`, `--memory-limit`).
@Suite("Errors speak to the Swift program")
struct LibraryWordingTests {
    let runtime: Runtime
    let host: ComponentHost

    init() throws {
        runtime = try Runtime(.init(memoryLimitMegabytes: 8))
        let app = try runtime.load(string: """
            return ck.component("List", {scope = true, render = function() return ck.Text{text = "x"} end,
              bump = function(self, sender, n) end})
            """, name: "list.lua")
        host = try runtime.mount(app)
    }

    func expectWordedForSwift(_ error: ScriptError?) {
        #expect(error?.message.contains("CKRuntime glue") == false, "\(error?.message ?? "")")
        #expect(error?.traceback.contains("CKRuntime glue") == false, "\(error?.traceback ?? "")")
        #expect(error?.message.contains("ck.host") == false, "\(error?.message ?? "")")
        #expect(error?.message.contains("--memory-limit") == false, "\(error?.message ?? "")")
    }

    @Test func aBadArgumentNamesTheSendNotTheGlue() throws {
        let error = #expect(throws: ScriptError.self) { try host.send("bump", types: ["int"], to: .scope("List"), arguments: ["one"]) }
        #expect(error?.id == .badArgument)
        expectWordedForSwift(error)
    }

    @Test func aDestroyedHostSaysHowToMakeAnother() throws {
        try host.destroy()
        let error = #expect(throws: ScriptError.self) { try host.tap("List") }
        #expect(error?.id == .hostDestroyed)
        #expect(error?.message.contains("runtime.mount") == true, "\(error?.message ?? "")")
        expectWordedForSwift(error)
    }

    @Test func theMemoryLimitNamesTheConfiguration() throws {
        let error = #expect(throws: ScriptError.self) { try runtime.load(string: "local t = {} while true do t[#t+1] = {} end", name: "hog.lua") }
        #expect(error?.id == .memoryLimit)
        #expect(error?.message.contains("Configuration.memoryLimitMegabytes") == true, "\(error?.message ?? "")")
        expectWordedForSwift(error)
    }
}
