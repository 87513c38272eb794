/// The host responders of the tracked hosts by their table's identity, so that a table an
/// action targets finds the responder a host lists it as (`Runtime.hostResponder(forTable:)`)
/// without sorting and searching every host (a cost that grew with the hosts mounted). Kept by
/// `Runtime.register`/`unregister` and by every change of a tracked host's `responders`.
struct HostResponderIndex {
    private struct Entry {
        let serial: Int
        let responder: ScriptResponder
    }

    /// Each table's responders, ordered by their host's `serial` (the first made first).
    private var byTable: [UInt: [Entry]] = [:]

    func first(forTable identity: UInt) -> ScriptResponder? { byTable[identity]?.first?.responder }

    /// A host listing one table twice is found at the first.
    mutating func add(_ host: Host) {
        for responder in host.responders {
            guard let table = responder.tableIdentity else { continue }
            var entries = byTable.removeValue(forKey: table) ?? []   // edited uniquely referenced
            let at = Self.position(of: host.serial, in: entries)
            if at == entries.count || entries[at].serial != host.serial {
                entries.insert(Entry(serial: host.serial, responder: responder), at: at)
            }
            byTable[table] = entries
        }
    }

    mutating func remove(_ host: Host) {
        for responder in host.responders {
            guard let table = responder.tableIdentity, var entries = byTable.removeValue(forKey: table) else { continue }
            let at = Self.position(of: host.serial, in: entries)
            if at < entries.count, entries[at].serial == host.serial { entries.remove(at: at) }
            if !entries.isEmpty { byTable[table] = entries }
        }
    }

    /// Where `serial` is or would go in `entries` (binary search).
    private static func position(of serial: Int, in entries: [Entry]) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].serial < serial { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension ScriptResponder {
    /// The identity of the script table this responder stands for (`ScriptRef.identity`).
    var tableIdentity: UInt? {
        switch table {
        case .table(let r), .function(let r), .opaque(let r): r.identity
        default: nil
        }
    }
}

extension Runtime {
    /// The responder a tracked host lists the table `identity` as (the first made host's, when
    /// several list it), so an action targeting the table walks on along that host's responders.
    public func hostResponder(forTable identity: UInt) -> ScriptResponder? {
        hostResponders.first(forTable: identity)
    }
}
