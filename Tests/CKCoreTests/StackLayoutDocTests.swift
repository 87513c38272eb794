@testable import CKCore
import Testing

/// `StackLayout.props` are literals (start-up builds no lists): each names exactly its enum's
/// cases, in order, and the spacing limit the layout enforces.
@Suite("StackLayout's prop docs name the enums' cases")
struct StackLayoutDocTests {
    private func listed<T: CaseIterable & RawRepresentable>(_: T.Type, _ open: String, _ close: String,
                                                            _ separator: String) -> String where T.RawValue == String {
        T.allCases.map { open + $0.rawValue + close }.joined(separator: separator)
    }

    private func prop(_ name: String) -> (stubType: String, doc: String)? {
        StackLayout.props.first { $0.name == name }.map { ($0.stubType, $0.doc) }
    }

    @Test func theChoicesAreTheCases() throws {
        let cases = [("direction", listed(StackLayout.Direction.self, "\"", "\"", "|"), listed(StackLayout.Direction.self, "`\"", "\"`", ", ")),
                     ("alignItems", listed(StackLayout.Alignment.self, "\"", "\"", "|"), listed(StackLayout.Alignment.self, "`\"", "\"`", ", ")),
                     ("justifyContent", listed(StackLayout.Justification.self, "\"", "\"", "|"), listed(StackLayout.Justification.self, "`\"", "\"`", ", "))]
        for (name, stubType, choices) in cases {
            let declared = try #require(prop(name))
            #expect(declared.stubType == stubType)
            #expect(declared.doc.contains(": " + choices + " (the first is the default"))
        }
    }

    /// "The first is the default" holds: a layout with no props takes each enum's first case;
    /// alignItems is stretch, as `CKFlexboxComponent`'s default style (attack atk-apps2 07).
    @Test func theDefaultsAreTheFirstCases() {
        let none = StackLayout()
        #expect(none.direction == StackLayout.Direction.allCases.first)
        #expect(none.alignItems == StackLayout.Alignment.allCases.first)
        #expect(none.justifyContent == StackLayout.Justification.allCases.first)
        #expect(none.alignItems == .stretch)
        #expect((try? StackLayout { _ in .nil }) == none)
    }

    @Test func theSpacingLimitIsTheOneEnforced() throws {
        let spacing = try #require(prop("spacing"))
        #expect(spacing.doc.contains("from 0 to \(StackLayout.spacingLimit),"))
        #expect(StackLayout.props.map(\.name) == ["direction", "spacing", "alignItems", "justifyContent"])
    }
}
