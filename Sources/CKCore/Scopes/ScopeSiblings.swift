/// The child scopes of one identity, in claim order. Siblings rarely share an identity, so the
/// first is held without an array: a scope costs its parent no allocation of its own, and a
/// group is one word (a map's slot: 8 bytes, where a scope and an optional array were 16).
struct ScopeSiblings: RandomAccessCollection {
    private enum Held {
        case one(Scope)
        /// Two or more, in claim order, in a box of this group's own: an array in the payload
        /// was copied whole by every append (the switch kept a second reference to it), which
        /// made N colliding siblings quadratic (issue 28). No two groups share a box: groups are
        /// only ever appended to where they were made (`ScopeMap` builds merged and filtered
        /// groups afresh).
        case several(SiblingList)
    }
    private var held: Held?

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch held {
        case nil: 0
        case .one: 1
        case .several(let list): list.scopes.count
        }
    }

    var isEmpty: Bool { held == nil }

    subscript(i: Int) -> Scope {
        switch held! {
        case .one(let scope):
            precondition(i == 0, "sibling index out of range")
            return scope
        case .several(let list): return list.scopes[i]
        }
    }

    /// The identity hash of the group (not empty).
    var hash: Int { withFirst { $0.identityHash } }

    /// `body` of the first scope (the group is not empty), read in place: no copy of the group
    /// to retain and release (a map's probe asks this of every slot it passes).
    @inline(__always)
    func withFirst<T>(_ body: (Scope) -> T) -> T {
        switch held {
        case .one(let scope)?: return body(scope)
        case .several(let list)?: return body(list.scopes[0])
        case nil: preconditionFailure("an empty sibling group has no first scope")
        }
    }

    mutating func append(_ scope: Scope) {
        switch held {
        case nil: held = .one(scope)
        case .one(let first): held = .several(SiblingList([first, scope]))
        case .several(let list): list.scopes.append(scope)
        }
    }

    /// Empties the group into `stack` (`Reaper`).
    mutating func moveAll(into stack: inout [RuntimeObject]) {
        switch held {
        case nil: break
        case .one(let scope): stack.append(scope)
        case .several(let list): stack.append(contentsOf: list.scopes as [RuntimeObject])
        }
        held = nil
    }
}

/// The scopes of a group of two or more (`ScopeSiblings.Held.several`).
final class SiblingList {
    var scopes: [Scope]
    init(_ scopes: [Scope]) { self.scopes = scopes }
}

/// A scope's child scopes by identity: open addressing over sibling groups, each found by the
/// identity its first scope holds. A `[ScopeIdentity: ScopeSiblings]` stored a 72-byte key per
/// child (and copied it on every claim); a slot here is the group alone, 8 bytes.
struct ScopeMap {
    /// Empty, or a power of two long; an empty group marks a free slot.
    private var slots: [ScopeSiblings] = []
    /// Groups (distinct identities) held: an Int32, so the map is 12 bytes and a scope lays an
    /// Int32 field in its tail.
    private var groupCount: Int32 = 0
    var count: Int { Int(groupCount) }

    init() {}

    init(minimumCapacity n: Int) {
        if n > 0 { slots = Array(repeating: ScopeSiblings(), count: ScopeMap.capacity(for: n)) }
    }

    /// The smallest power of two that holds `n` groups at a load of at most 3/4.
    private static func capacity(for n: Int) -> Int {
        var c = 8
        while c * 3 < n * 4 { c *= 2 }
        return c
    }

    var isEmpty: Bool { count == 0 }

    /// Every group, in hash order, which changes from process to process: sort what a script
    /// can observe (`Scope.controllersInTreeOrder`).
    var groups: LazyFilterSequence<[ScopeSiblings]> { slots.lazy.filter { !$0.isEmpty } }

    /// The slot of `identity`'s group, or of the free slot where it would go.
    private func slot(of identity: ScopeIdentity) -> Int {
        let mask = slots.count - 1
        var i = identity.hashCode & mask
        while !slots[i].isEmpty, !slots[i].withFirst({ $0.has(identity) }) { i = (i + 1) & mask }
        return i
    }

    subscript(identity: ScopeIdentity) -> ScopeSiblings? {
        guard count > 0 else { return nil }
        let group = slots[slot(of: identity)]
        return group.isEmpty ? nil : group
    }

    /// Runs `body` on `identity`'s group (made empty if there is none); `body` appends to it.
    mutating func modifyGroup<R>(_ identity: ScopeIdentity, _ body: (inout ScopeSiblings) -> R) -> R {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let i = slot(of: identity)
        let wasEmpty = slots[i].isEmpty
        let result = body(&slots[i])
        if wasEmpty && !slots[i].isEmpty { groupCount += 1 }
        return result
    }

    /// Empties the map into `stack` (`Reaper`).
    mutating func moveAll(into stack: inout [RuntimeObject]) {
        for i in slots.indices { slots[i].moveAll(into: &stack) }
        slots = []
        groupCount = 0
    }

    mutating func append(_ scope: Scope) {
        modifyGroup(scope.identity) { $0.append(scope) }
    }

    /// `append` by the identity `scope` holds, made only when a group's hash matches (a kept
    /// row brought back: `BuildContext.bringBack`).
    mutating func insert(_ scope: Scope) {
        modifyGroup(of: scope) { $0.append(scope) }
    }

    /// `modifyGroup` for the identity `scope` holds.
    private mutating func modifyGroup(of scope: Scope, _ body: (inout ScopeSiblings) -> Void) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var i = scope.identityHash & mask
        while !slots[i].isEmpty, !slots[i].withFirst({ $0.sharesIdentity(with: scope) }) { i = (i + 1) & mask }
        let wasEmpty = slots[i].isEmpty
        body(&slots[i])
        if wasEmpty && !slots[i].isEmpty { groupCount += 1 }
    }

    /// Puts `group` (non-empty) in place of its identity's group, followed by the scopes of the
    /// group it replaces that `stays` keeps (a commit patching an old map: `Commit.patch`).
    mutating func replaceGroup(with group: ScopeSiblings, keeping stays: (Scope) -> Bool) {
        modifyGroup(of: group[0]) { old in
            var merged = ScopeSiblings()   // afresh: `group` keeps its own list
            for scope in group { merged.append(scope) }
            for scope in old where stays(scope) { merged.append(scope) }
            old = merged
        }
    }

    /// Keeps in `scope`'s identity's group only the scopes `stays` keeps; an emptied group's
    /// slot is freed.
    mutating func filterGroup(of scope: Scope, keeping stays: (Scope) -> Bool) {
        guard let i = index(of: scope) else { return }
        var kept = ScopeSiblings()
        for s in slots[i] where stays(s) { kept.append(s) }
        if kept.isEmpty { delete(at: i) } else { slots[i] = kept }
    }

    private func index(of scope: Scope) -> Int? {
        guard count > 0 else { return nil }
        let mask = slots.count - 1
        var i = scope.identityHash & mask
        while !slots[i].isEmpty {
            if slots[i].withFirst({ $0.sharesIdentity(with: scope) }) { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Empties slot `i`, moving back each later group of its probe run whose home slot is not
    /// between the hole and it (deletion in linear probing): every group stays reachable.
    private mutating func delete(at i: Int) {
        let mask = slots.count - 1
        slots[i] = ScopeSiblings()
        groupCount -= 1
        var hole = i, j = i
        while true {
            j = (j + 1) & mask
            if slots[j].isEmpty { return }
            let home = slots[j].hash & mask
            let staysPut = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j)
            if !staysPut {
                slots.swapAt(hole, j)
                hole = j
            }
        }
    }

    /// Doubles the slots, moving each group (a swap: no reference is counted up and down), through
    /// buffers: no uniqueness check per slot (a map grown from empty to 1,000 rows cost ~300
    /// instructions a row).
    private mutating func grow() {
        var old: [ScopeSiblings] = []
        swap(&old, &slots)
        var fresh = [ScopeSiblings](repeating: ScopeSiblings(), count: old.isEmpty ? 8 : old.count * 2)
        let mask = fresh.count - 1
        fresh.withUnsafeMutableBufferPointer { to in
            old.withUnsafeMutableBufferPointer { from in
                for j in from.indices where !from[j].isEmpty {
                    var i = from[j].hash & mask
                    while !to[i].isEmpty { i = (i + 1) & mask }
                    swap(&to[i], &from[j])
                }
            }
        }
        slots = fresh
    }
}
