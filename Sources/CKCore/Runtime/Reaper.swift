/// Frees chains of runtime objects without recursion. Swift releases what an object holds from
/// its `deinit`, so a 100,000-deep component chain (or scope chain, or view chain) freed the
/// ordinary way nests 100,000 `deinit`s and overflows the C stack. Each tree object's `deinit`
/// calls `Reaper.release(self)` instead: the object's strong tree links are moved into an
/// explicit stack, and every object in it that nothing else holds has its own links moved out
/// before it goes, so each `deinit` it triggers finds nothing left to cascade into. Depth stays
/// at two `deinit`s whatever the tree's shape (SPEC §3: any depth that fits in memory).
enum Reaper {
    /// Called from `object`'s `deinit`.
    static func release(_ object: RuntimeObject) {
        guard object.holdsUniqueLinks else { return }
        var stack: [RuntimeObject] = []
        object.moveLinks(into: &stack)
        while var next = stack.popLast() {
            if isKnownUniquelyReferenced(&next) { next.moveLinks(into: &stack) }
        }
    }

    /// Whether some element of `a` would be freed if the caller let go of the array now.
    static func anyUnique<T: AnyObject>(_ a: inout [T]) -> Bool {
        for i in a.indices where isKnownUniquelyReferenced(&a[i]) { return true }
        return false
    }

    /// Whether `o` would be freed if the caller let go of it now.
    static func unique<T: AnyObject>(_ o: inout T?) -> Bool {
        o != nil && isKnownUniquelyReferenced(&o!)
    }
}

/// Struct types name struct types: 100,000 nested ones are a chain too.
extension StructType {
    static func release(_ s: StructType) {
        guard s.fields.contains(where: { $0.type.structType != nil }) else { return }
        var stack: [StructType] = []
        s.moveNested(into: &stack)
        while var next = stack.popLast() {
            if isKnownUniquelyReferenced(&next) { next.moveNested(into: &stack) }
        }
    }
}
