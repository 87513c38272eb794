/// Records sends for `ck.trace(fn)` and the REPL's `.trace on`.
public final class Tracer {
    public final class Entry: RuntimeObject {
        public let selector: String
        public let sender: Responder?
        public internal(set) var visited: [(responder: Responder, handled: Bool)] = []
        public internal(set) var handler: Responder?
        var ended = false

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
    /// Called with each finished send. Nested sends are delivered outer-first: the entries
    /// begun inside a send wait until the outermost one ends, then go in the order they began.
    public var onEntry: ((Entry) -> Void)?
    public let parent: Tracer?
    /// Sends begun and not yet ended, and the entries waiting for the outermost to end.
    private var open = 0
    private var waiting: [Entry] = []
    /// Keep `entries` (ck.trace); a tracer that only calls `onEntry` keeps nothing.
    public var keepsEntries = true

    public init(parent: Tracer? = nil) {
        self.parent = parent
    }

    func begin(selector: String, sender: Responder?) -> Entry {
        let e = Entry(selector: selector, sender: sender)
        var t: Tracer? = self
        while let tracer = t {
            if tracer.keepsEntries { tracer.entries.append(e) }
            if tracer.onEntry != nil {
                tracer.open += 1
                tracer.waiting.append(e)
            }
            t = tracer.parent
        }
        return e
    }

    func visit(_ entry: Entry?, _ r: Responder, handled: Bool) {
        entry?.visited.append((r, handled))
    }

    /// Ends a send (once: a second call for the same entry does nothing).
    func end(_ entry: Entry?, handledBy r: Responder?) {
        guard let entry, !entry.ended else { return }
        entry.ended = true
        entry.handler = r
        var t: Tracer? = self
        while let tracer = t {
            if let onEntry = tracer.onEntry {
                tracer.open -= 1
                if tracer.open <= 0 {
                    tracer.open = 0
                    let ready = tracer.waiting
                    tracer.waiting.removeAll()
                    for e in ready { onEntry(e) }
                }
            }
            t = tracer.parent
        }
    }
}
