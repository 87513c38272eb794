/// A host responder written in Swift: it comes after the hosting view on every responder chain
/// of the hosts it is given to (SPEC §5's `opts.responders`), and handles the selectors it has
/// a handler for.
///
/// ```swift
/// var controller = HostResponder(name: "ViewController")
/// controller.on("didPick") { call in print(call[0].intValue ?? 0) }
/// ```
public struct HostResponder {
    /// A handler: gets the action's arguments; what it throws reaches the sender as the
    /// handler's error. The host it is mounted with keeps it, and what it captures, until the
    /// host is destroyed or dropped: it may capture the runtime; capture the host `weak`.
    public typealias Handler = (ActionCall) throws -> Void

    /// The name the responder chain prints (`ViewController`).
    public let name: String
    private(set) var handlers: [(selector: String, handler: Handler)] = []

    /// A responder named `name` with no handlers yet.
    public init(name: String) { self.name = name }

    /// Handles `selector` with `handler` (a later handler for the same selector replaces it).
    public mutating func on(_ selector: String, _ handler: @escaping Handler) {
        handlers.removeAll { $0.selector == selector }
        handlers.append((selector, handler))
    }

    /// Handles `selector` whose first argument decodes as `type` (a struct argument as a
    /// `Decodable` struct).
    public mutating func on<T: Decodable>(_ selector: String, _ type: T.Type, _ handler: @escaping (T) throws -> Void) {
        on(selector) { call in try handler(try call.argument(0, as: T.self)) }
    }
}
