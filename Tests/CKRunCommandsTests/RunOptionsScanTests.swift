@testable import CKRunCommands
import Testing

/// `ckrun FILE ... --clock X`: ckrun's run options may follow the script, which sees them too.
@Suite("Run options after the script")
struct RunOptionsScanTests {
    @Test(arguments: [["--clock", "bogus"], ["--clock=bogus"], ["--clock"]])
    func aClockValueNeitherModeIsAUsageNoteAndTheDefaultRuns(words: [String]) {
        let options = InteractiveRun.Options.scan(words)
        #expect(options.clock == nil)
        #expect(options.problem?.hasPrefix("[usage] --clock takes wall or virtual") == true)
    }

    @Test func aClockValueThatIsAModeIsTaken() {
        #expect(InteractiveRun.Options.scan(["x", "--clock", "virtual"]).clock == .virtual)
        #expect(InteractiveRun.Options.scan(["--clock=wall"]).problem == nil)
    }
}
