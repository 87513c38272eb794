import CKTestHelpers
import Foundation
import Testing

/// An app whose controller's `didMount` raises on the first mount: the tree is built and
/// mounted whole, and the first mount is a turn (docs/cli.md), so its error is printed and the
/// run goes on with `app` bound (SPEC §9).
private let failingFirstMount = """
    local C = ck.component("C", {scope = true, render = function() return ck.Text{text = "hi"} end})
    ck.controller("CController", {didMount = function() error("didMount fails") end})
    return C
    """

@Suite("An app whose first mount raises")
struct AppFirstMountTests {
    @Test(arguments: [[String](), ["repl"]])
    func theErrorIsPrintedAndTheAppRunsOn(command: [String]) throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", failingFirstMount)
        let r = try Ckrun.run(command + [app.path], stdin: "=app.isMounted, app.generation\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("[callbackFailed] CController.didMount of C raised"), "\(r.stderr)")
        #expect(r.stdout.contains("true\t1"), "app is bound to the mounted host: \(r.stdout)")
    }

    @Test func anAppThatCallsCkRunIsBoundBeforeItsFirstMount() throws {
        let dir = try TemporaryDirectory()
        let app = try dir.write("app.lua", failingFirstMount.replacingOccurrences(
            of: "return C", with: "print(pcall(ck.run, C)); print(app and app.isMounted)"))
        let r = try Ckrun.run([app.path], stdin: "")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("false\t[callbackFailed]"), "\(r.stdout)")
        #expect(r.stdout.contains("\ntrue\n"), "app is bound and mounted: \(r.stdout)")
    }
}
