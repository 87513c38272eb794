@testable import CKRunCommands
import Foundation
import Testing

/// The side panel wraps what fits, not the whole of a line: a 60,000-deep tree's focused path
/// (400,000 characters) was wrapped whole, quadratically, before a screenful was kept, and the
/// live view drew nothing for minutes (the outsider's apps attack, 10).
@Suite("The side panel's bounds")
struct SidePanelBoundsTests {
    @Test func aLineLongerThanThePanelIsCutToItsRowsWithAnEllipsis() {
        let path = Array(repeating: "Node/View", count: 50_000).joined(separator: "/")
        let rows = SidePanel.wrap([(path, .dim)], 30, rows: 6)
        #expect(rows.count <= 6, "\(rows.count) rows")
        #expect(rows.last?.text.hasSuffix("…") == true)
        #expect(rows.allSatisfy { Cells.width($0.text) <= 30 })
    }

    @Test func aShortLineIsWrappedWhole() {
        let rows = SidePanel.wrap([("Deep/Node/View/Node/View/Button", .dim)], 12, rows: 6)
        #expect(rows.map(\.text).joined().replacingOccurrences(of: " ", with: "") == "Deep/Node/View/Node/View/Button")
    }
}
