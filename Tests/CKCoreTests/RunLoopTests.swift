import CKCore
import Testing

@Suite("The run loop's timers: ordered by due time then creation, at O(log N) each")
struct RunLoopTests {
    private func firedOrder(_ loop: RunLoop) throws -> [Int] {
        var order: [Int] = []
        while let timer = loop.popNext() { order.append(timer.id) }
        return order
    }

    @Test func timersFireByDueTimeThenByCreation() throws {
        let loop = RunLoop()
        let dues: [Double] = [3, 1, 2, 1, 0, 3, 2, 0.5, 1]
        for due in dues { loop.after(due) {} }
        let expected = dues.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map { $0.offset + 1 }
        #expect(try firedOrder(loop) == expected)
        #expect(loop.now == 3)
    }

    @Test func cancellingLeavesTheOthersInOrderAndCountsPendingOnes() throws {
        let loop = RunLoop()
        for i in 0..<100 { loop.after(Double((i * 37) % 11)) {} }
        for id in stride(from: 1, through: 100, by: 3) { loop.cancel(id) }
        loop.cancel(1)
        loop.cancel(1000)
        #expect(loop.pendingTimers == 66)
        let order = try firedOrder(loop)
        #expect(order.count == 66 && order.allSatisfy { ($0 - 1) % 3 != 0 })
        let dues = order.map { Double((($0 - 1) * 37) % 11) }
        #expect(dues == dues.sorted())
        #expect(loop.pendingTimers == 0 && loop.next == nil)
    }

    @Test func rewindAndCancellingTheNewerTimersKeepTheRest() throws {
        let loop = RunLoop()
        loop.after(5) {}
        loop.after(2) {}
        _ = loop.popNext()
        loop.rewind()
        #expect(loop.now == 0 && loop.nextDue == 3)
        let mark = loop.lastID
        loop.after(1) {}
        loop.after(0) {}
        loop.cancelTimers(ownedAfter: mark)
        #expect(loop.pendingTimers == 1 && loop.next?.id == 1)
    }

    @Test func aHundredThousandTimersSetAndFiredInOrder() throws {
        let loop = RunLoop()
        var seed: UInt64 = 7
        for _ in 0..<100_000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            loop.after(Double(seed >> 44)) {}
        }
        var last = -1.0
        var count = 0
        var ordered = true
        while let timer = loop.popNext() {
            ordered = ordered && timer.due >= last
            last = timer.due
            count += 1
        }
        #expect(ordered && count == 100_000)
    }
}
