/// What objects that point back up at `Target` (a component's children and next generation, a
/// view's subviews) hold instead of a weak reference to it: a weak reference gives its target a
/// side table and sends every retain of it down the slow path (a responder walk retains each
/// parent). The target clears its link when it goes, so a link never points at a freed object.
final class BackLink<Target: AnyObject> {
    unowned(unsafe) var target: Target?
    /// What the target left behind for those still linked to it (a component's place in its
    /// tree, `Component.Remains`), set as it goes.
    var remains: AnyObject?

    init(_ target: Target) { self.target = target }

    /// `target`'s link, kept in `slot`, made at the first use.
    static func of(_ target: Target, in slot: inout BackLink?) -> BackLink {
        if let link = slot { return link }
        let link = BackLink(target)
        slot = link
        return link
    }
}
