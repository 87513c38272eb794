@testable import CKRunCommands
import Testing

/// The live view at rest: the clock's tick redraws the status row, never the tree (atk-apps3 07:
/// each second's tick painted the whole tree, CPU in proportion to its depth). Counted, not timed.
@Suite("What the live view draws at rest")
struct LivePendingDrawTests {
    @Test func aMinuteOfTicksPaintsTheTreeNever() {
        var draws = PendingDraw()
        draws.changed()
        #expect(draws.take() == .whole)
        for _ in 0..<60 {
            draws.tick()
            #expect(draws.take() == .status)
            #expect(draws.take() == nil, "a tick draws once")
        }
        #expect(draws.wholeDraws == 1)
        #expect(draws.statusDraws == 60)
    }

    @Test func aChangeWithATickDrawsTheWholeScreenOnce() {
        var draws = PendingDraw()
        draws.tick()
        draws.changed()
        #expect(draws.take() == .whole)
        #expect(draws.take() == nil)
        #expect((draws.wholeDraws, draws.statusDraws) == (1, 0))
    }
}
