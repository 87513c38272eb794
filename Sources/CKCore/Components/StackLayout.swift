/// How `ck.Stack` lays out its children (ComponentKit's stack layout: `CKFlexboxComponent`'s
/// style): the direction, the space between children, where they sit across the direction and
/// along it. A screen-less runtime only keeps and checks the props; a live view (`--tui`)
/// reads them to place the stack's views.
public struct StackLayout: Equatable, Sendable {
    public enum Direction: String, CaseIterable, Sendable { case vertical, horizontal }
    /// Across the direction (`alignItems`): stretched to the stack's size, at the start,
    /// centred, or at the end. Stretch first: it is the default, as in `CKFlexboxComponent`
    /// (`CKFlexboxAlignItemsStretch` leads its enum), CSS and Yoga.
    public enum Alignment: String, CaseIterable, Sendable { case stretch, start, center, end }
    /// Along the direction (`justifyContent`); `spaceBetween` spreads the room left over
    /// between the children.
    public enum Justification: String, CaseIterable, Sendable { case start, center, end, spaceBetween }

    // The defaults, declared here only: each is its enum's first case (`props` says so).
    public var direction = Direction.vertical
    /// Cells between neighbours (rows in a vertical stack, columns in a horizontal one).
    public var spacing = 0
    public var alignItems = Alignment.stretch
    public var justifyContent = Justification.start

    /// A layout with the given props, the defaults for those not given.
    public init(direction: Direction? = nil, spacing: Int? = nil, alignItems: Alignment? = nil,
                justifyContent: Justification? = nil) {
        if let direction { self.direction = direction }
        if let spacing { self.spacing = spacing }
        if let alignItems { self.alignItems = alignItems }
        if let justifyContent { self.justifyContent = justifyContent }
    }

    /// The props read, each with its type as types/ck.lua writes it (LuaLS) and one line of doc.
    /// Literals, not built from the enums' cases: this runs at every start-up, and building the
    /// lists cost 0.05M instructions (`StackLayoutDocTests` holds them to the cases).
    public static let props: [(name: String, stubType: String, doc: String)] = [
        ("direction", #""vertical"|"horizontal""#,
         #"how the children follow each other: `"vertical"`, `"horizontal"` (the first is the default)"#),
        ("spacing", "integer", "cells between neighbouring children: an integer from 0 to 1000, default 0"),
        ("alignItems", #""stretch"|"start"|"center"|"end""#,
         #"where the children sit across the direction: `"stretch"`, `"start"`, `"center"`, `"end"` (the first is the default, as in ComponentKit's stack layout and CSS: a row in a column is as wide as the column)"#),
        ("justifyContent", #""start"|"center"|"end"|"spaceBetween""#,
         #"where the children sit along the direction: `"start"`, `"center"`, `"end"`, `"spaceBetween"` (the first is the default; `spaceBetween` spreads the room left over between them)"#),
    ]

    /// Spacing beyond this is refused (a terminal is a few hundred cells wide).
    public static let spacingLimit = 1000

    /// Reads the props through `prop` (a raw read); nil props keep the defaults. A value of the
    /// wrong type or out of range is `[badArgument]` naming the prop and the values it takes.
    public init(of builtin: String = "Stack", prop: (String) -> Value) throws {
        if let v: Direction = try Self.choice(prop("direction"), "direction", of: builtin) { direction = v }
        if let v: Alignment = try Self.choice(prop("alignItems"), "alignItems", of: builtin) { alignItems = v }
        if let v: Justification = try Self.choice(prop("justifyContent"), "justifyContent", of: builtin) { justifyContent = v }
        switch prop("spacing") {
        case .nil: break
        case .int(let n) where n >= 0 && n <= Self.spacingLimit: spacing = Int(n)
        case .number(let n) where n >= 0 && n <= Double(Self.spacingLimit) && n.rounded() == n: spacing = Int(n)
        case let v:
            throw RuntimeError(.badArgument, "ck.\(builtin){spacing = …} must be an integer from 0 to \(Self.spacingLimit), got \(Self.shown(v))")
        }
    }

    private static func choice<T: RawRepresentable & CaseIterable>(_ v: Value, _ name: String, of builtin: String) throws -> T?
    where T.RawValue == String {
        if v.isNil { return nil }
        if case .string(let s) = v, let choice = T(rawValue: s) { return choice }
        let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")   // bounded: cut above
        throw RuntimeError(.badArgument, "ck.\(builtin){\(name) = …} must be one of \(names), got \(shown(v))")
    }

    /// A wrong value as the message shows it: a string quoted, a number as it is, else its type.
    public static func shown(_ v: Value) -> String {
        switch v {
        case .string(let s): "\"\(s.prefix(40))\""   // bounded: cut above
        case .int(let n): "\(n)"
        case .number(let n): NumberText.text(n)
        default: v.typeName
        }
    }
}
