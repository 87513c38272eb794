@testable import CKRunCommands
import Foundation
import Testing

/// `--watch`'s refusals say which limit struck and what to do; the REPL's history lines read
/// as libedit wrote them.
@Suite("Watch refusals and history lines")
struct WatchAndHistoryFilesTests {
    // The data attack's break 19: EMFILE was "[usage] --watch: inotify is not available here".
    @Test func aWatchRefusedForTheInstanceLimitSaysSoAndWhatToDo() {
        let message = WatchRefusal.message(EMFILE, watching: "the test files")
        #expect(message.hasPrefix("[cannotWatch] --watch cannot watch the test files: "))
        #expect(message.contains("max_user_instances"))
        #expect(WatchRefusal.message(ENOSPC, watching: "x").contains("max_user_watches"))
    }

    // libedit's strvis (VIS_WHITE): spaces, tabs, newlines and controls octal, backslash doubled.
    @Test(arguments: [("a = 1", "a\\040=\\0401"), ("f(\"x\\n\")", "f(\"x\\\\n\")"), ("line\nnext\tz", "line\\012next\\011z"), ("é", "é")])
    func anEntryIsWrittenAsLibeditWritesIt(entry: String, line: String) {
        #expect(HistoryFile.encoded(entry) == Array(line.utf8))
    }
}
