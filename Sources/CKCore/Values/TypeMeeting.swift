/// The one rule for re-typing an action (SPEC §6.4, §6.5): a prop's, a built-in's, `ck.onTap`'s
/// or a demotion's declared types are checked for compatibility with the action's own, and never
/// widen them.
extension TypeSpec {
    /// The type an action's argument keeps when the action, typed `self` there, is given where
    /// `declared` is expected (a prop of `def.actions`, a built-in's action, `ck.onTap`, a
    /// demotion): nil when they are incompatible; else its own type, or `declared` where its own
    /// is `"any"`. "any" matches anything for compatibility only (SPEC §6.4): a declared type only
    /// ever narrows an action's, never widens it, so a handler never receives a value its own
    /// type refuses.
    public func meeting(_ declared: TypeSpec) -> TypeSpec? {
        guard isCompatible(with: declared) else { return nil }
        if case .any = self { return declared }
        return self
    }

    /// `own` met with `declared` position by position (`meeting`), then `declared`'s types past
    /// `own`'s: as many types as `declared`. Throws `[typeMismatch]` at the first position they
    /// clash, saying `where` (`"W.on is declared {…} but"`).
    static func meeting(_ own: [TypeSpec], _ declared: [TypeSpec], where place: @autoclosure () -> String,
                        advice: @autoclosure () -> String) throws -> [TypeSpec] {
        var out: [TypeSpec] = []
        out.reserveCapacity(declared.count)
        for (i, d) in declared.enumerated() {
            guard i < own.count else { out.append(d); continue }
            guard let t = own[i].meeting(d) else {
                throw RuntimeError(.typeMismatch, "\(place()) the action's type #\(i + 1) is \(own[i].clashText(with: d, advice: advice()))")
            }
            out.append(t)
        }
        return out
    }

    /// The rest of a clash's message after "the action's type #N is": this type and `advice`,
    /// or, when the two are definitions of one struct name (the struct was redefined after the
    /// action was made), that, with where each was defined, and what to do about it.
    func clashText(with declared: TypeSpec, advice: String) -> String {
        guard case .structure(let own) = self, case .structure(let other) = declared, own.name == other.name else {
            return "\(Excerpt.text(description)); \(advice)"
        }
        let name = Excerpt.text(own.name)
        let made = own.definedAt.map { " (defined at \($0))" } ?? ""
        let replaced = other.definedAt.map { " at \($0)" } ?? ""
        return "an earlier definition of struct \(name)\(made), which ck.struct(\"\(Excerpt.text(own.name))\", ...)\(replaced) replaced; make the action again after the redefinition"
    }
}
