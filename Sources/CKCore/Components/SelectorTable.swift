/// Interned selectors: a class finds a handler by index instead of hashing the name on
/// every responder of every walk. One table per runtime; classes attached to it report
/// method changes through it, which makes cached send plans stale.
/// Interned names are kept for good, so their bytes count as the script's (`WorkLimits.hold`),
/// and actions share the interned copy instead of one of their own each.
public final class SelectorTable {
    private var ids: [String: Int] = [:]
    private var names: [String] = []
    private let calls: CallStateStorage
    private let limits: WorkLimits

    init(calls: CallStateStorage, limits: WorkLimits) {
        self.calls = calls
        self.limits = limits
    }

    func methodsChanged() { calls.invalidatePlans() }

    public func id(_ selector: String) -> Int { intern(selector).id }

    /// The selector's id and the table's copy of its name.
    func intern(_ selector: String) -> (id: Int, name: String) {
        if let id = ids[selector] { return (id, names[id]) }
        let id = ids.count
        ids[selector] = id
        names.append(selector)
        limits.hold(selector.utf8.count + 64)
        return (id, selector)
    }
}

/// A class's handlers by name, with an index by selector id for the send path.
public struct MethodTable {
    private(set) var byName: [String: Method] = [:]
    private var byID: ContiguousArray<Method?> = []
    private(set) var selectors: SelectorTable?

    public init() {}

    mutating func attach(_ table: SelectorTable) {
        selectors = table
        byID = []
        for (name, m) in byName { index(m, table.id(name)) }
    }

    mutating func set(_ method: Method?, named name: String) {
        byName[name] = method
        if let selectors {
            index(method, selectors.id(name))
            selectors.methodsChanged()
        }
    }

    private mutating func index(_ method: Method?, _ id: Int) {
        if id >= byID.count { byID.append(contentsOf: repeatElement(nil, count: id - byID.count + 1)) }
        byID[id] = method
    }

    func method(_ name: String) -> Method? { byName[name] }

    @inline(__always)
    func method(id: Int, name: String) -> Method? {
        guard selectors != nil else { return byName[name] }
        return id < byID.count ? byID[id] : nil
    }
}
