/// Anything on a responder chain.
public enum Responder {
    case component(Component)
    case controller(Controller)
    case view(View)
    case script(ScriptResponder)

    public var object: RuntimeObject {
        switch self {
        case .component(let c): c
        case .controller(let c): c
        case .view(let v): v
        case .script(let s): s
        }
    }

    public var value: Value { .object(object) }

    /// How the chain is printed: `Button`, `CardController`, `HostingView`, `ViewController`.
    public var name: String {
        switch self {
        case .component(let c): c.label
        case .controller(let c): c.controllerClass.shownName
        case .view(let v): v.hostingHost != nil ? "HostingView" : ObjectText.name(v.viewClass)
        case .script(let s): ObjectText.name(s.name)
        }
    }

    public static func from(_ object: RuntimeObject) -> Responder? {
        switch object {
        case let c as Component: .component(c)
        case let c as Controller: .controller(c)
        case let v as View: .view(v)
        case let s as ScriptResponder: .script(s)
        default: nil
        }
    }

    public func isSame(_ other: Responder) -> Bool { object === other.object }
}

/// A host responder (`opts.responders`) or a plain table used as an action target.
public final class ScriptResponder: RuntimeObject {
    public let name: String
    /// Looks a method up by selector each time (the table may change).
    public let lookup: (String) -> Method?
    public let canPerformAction: ((String, Responder?) throws -> Bool?)?
    public let table: Value
    /// The next host responder, for `opts.responders`.
    public internal(set) var next: ScriptResponder?
    /// Its host's serial and its place in `Runtime.hostResponders` while indexed there.
    var placeInIndex: (serial: Int, index: Int)?

    public init(name: String, table: Value, lookup: @escaping (String) -> Method?,
                canPerformAction: ((String, Responder?) throws -> Bool?)? = nil) {
        self.name = name
        self.table = table
        self.lookup = lookup
        self.canPerformAction = canPerformAction
    }

    public override var typeName: String { "responder" }
}
