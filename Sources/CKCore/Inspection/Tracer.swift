/// Records sends for `ck.trace(fn)` and the REPL's `.trace on`.
public final class Tracer {
    public final class Entry: RuntimeObject {
        public let selector: String
        public let sender: Responder?
        public internal(set) var visited: [(responder: Responder, handled: Bool)] = []
        public internal(set) var handler: Responder?

        init(selector: String, sender: Responder?) {
            self.selector = selector
            self.sender = sender
        }

        public override var typeName: String { "TraceEntry" }

        /// `didTap from Button: Button -> Card (handled)`.
        public var line: String {
            let path = visited.map { $0.handled ? "\($0.responder.name) (handled)" : $0.responder.name }
            let tail = handler == nil ? (path.isEmpty ? "nil (unhandled)" : " -> nil (unhandled)") : ""
            return "\(selector) from \(sender?.name ?? "nil"): " + path.joined(separator: " -> ") + tail
        }
    }

    public private(set) var entries: [Entry] = []
    public var onEntry: ((Entry) -> Void)?
    public let parent: Tracer?

    public init(parent: Tracer? = nil) {
        self.parent = parent
    }

    func begin(selector: String, sender: Responder?) -> Entry {
        let e = Entry(selector: selector, sender: sender)
        var t: Tracer? = self
        while let tracer = t {
            tracer.entries.append(e)
            t = tracer.parent
        }
        return e
    }

    func visit(_ entry: Entry?, _ r: Responder, handled: Bool) {
        entry?.visited.append((r, handled))
    }

    func end(_ entry: Entry?, handledBy r: Responder?) {
        guard let entry else { return }
        entry.handler = r
        var t: Tracer? = self
        while let tracer = t {
            tracer.onEntry?(entry)
            t = tracer.parent
        }
    }
}
