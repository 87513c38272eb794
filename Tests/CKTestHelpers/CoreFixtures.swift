import CKCore

/// Builds component and controller classes from Swift closures, for tests of the core alone.
public final class CoreFixture {
    public let runtime = Runtime()
    public var log: [String] = []
    public var warnings: [String] = []
    public var renders: [String: Int] = [:]

    public init() {
        runtime.onWarning = { [unowned self] in self.warnings.append($0) }
    }

    /// A class whose render calls `body` (children built with `make`).
    @discardableResult
    public func component(_ name: String, scope: Bool = false, identifiedByProps: Bool = false,
                          view: String? = nil, pure: Bool = false, initialState: Value = .nil,
                          render body: ((Component) throws -> Component?)? = nil) -> ComponentClass {
        let cls = ComponentClass(name: name)
        if identifiedByProps { cls.scope = .computed { $0.props } } else if scope { cls.scope = .anonymous }
        if let view { cls.view = { _ in ViewSpec(viewClass: view) } }
        cls.isPure = pure
        cls.initialState = { _ in initialState }
        cls.render = { [unowned self] c in
            self.renders[name, default: 0] += 1
            return try body?(c)
        }
        runtime.define(cls)
        return cls
    }

    /// A class whose children are `make(c)` (a stack).
    @discardableResult
    public func stack(_ name: String, _ make: @escaping (Component) throws -> [Component]) -> ComponentClass {
        let cls = ComponentClass(name: name)
        cls.children = { (try make($0), nil) }
        runtime.define(cls)
        return cls
    }

    /// A controller class that logs every lifecycle callback as `Name.callback`.
    @discardableResult
    public func controller(_ name: String, handlers: [String: Method] = [:]) -> ControllerClass {
        let cls = ControllerClass(name: name)
        for callback in ["init", "didInit", "willMount", "didMount", "willRemount", "didRemount", "willUnmount",
                         "didUnmount", "willUpdateComponent", "didUpdateComponent", "componentDidAcquireView",
                         "componentWillRelinquishView", "componentTreeWillAppear", "componentTreeDidDisappear",
                         "invalidateController"] {
            cls.setMethod(Method(name: callback, parameterCount: 1) { [unowned self] _, _ in
                self.log.append("\(name).\(callback)")
            }, named: callback)
        }
        for (selector, m) in handlers { cls.setMethod(m, named: selector) }
        runtime.define(cls)
        return cls
    }

    /// A handler that records what it received.
    public func handler(_ name: String, parameters: Int, vararg: Bool = false, into received: @escaping ([Value]) -> Void) -> Method {
        Method(name: name, parameterCount: parameters, isVararg: vararg) { _, args in received(args) }
    }

    public func make(_ cls: ComponentClass, props: Value = .nil, key: Value = .nil) throws -> Component {
        try runtime.construct(cls, props: props, key: key)
    }
}
