/// Who owns a name that types can be written with (SPEC §6.4: a struct, a class, or a built-in
/// type): one owner a name. Every definer (`ck.component`, `ck.controller`, `ck.struct`) claims
/// its name through `Runtime.claimTypeName` before it defines anything, so a name never means
/// two types (attack atk-spec 01: `ck.component("Pt")` after `ck.struct("Pt")` made sends say
/// "must be Pt, got Pt").
public enum TypeNameOwner: Sendable {
    case builtinType, structure, componentClass, controllerClass

    var shown: String {
        switch self {
        case .builtinType: "a built-in type"
        case .structure: "a struct (ck.struct)"
        case .componentClass: "a component class"
        case .controllerClass: "a controller class"
        }
    }

    /// What the definer makes, for the advice.
    var made: String { self == .structure ? "the struct" : "the class" }
}

extension Runtime {
    /// The owner of the type name `name`, if any. A built-in component's name (`View`, also a
    /// built-in type) is a component class's: redefining it is `ck.component`'s business.
    public func typeNameOwner(_ name: String) -> TypeNameOwner? {
        if componentClasses[name] != nil || Builtin.named(name) != nil { return .componentClass }
        if controllerClasses[name] != nil { return .controllerClass }
        if types.structs[name] != nil { return .structure }
        if TypeSystem.builtinNames[name] != nil { return .builtinType }
        return nil
    }

    /// `[badArgument]` unless `name` is free or already `owner`'s (a redefinition): `definer`
    /// (`ck.component`) is about to define it.
    public func claimTypeName(_ name: String, as owner: TypeNameOwner, in definer: String) throws {
        guard let current = typeNameOwner(name), current != owner else { return }
        // A reload keeps what the running app defined (its instances and sends use it): a name
        // keeps its kind until ckrun starts again (atk-new 07: the advice fitted no reload).
        let advice = isReloadingApp
            ? "a reload keeps the names the running app defined, so it cannot make it \(owner.shown); start ckrun again to change it, or give \(owner.made) a name of its own"
            : "give \(owner.made) a name of its own"
        throw RuntimeError(.badArgument, "\(definer): \"\(Excerpt.text(name))\" is already \(current.shown); \(advice)",
                           at: currentLocation())
    }
}
