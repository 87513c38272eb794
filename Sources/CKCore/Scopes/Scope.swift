/// Identity across generations: owns state, the pending updates and the controller.
public final class Scope: RuntimeObject {
    // Layout (a scoped leaf holds one; 204 bytes, 8 of them the link to a retired controller): each Value (17 bytes) and each ScopeMap (12)
    // lays a Bool or an Int32 declared after it in its tail padding.
    /// Where the build in `foldedInBuild` keeps the state (declared first: an Int32 here takes
    /// the 4 bytes after `bridgeSlot`).
    var foldedSlot: Int32 = 0
    public let className: String
    public let identifier: Value
    public internal(set) var isLive = true
    /// The build that last placed this scope among its parent's rebuilt children.
    var claimedInBuild: Int32 = 0
    public let key: Value
    /// Claimed by `claimedInBuild` as a kept scope left in its parent's old map (`BuildContext.place`),
    /// not yet in the rebuilt one.
    var placedAside = false
    /// The build that last re-rendered this scope's content, and (made at the first claim)
    /// the child scopes it claimed there.
    var rebuiltInBuild: Int32 = 0
    public internal(set) var state: Value = .nil
    /// The build that folded updates for this scope (where: `foldedSlot`).
    var foldedInBuild: Int32 = 0
    var children = ScopeMap()
    /// The build whose tree last gave this scope's component a place (`Builder.checkPlacement`):
    /// one component holds a scope in a tree.
    var placedInBuild: Int32 = 0
    var rebuiltChildren: ScopeMap?
    private let ordinalStorage: Int32
    /// The order this scope was made in among its host's (`Scope.controllersInTreeOrder`'s fallback).
    let serial: Int
    /// Strong: a parent keeps its children too, and `retire` (which every scope gets when it
    /// leaves the tree or its host ends) empties `children`, so no cycle outlives the tree.
    /// A weak link would give every parent a side table and every retain of it the slow path.
    /// A variable only so that `Reaper` can take it as the scope goes.
    public private(set) var parent: Scope?
    let hostLink: HostLink
    public var host: Host? { hostLink.host }
    /// Whether its host was ended by `destroy()` (freed or not), not only dropped and collected.
    public var hostWasDestroyed: Bool { hostLink.wasDestroyed }
    public internal(set) var controller: Controller?
    /// The controller it had when it retired, for as long as that lives (`answeringController`).
    private var retiredControllerLink: BackLink<Controller>?
    /// The newest committed component of this scope.
    public internal(set) var component: Component?
    var pendingUpdates: [QueuedUpdate] = []
    /// `ScopeIdentity.hashCode`, which fits an Int32 (it ends the object at 204 bytes).
    private let identityHash32: Int32
    var identityHash: Int { Int(identityHash32) }
    /// 0 for the first sibling with this identity, 1 for the second, … (a count of scopes held
    /// at once: an Int32 holds it).
    public var ordinal: Int { Int(ordinalStorage) }

    init(identity: ScopeIdentity, ordinal: Int, parent: Scope?, host: Host) {
        className = identity.className
        identifier = identity.identifier
        key = identity.key
        identityHash32 = Int32(truncatingIfNeeded: identity.hashCode)
        ordinalStorage = Int32(ordinal)
        self.parent = parent
        hostLink = host.link
        serial = host.nextScopeSerial()
    }

    deinit { Reaper.release(self) }

    override var holdsUniqueLinks: Bool {
        Reaper.unique(&parent) || Reaper.unique(&component) || Reaper.unique(&controller) || !children.isEmpty
            || rebuiltChildren.map { !$0.isEmpty } == true
    }

    override func moveLinks(into stack: inout [RuntimeObject]) {
        if let p = parent { stack.append(p); parent = nil }
        if let c = component { stack.append(c); component = nil }
        if let k = controller { stack.append(k); controller = nil }
        children.moveAll(into: &stack)
        rebuiltChildren?.moveAll(into: &stack)
        rebuiltChildren = nil
    }

    public override var typeName: String { "scope" }
    /// From the commit that placed its component until it retires.
    public override var keepsItsHandle: Bool { isLive && component?.isInTree == true }

    var identity: ScopeIdentity { ScopeIdentity(className: className, identifier: identifier, key: key, hashCode: identityHash) }

    /// Whether `other` has this scope's identity; the identity is made only when the hashes agree.
    func sharesIdentity(with other: Scope) -> Bool {
        identityHash == other.identityHash && other.has(identity)
    }

    /// Whether this scope's identity is `identity` (as `ScopeIdentity.==`), without making one.
    func has(_ identity: ScopeIdentity) -> Bool {
        identity.matches(hashCode: identityHash, className: className, identifier: identifier, key: key)
    }

    /// The identifier, else the key, as a name part (nil when neither is set): what a query's `#id` matches.
    public var displayIdentifier: String? { Scope.display(identifier) ?? Scope.display(key) }

    /// A value as a query's `#id` compares it (unquoted, whole).
    static func display(_ v: Value) -> String? {
        switch v {
        case .nil: nil
        case .string(let s): s
        case .int(let i): String(i)
        case .number(let d): NumberText.text(d)
        case .bool(let b): String(b)
        default: v.typeName
        }
    }

    /// `Item#3[2]`: class, identifier, key and sibling order, in `ScopeName`'s notation.
    public var label: String { ScopeName.label(className, identifier: identifier, key: key, ordinal: ordinal) }

    /// `Root/List/Item#3[2]`: scope names from the host's root scope.
    public var path: String {
        var names: [String] = []
        var s: Scope? = self
        while let scope = s, scope.parent != nil {
            names.append(scope.label)
            s = scope.parent
        }
        return names.reversed().joined(separator: "/")
    }

    /// `path` as messages show it: at most ten names at any depth (`ScopeName.shownPath`).
    public var shownPath: String {
        parent == nil ? "" : ScopeName.shownPath(from: self, parent: { s in s.parent.flatMap { $0.parent == nil ? nil : $0 } }, label: { $0.label })
    }

    /// The scope left the tree or its host ended: drop what could keep a cycle alive (its
    /// component's props can hold actions that point back at this scope).
    func retire() {
        isLive = false
        if handleIsKept { host?.runtime.ended(self) }
        if !pendingUpdates.isEmpty { dropPendingUpdates(host?.runtime.limits) }
        state = .nil
        if let k = controller {
            retiredControllerLink = k.backLink
            if host?.runtime.keepsRetiredController?(self, k) != true { controller = nil }
        }
        component = nil
        children = ScopeMap()
    }

    /// The controller `ck.controllerOf` and `scope.controller` answer: the live one, or after the
    /// scope retired the (invalidated) one it had, while that lives (attack atk-mem 07: both
    /// turned nil at the build that removed the instance, the controller alive and readable).
    public var answeringController: Controller? { controller ?? retiredControllerLink?.target }

    /// A retired scope keeps its controller (and the controller its last component, which keeps
    /// the scope: a cycle) only while a handle of one of the three is alive; once Lua collected
    /// the last of them, the cycle goes (`Runtime.keepsRetiredController`).
    public func letGoOfRetiredControllerIfUnheld() {
        guard !isLive, let k = controller, k.isInvalidated, bridgeSlot == 0, k.bridgeSlot == 0,
              k.component.bridgeSlot == 0 else { return }
        controller = nil
    }

    /// Those of `scopes` that have a controller, in the order their components stand in the
    /// tree below `tops` (depth first, parents first: the order `didUnmount` came in), by one
    /// walk that does not enter what `skip` says holds none of them; any the walk does not meet
    /// (an instance that left its scope's part of the tree) follow in the order made.
    static func controllersInTreeOrder(_ scopes: [Scope], below tops: [Component],
                                       skip: (Component) -> Bool) -> [Scope] {
        let wanted = scopes.filter { $0.controller != nil }
        guard wanted.count > 1 else { return wanted }
        var pending = Set(wanted.map(ObjectIdentifier.init))
        var out: [Scope] = []
        var stack: [Component] = tops.reversed()
        while !pending.isEmpty, let c = stack.popLast() {
            if let s = c.scope, s.component === c, pending.remove(ObjectIdentifier(s)) != nil { out.append(s) }
            if !skip(c) { stack.append(contentsOf: c.children.reversed()) }
        }
        return out + wanted.filter { pending.contains(ObjectIdentifier($0)) }.sorted { $0.serial < $1.serial }
    }

    /// Every scope below this one, this one first, each before the scopes below it (in hash
    /// order among siblings: never where a script sees the order).
    var subtree: [Scope] {
        var out: [Scope] = [self]
        var next = 0
        while next < out.count {
            for group in out[next].children.groups {
                for scope in group { out.append(scope) }
            }
            next += 1
        }
        return out
    }
}

/// (class name, identifier, key): what makes two scopes the same among siblings. Hashed
/// once, when made: every claim looks it up twice.
struct ScopeIdentity: Hashable {
    let className: String
    let identifier: Value
    let key: Value
    let hashCode: Int

    /// `classNameHash` is `className.hashValue`, which a class keeps so as not to hash its name per claim.
    init(className: String, classNameHash: Int, identifier: Value, key: Value) {
        self.className = className
        self.identifier = identifier
        self.key = key
        // 32 bits, sign-extended: a scope keeps it in an Int32 and gives back the same Int.
        hashCode = Int(Int32(truncatingIfNeeded: Self.mix(Self.mix(classNameHash ^ Self.bits(identifier)) ^ Self.bits(key))))
    }

    init(className: String, identifier: Value, key: Value) {
        self.init(className: className, classNameHash: className.hashValue, identifier: identifier, key: key)
    }

    /// A scope's identity again, with the hash it was made with.
    init(className: String, identifier: Value, key: Value, hashCode: Int) {
        self.className = className
        self.identifier = identifier
        self.key = key
        self.hashCode = hashCode
    }

    static func == (a: ScopeIdentity, b: ScopeIdentity) -> Bool {
        a.matches(hashCode: b.hashCode, className: b.className, identifier: b.identifier, key: b.key)
    }

    /// Whether this is the identity made of these parts (a scope compares its own without copying them).
    func matches(hashCode: Int, className: String, identifier: Value, key: Value) -> Bool {
        self.hashCode == hashCode && self.className == className && Self.same(self.identifier, identifier)
            && Self.same(self.key, key)
    }

    /// Raw equality, except that NaN is the same identifier as NaN (a key must equal itself;
    /// `Runtime.construct` refuses NaN identifiers and keys, so none is made from a script).
    private static func same(_ x: Value, _ y: Value) -> Bool {
        if case .number(let a) = x, case .number(let b) = y, a.isNaN, b.isNaN { return true }
        return x.rawEquals(y)
    }

    func hash(into h: inout Hasher) { h.combine(hashCode) }

    /// The dictionary hash: `hashCode` is already well mixed, so it is mixed once with the
    /// dictionary's seed rather than fed through SipHash on every lookup (a third of a claim).
    func _rawHashValue(seed: Int) -> Int { Self.mix(hashCode &+ seed) }

    /// MurmurHash3's 64-bit finalizer: every input bit affects every output bit.
    private static func mix(_ value: Int) -> Int {
        var x = UInt64(bitPattern: Int64(value))
        x ^= x >> 33
        x &*= 0xff51afd7ed558ccd
        x ^= x >> 33
        x &*= 0xc4ceb53a185e1e3b
        x ^= x >> 33
        return Int(Int64(bitPattern: x))
    }

    /// Equal under `same` means equal bits: an integer and the float equal to it agree, as do
    /// 0.0 and -0.0, and every NaN.
    private static func bits(_ v: Value) -> Int {
        switch v {
        case .nil: return 0x6e696c
        case .bool(let b): return b ? 0x74727565 : 0x66616c73
        case .int(let i): return number(Double(i))
        case .number(let d): return number(d)
        case .string(let s): return s.hashValue
        case .object(let o): return Int(bitPattern: ObjectIdentifier(o))
        case .table(let r), .function(let r), .opaque(let r): return Int(bitPattern: r.identity)
        }
    }

    private static func number(_ d: Double) -> Int {
        if d.isNaN { return 0x4e614e }
        return d == 0 ? 0 : Int(Int64(bitPattern: d.bitPattern))
    }
}

/// A queued `updateState`: a new value, or a function of the old one.
public enum StateUpdate {
    case value(Value)
    case transform((Value) throws -> Value)

    /// What the queue keeps in Swift for an update, counted as the script's (`WorkLimits.hold`):
    /// the entry, a closure or a reference, and a string the bridge copied (at most 64 bytes: it
    /// keeps longer ones as the script's own strings).
    static let heldBytes = 160
}

/// An update in a scope's queue, with the number of the runtime call that queued it
/// (`CallState.entered`), so a call rolled back drops it (`CallRollback`).
struct QueuedUpdate {
    let update: StateUpdate
    let call: Int
}

extension Scope {
    /// Empties the update queue, giving its bytes back to the script's count.
    func dropPendingUpdates(_ limits: WorkLimits?) {
        limits?.release(pendingUpdates.count * StateUpdate.heldBytes)
        // A scope updated once is likely updated again: a small queue keeps its buffer.
        pendingUpdates.removeAll(keepingCapacity: pendingUpdates.capacity <= 4)
    }
}
