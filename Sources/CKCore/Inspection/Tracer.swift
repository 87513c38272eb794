/// Records sends for `ck.trace(fn)` and the REPL's `.trace on`. What it keeps is bounded: an
/// entry keeps at most `visitLimit` responders of its walk (the first ones and the last), a
/// tracer that keeps entries keeps at most `recordLimit` records (an entry and each responder it
/// keeps count one each) and stops recording when the script's `--memory-limit`, counting
/// `recordBytes` a record, is reached. `ck.config.onTrace`'s tracer keeps no entries at all:
/// each goes to the handler and is the script's to keep.
public final class Tracer {
    public static let visitLimit = 1_000
    public static let recordLimit = 1_000_000
    /// What one record costs in Swift, roughly: an entry's object or a visit's tuple.
    public static let recordBytes = 64
    /// The selector an entry of a block action's send shows.
    public static let blockSelector = "(block)"

    public final class Entry: RuntimeObject {
        public let selector: String
        public let sender: Responder?
        public internal(set) var visited: [(responder: Responder, handled: Bool)] = []
        public internal(set) var handler: Responder?
        /// Whether a handler ran: a responder's (`handler`), or a block action's block, which
        /// has no responder.
        public internal(set) var handled = false
        /// Responders of the walk not kept (between the first kept ones and the last).
        public internal(set) var omittedVisits = 0
        /// What the handler received, the sender first, each with its declared type (`sender`
        /// for the sender): the checked and converted arguments, zeros for demoted ones, as many
        /// as its parameters take (SPEC §6.3, §6.5). Empty until a handler runs.
        public internal(set) var received: [(type: String, value: Value)] = []
        var ended = false

        init(selector: String, sender: Responder?) {
            self.selector = selector
            self.sender = sender
        }

        public override var typeName: String { "TraceEntry" }

        /// `didTap from Button: Button -> Card (handled)`; a block action's `(block) from Button: block (handled)`.
        public var line: String {
            var path = visited.map { $0.handled ? "\($0.responder.name) (handled)" : $0.responder.name }
            if omittedVisits > 0 { path.insert("… \(omittedVisits) more", at: path.count - 1) }
            if handled && handler == nil { path.append("block (handled)") }
            let tail = handled ? "" : (path.isEmpty ? "nil (unhandled)" : " -> nil (unhandled)")
            return "\(ObjectText.name(selector)) from \(sender?.name ?? "nil"): " + path.joined(separator: " -> ") + tail
        }

        /// Keeps the first `visitLimit - 1` responders and the latest.
        func record(_ r: Responder, handled: Bool) {
            if visited.count < Tracer.visitLimit {
                visited.append((r, handled))
            } else {
                omittedVisits += 1
                visited[visited.count - 1] = (r, handled)
            }
        }
    }

    public private(set) var entries: [Entry] = []
    /// Called with each finished send. Nested sends are delivered outer-first: the entries
    /// begun inside a send wait until the outermost one ends, then go in the order they began.
    public var onEntry: ((Entry) -> Void)?
    public let parent: Tracer?
    /// False for a tracer that only hands entries to `onEntry`.
    public let keepsEntries: Bool
    /// Checked as records are kept: throws when the script's memory limit is passed.
    private let limits: WorkLimits?
    private var records = 0
    private let recordLimit: Int
    /// Set when this tracer stopped keeping entries (record limit or memory limit).
    public private(set) var isTruncated = false
    /// Sends begun and not yet ended, and the entries waiting for the outermost to end.
    private var open = 0
    private var waiting: [Entry] = []

    public init(parent: Tracer? = nil, keepsEntries: Bool = true, limits: WorkLimits? = nil,
                recordLimit: Int = Tracer.recordLimit) {
        self.parent = parent
        self.recordLimit = recordLimit
        self.keepsEntries = keepsEntries
        self.limits = limits
    }

    func begin(selector: String, sender: Responder?) -> Entry {
        let e = Entry(selector: selector, sender: sender)
        var t: Tracer? = self
        while let tracer = t {
            tracer.keep(e)
            if tracer.onEntry != nil {
                tracer.open += 1
                tracer.waiting.append(e)
            }
            t = tracer.parent
        }
        return e
    }

    private func keep(_ e: Entry) {
        guard keepsEntries, !isTruncated else { return }
        records += 1 + e.visited.count
        do { try limits?.tick(holding: records * Tracer.recordBytes) } catch { isTruncated = true }
        if records > recordLimit { isTruncated = true }
        if !isTruncated { entries.append(e) }
    }

    func visit(_ entry: Entry?, _ r: Responder, handled: Bool) {
        guard let entry else { return }
        let kept = entry.visited.count < Tracer.visitLimit
        entry.record(r, handled: handled)
        guard kept else { return }
        var t: Tracer? = self
        while let tracer = t {
            if tracer.keepsEntries && !tracer.isTruncated {
                tracer.records += 1
                if tracer.records > tracer.recordLimit { tracer.isTruncated = true }
            }
            t = tracer.parent
        }
    }

    /// The handler of `entry` is called with the first `count` of `call` (the sender, then
    /// arguments typed `types`); each counts as a record.
    func deliver(_ entry: Entry?, _ call: [Value], types: [TypeSpec], count: Int) {
        guard let entry else { return }
        let labels = ["sender"] + types.map(\.description)
        entry.received = (0..<min(count, call.count)).map { (labels[min($0, labels.count - 1)], call[$0]) }
        var t: Tracer? = self
        while let tracer = t {
            if tracer.keepsEntries && !tracer.isTruncated {
                tracer.records += entry.received.count
                if tracer.records > tracer.recordLimit { tracer.isTruncated = true }
            }
            t = tracer.parent
        }
    }

    /// Ends a send (once: a second call for the same entry does nothing); `ranBlock` when a
    /// block action's block ran (it handled the send, with no responder).
    func end(_ entry: Entry?, handledBy r: Responder?, ranBlock: Bool = false) {
        guard let entry, !entry.ended else { return }
        entry.ended = true
        entry.handler = r
        entry.handled = r != nil || ranBlock
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
