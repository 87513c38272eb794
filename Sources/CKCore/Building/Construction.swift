extension Runtime {
    /// `Class(props)`: makes an instance and, for a scoped class, resolves its scope in the
    /// enclosing scope of the running build.
    /// `identifier`: the scope function's result, when the caller has already run it.
    /// `claim`: the scope `reusableInstance` already claimed for this construction, if any.
    public func construct(_ cls: ComponentClass, props: Value, key: Value, identifier computed: Value? = nil,
                          claim: ScopeClaim? = nil) throws -> Component {
        let build = self.build
        if key.isNaN { throw nanIdentity(cls, "{key = nan}: a key") }
        let component = Component(componentClass: cls, props: props, key: key, generation: build?.generation ?? 0)
        if let build { component.madeBy = build.running.maker(self) } else { component.madeBy = madeOutsideBuilds() }
        guard cls.declaresScope else {
            if let controllerClass = try controllerClass(for: cls) {
                throw RuntimeError(.controllerWithoutScope, "\(cls.shownName) has controller \(controllerClass.shownName) but declares no scope; add scope = true to \(cls.shownName) or drop its controller",
                                   at: currentLocation())
            }
            component.enclosingScope = build?.currentScope
            component.hostLink = build?.hostLink
            return component
        }
        // A controller named by a string that names none is `[unknownClass]` here, where the
        // scope resolves (SPEC §4); the commit only attaches what this found.
        if cls.controllerName != nil { _ = try controllerClass(for: cls) }
        guard let build else {
            throw RuntimeError(.outsideBuild, "\(cls.shownName) declares a scope and was constructed outside a build; construct it in a host's provider or a render")
        }
        var identifier = computed ?? .nil
        if computed == nil, case .computed(let f) = cls.scope {
            renderDepth += 1
            defer { renderDepth -= 1 }
            identifier = try f(component)
        }
        if identifier.isNaN { throw nanIdentity(cls, "'s scope function returned NaN: a scope identifier") }
        let parent = build.currentScope
        let (scope, isNew) = claim.map { ($0.scope, $0.isNew) }
            ?? build.claim(ScopeIdentity(className: cls.name, classNameHash: cls.nameHash, identifier: identifier, key: key),
                           in: parent, runtime: self)
        if isNew, let initial = cls.initialState { try setInitialState(initial, of: component, scope, in: build) }
        component.scope = scope
        component.propsChanged = claim?.propsChanged ?? false
        component.state = build.state(of: scope)
        component.enclosingScope = parent
        component.hostLink = build.hostLink
        return component
    }
}

extension Runtime {
    /// Identifiers and keys compare as `rawequal` does, and NaN is not `rawequal` to itself: it
    /// names no scope or place that a later build could find again (docs/api.md).
    fileprivate func nanIdentity(_ cls: ComponentClass, _ what: String) -> RuntimeError {
        RuntimeError(.badArgument, "\(cls.shownName)\(what) cannot be NaN: identifiers and keys compare as rawequal does, and NaN equals nothing, not even itself; compute it from a number that is not 0/0 (or use a string)",
                     at: currentLocation())
    }

    /// Who constructs an instance outside any build: the script, at the line that constructed it
    /// (a message about it then leads there, not to the line that tapped it: atk-stale 05).
    fileprivate func madeOutsideBuilds() -> Component.Maker {
        guard let at = currentLocation() else { return .script }
        return .site(MakerSite(code: Component.Maker.script.description, location: at))
    }

    /// A new scope's state from its class's `initialState`; an error leaves the build naming it.
    private func setInitialState(_ initial: (Component) throws -> Value, of component: Component, _ scope: Scope,
                                 in build: BuildContext) throws {
        renderDepth += 1
        defer { renderDepth -= 1 }
        let outer = build.running
        build.running = .initialState(scope)
        build.setInitial(try initial(component), of: scope)
        build.running = outer
    }
}

/// `[buildFailed]`: a build that raised (a rebuild is rolled back; a first build makes no
/// host); `cause` and `traceback` are the render's own error.
public struct BuildFailure: Error, CustomStringConvertible {
    public let detail: String
    public let cause: String
    public let traceback: String

    /// The first line and the render's message (the bridge raises this; the traceback follows).
    public var message: String { Self.text(Catalogue.buildFailed.message(detail), over: cause) }
    public var description: String { traceback.isEmpty ? message : message + "\n" + traceback }

    /// The `[buildFailed]` line `head` over the render's message `cause`. A host built inside a
    /// render, level after level, fails the same way at each: a cause starting with `head` itself
    /// is counted on one line, not repeated once a level (atk-repl 16: 64 lines before the cause).
    public static func text(_ head: String, over cause: String) -> String {
        var lines = cause.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.first.map(String.init) == head else { return head + "\n" + cause }
        lines.removeFirst()
        var count = 1
        if let second = lines.first, second.hasPrefix(repeatPrefix),
           let n = Int(second.dropFirst(repeatPrefix.count).prefix(while: { $0.isASCII && $0.isNumber })) {
            count = n + 1
            lines.removeFirst()
        }
        let repeats = repeatPrefix + "\(count) more time\(count == 1 ? "" : "s"), each in a build nested in the one above; the cause follows)"
        return ([head, repeats] + lines.map(String.init)).joined(separator: "\n")
    }

    /// Whether `line` is the count `text(_:over:)` puts under a heading for the same heading
    /// repeated below it: no message of its own (a reader after the cause skips it).
    public static func isRepeatCount(_ line: some StringProtocol) -> Bool { line.hasPrefix(repeatPrefix) }

    private static let repeatPrefix = "(the same [\(Catalogue.buildFailed.rawValue)] "
}
