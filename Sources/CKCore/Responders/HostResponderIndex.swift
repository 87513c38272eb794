/// The host responders of the tracked hosts by their table's identity, so that a table an
/// action targets finds the responder a host lists it as (`Runtime.hostResponder(forTable:)`)
/// without sorting and searching every host (a cost that grew with the hosts mounted). Kept by
/// `Runtime.register`/`unregister` and by every change of a tracked host's `responders`; each
/// costs O(log k) for k hosts listing one table (a sorted list moved k entries a change).
struct HostResponderIndex {
    /// Each table's responders as a binary heap by their host's serial: the first made host's
    /// on top. A responder knows its place (`ScriptResponder.placeInIndex`), so it leaves in
    /// O(log k); one wrapper is one host's (the bridge makes a wrapper per host's list).
    private var byTable: [UInt: [ScriptResponder]] = [:]

    func first(forTable identity: UInt) -> ScriptResponder? { byTable[identity]?.first }

    /// A host listing one table twice is found at the first.
    mutating func add(_ host: Host) {
        var seen: Set<UInt> = []
        for responder in host.responders where responder.placeInIndex == nil {
            guard let table = responder.tableIdentity else { continue }
            if host.responders.count > 1, !seen.insert(table).inserted { continue }
            var heap = byTable.removeValue(forKey: table) ?? []   // edited uniquely referenced
            responder.placeInIndex = (host.serial, heap.count)
            heap.append(responder)
            Self.siftUp(&heap, heap.count - 1)
            byTable[table] = heap
        }
    }

    mutating func remove(_ host: Host) {
        for responder in host.responders {
            guard let place = responder.placeInIndex, let table = responder.tableIdentity,
                  var heap = byTable.removeValue(forKey: table) else { continue }
            responder.placeInIndex = nil
            let last = heap.removeLast()
            if place.index < heap.count {
                heap[place.index] = last
                last.placeInIndex!.index = place.index
                Self.siftDown(&heap, Self.siftUp(&heap, place.index))
            }
            if !heap.isEmpty { byTable[table] = heap }
        }
    }

    private static func serial(_ heap: [ScriptResponder], _ i: Int) -> Int { heap[i].placeInIndex!.serial }

    private static func swap(_ heap: inout [ScriptResponder], _ i: Int, _ j: Int) {
        heap.swapAt(i, j)
        heap[i].placeInIndex!.index = i
        heap[j].placeInIndex!.index = j
    }

    /// Moves the entry at `i` up while its host was made before its parent's; returns where it stops.
    @discardableResult
    private static func siftUp(_ heap: inout [ScriptResponder], _ i: Int) -> Int {
        var i = i
        while i > 0, serial(heap, i) < serial(heap, (i - 1) / 2) {
            swap(&heap, i, (i - 1) / 2)
            i = (i - 1) / 2
        }
        return i
    }

    private static func siftDown(_ heap: inout [ScriptResponder], _ i: Int) {
        var i = i
        while true {
            let left = 2 * i + 1, right = left + 1
            var first = i
            if left < heap.count, serial(heap, left) < serial(heap, first) { first = left }
            if right < heap.count, serial(heap, right) < serial(heap, first) { first = right }
            if first == i { return }
            swap(&heap, i, first)
            i = first
        }
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
