/// A component action (SPEC §6.2): selector, target, scope or block, with typed arguments.
public final class Action: RuntimeObject {
    public enum Kind: String { case selector, target, scope, block }
    public enum Behavior: String { case startAtSender, startAtSenderNextResponder }

    public let kind: Kind
    public let selector: String?
    /// The interned selector (see `SelectorTable`); -1 for blocks.
    let selectorID: Int
    /// The argument types after the sender.
    public let types: [TypeSpec]
    /// The handler's full signature: what a send hands it after the sender, always all of it.
    public let fullTypes: [TypeSpec]
    /// How many of the sender's arguments reach the handler (a prefix of `fullTypes`); the
    /// handler's positions past them get their zeros (demotion), even when a promotion later
    /// typed the action longer again: a demoted action's handler never sees a promoted argument.
    public let forwarded: Int
    /// The target, or nil once it was freed. Not held: the view spec of the component whose
    /// render made a target action holds it, and one targeting that component, an ancestor,
    /// their controller or view was a cycle nothing broke (attack lib 08: ~29 KB a runtime).
    public var target: Responder? { targetLink?.responder }
    private let targetLink: TargetLink?
    public let scope: Scope?
    /// The generation the action was made in; a scope action never resolves to an older one.
    public let generation: Int
    public let block: Method?
    /// The block's function, for equality.
    public let blockIdentity: Value
    public let behavior: Behavior

    init(kind: Kind, selector: String?, selectorID: Int = -1, types: [TypeSpec], fullTypes: [TypeSpec]? = nil, forwarded: Int? = nil, target: Responder? = nil,
         scope: Scope? = nil, generation: Int = 0, block: Method? = nil, blockIdentity: Value = .nil,
         behavior: Behavior? = nil) {
        self.kind = kind
        self.selector = selector
        self.selectorID = selectorID
        self.types = types
        self.fullTypes = fullTypes ?? types
        self.forwarded = forwarded ?? types.count
        targetLink = target.map(TargetLink.init)
        self.scope = scope
        self.generation = generation
        self.block = block
        self.blockIdentity = blockIdentity
        self.behavior = behavior ?? (kind == .selector ? .startAtSenderNextResponder : .startAtSender)
    }

    public override var typeName: String { "Action" }

    private func copy(types: [TypeSpec]? = nil, fullTypes: [TypeSpec]? = nil, forwarded: Int? = nil, behavior: Behavior? = nil) -> Action {
        Action(kind: kind, selector: selector, selectorID: selectorID, types: types ?? self.types, fullTypes: fullTypes ?? self.fullTypes,
               forwarded: forwarded ?? self.forwarded, target: target, scope: scope, generation: generation, block: block, blockIdentity: blockIdentity,
               behavior: behavior ?? self.behavior)
    }

    public func withBehavior(_ behavior: Behavior) -> Action { copy(behavior: behavior) }

    /// Explicit demotion: typed with a prefix of the types; the rest is zero-filled at send.
    /// The prefix is compared as a prop's declared types are (`TypeSpec.meeting`): "any" in it
    /// matches the action's type there and keeps it (`demoted({"any"})` of an `{"int", "string"}`
    /// action is typed `{"int"}`), so the handler never receives a value its own type refuses.
    public func demoted(to prefix: [TypeSpec]) throws -> Action {
        guard prefix.count <= types.count else {
            throw RuntimeError(.badArgument, "demoted: \(describe(prefix)) has more types than the action's \(describe(types)); demotion only drops trailing types")
        }
        let kept = try TypeSpec.meeting(types, prefix, where: "demoted(\(describe(prefix))):", advice: "demote to a prefix of \(describe(types))")
        return copy(types: kept, forwarded: min(forwarded, kept.count))
    }

    /// Whether the handler gets zeros past the sender's arguments (the action was demoted).
    public var isDemoted: Bool { forwarded < fullTypes.count }

    /// Implicit promotion to a prop's or attribute's declared types: the action keeps its own
    /// types (a declared "any" never widens them, `TypeSpec.meeting`) and gains the declared
    /// ones past them. Only an action that was never demoted hands its handler the arguments
    /// the promotion adds; a demoted one keeps its handler's signature and zeros.
    /// `[typeMismatch]` when a type clashes, its message starting with `place`.
    public func promoted(to declared: [TypeSpec], where place: @autoclosure () -> String? = nil) throws -> Action {
        guard declared != types else { return self }
        let kept = try TypeSpec.meeting(types, declared, where: place() ?? "promoted to \(describe(declared)):", advice: "make the types match")
        guard kept != types else { return self }
        if isDemoted { return copy(types: kept, forwarded: min(forwarded, kept.count)) }
        return copy(types: kept, fullTypes: kept + fullTypes.dropFirst(kept.count), forwarded: kept.count)
    }

    /// `scope:Card#1@7f…/didTap` — equal for equal actions (`isEqual`), different otherwise:
    /// objects are named by address, a plain-table target by its table's identity.
    public func identifier() -> String {
        let sel = selector ?? "block"
        switch kind {
        case .selector: return "selector:\(sel)"
        case .target: return "target:\(target.map { "\($0.name)@\(Self.address($0))" } ?? "nil")/\(sel)"
        case .scope: return "scope:\(scope?.path ?? "?")@\(scope.map { Self.hex(ObjectIdentifier($0)) } ?? "0")/\(sel)"
        case .block:
            if case .function(let r) = blockIdentity { return "block:\(String(r.identity, radix: 16))" }
            return "block:\(Self.hex(ObjectIdentifier(self)))"
        }
    }

    private static func hex(_ id: ObjectIdentifier) -> String { String(UInt(bitPattern: id), radix: 16) }

    /// A target's identity: its object, or for a plain table (or host responder) its table.
    private static func address(_ r: Responder) -> String {
        if case .script(let s) = r, case .table(let t) = s.table { return "t" + String(t.identity, radix: 16) }
        return hex(ObjectIdentifier(r.object))
    }

    /// Same kind, target, scope, selector and function (a plain-table target by identity).
    public func isEqual(to other: Action) -> Bool {
        kind == other.kind && selector == other.selector && scope === other.scope
            && sameTarget(other) && blockIdentity.rawEquals(other.blockIdentity)
    }

    private func sameTarget(_ other: Action) -> Bool {
        switch (target, other.target) {
        case (nil, nil): return true
        case let (.script(a)?, .script(b)?): return a === b || a.table.rawEquals(b.table)
        case let (a?, b?): return a.object === b.object
        default: return false
        }
    }

    /// How a send of this action is named in its errors: `send of "didSelectThread"`.
    var sendName: String { selector.map { "send of \"\(Excerpt.text($0))\"" } ?? "send of a block action" }

    func describe(_ types: [TypeSpec]) -> String { Self.describe(types) }

    /// `{"int", "string"}`: types as a script writes them.
    static func describe(_ types: [TypeSpec]) -> String { "{" + types.map { "\"\(Excerpt.text($0.description))\"" }.joined(separator: ", ") + "}" }
}

/// The argument of tap and control actions.
public final class Event: RuntimeObject {
    public let type: String
    public let view: View?
    /// A text field's whole text after the change (`host:controlEvent`'s third argument, the
    /// live view's typing); nil for any other event. Its bytes are carried (`ByteText`): a byte
    /// that is not UTF-8 reaches the handler as that byte.
    public let text: String?

    public init(type: String, view: View?, text: String? = nil) {
        self.type = type
        self.view = view
        self.text = text
    }

    public override var typeName: String { "Event" }
}

/// How an action reaches its target without keeping it alive: a runtime object through the
/// back link it clears when it goes; a script responder (a table's), which holds no runtime
/// object, strongly.
private enum TargetLink {
    case component(BackLink<Component>)
    case controller(BackLink<Controller>)
    case view(BackLink<View>)
    case script(ScriptResponder)

    init(_ responder: Responder) {
        switch responder {
        case .component(let c): self = .component(c.backLink)
        case .controller(let k): self = .controller(k.backLink)
        case .view(let v): self = .view(v.backLink)
        case .script(let s): self = .script(s)
        }
    }

    var responder: Responder? {
        switch self {
        case .component(let link): link.target.map(Responder.component)
        case .controller(let link): link.target.map(Responder.controller)
        case .view(let link): link.target.map(Responder.view)
        case .script(let s): .script(s)
        }
    }
}
