/// How a class declares its scope.
public enum ScopeDeclaration {
    case none
    case anonymous                                       // scope = true
    case computed((Component) throws -> Value)           // scope = function(props) -> identifier
}

/// A component class defined by `ck.component(name, def)` or built in.
public final class ComponentClass: RuntimeObject {
    public let name: String
    public var render: ((Component) throws -> Component?)?
    /// Where the script's render function is defined (`file:line`), for errors about what it returned.
    public var renderDefinition: String?
    /// Children for layout built-ins that hold several (Stack), with each one's entry in the
    /// script's list when the list had holes (`Component.slot(ofChildAt:)`); nil for composites.
    public var children: ((Component) throws -> (components: [Component], slots: [Int32]?))?
    public var view: ((Component) throws -> ViewSpec?)?
    /// Where the script gave the view (`file:line` of its view function, or of the definition
    /// that gave a view table), for errors found in the spec; nil for a built-in's.
    public var viewDefinition: String?
    /// Whether `view` runs a script's view function (messages say "the view function of").
    public var hasViewFunction = false
    public var scope: ScopeDeclaration = .none
    public var initialState: ((Component) throws -> Value)?
    /// An explicit controller class name; nil means `<Name>Controller` if it exists.
    public var controllerName: String? { didSet { resolvedController = nil } }
    /// Where the script named it (`file:line` of the definition or of `Class.controller = …`),
    /// for `[unknownClass]` when no controller class has that name.
    public var controllerNameSite: String?
    /// The controller class found for this class, and the runtime's controller version it was found at.
    var resolvedController: ResolvedController?
    public var isPure = false
    public var shouldUpdate: ((_ old: Component, _ new: Component) throws -> Bool)?
    public var canPerformAction: ((_ component: Component, _ selector: String, _ sender: Responder?) throws -> Bool)? {
        didSet { methodTable.selectors?.methodsChanged() }
    }
    /// Typed action props: prop name → declared types.
    public var actionProps: [(name: String, types: [TypeSpec])] = []
    var methodTable = MethodTable()
    /// Reads a prop by name (for action props and `key`); set by the script side.
    public var readProp: ((Component, String) -> Value)?
    /// The props the class reads, when it lists them (the built-ins): a script that passes
    /// another is warned (`[unknownProp]`), at its `Class(props)`.
    public private(set) var knownProps: [String]?
    /// The declaration of a built-in class.
    public var builtin: Builtin? { didSet { knownProps = builtin?.propNames } }
    /// What a bridge keeps for the class, released with it: its script table of fields and
    /// methods, and its scope function when that is a script function.
    public var scriptTable: ScriptRef?
    public var scriptScopeFunction: ScriptRef?

    /// `name.hashValue`, for scope identities.
    let nameHash: Int

    public init(name: String) {
        self.name = name
        nameHash = name.hashValue
    }

    public override var typeName: String { "component class" }

    public var declaresScope: Bool {
        if case .none = scope { return false }
        return true
    }

    public var methods: [String: Method] { methodTable.byName }
    public func setMethod(_ method: Method?, named name: String) { methodTable.set(method, named: name) }
    public func method(_ name: String) -> Method? { methodTable.method(name) }
    func method(id: Int, name: String) -> Method? { methodTable.method(id: id, name: name) }
}

/// A cache entry, not an owner: read only while `version` is the runtime's, when the runtime
/// still holds the class it names. (Held strongly, a class kept the controller class it once
/// resolved, and what a bridge owns for it, after a reload replaced both.)
struct ResolvedController {
    let version: Int
    unowned(unsafe) let controller: ControllerClass?
}

/// A controller class defined by `ck.controller(name, def)`.
public final class ControllerClass: RuntimeObject {
    public let name: String
    /// The bridge's script table of the class's fields and methods, released with it.
    public var scriptTable: ScriptRef?
    /// Told when the class gets its first live controller and when its last one goes: the
    /// controllers hold the class, so a bridge keeps its script values rooted meanwhile.
    public var onLiveControllers: ((Bool) -> Void)?
    var liveControllers = 0 {
        didSet { if (oldValue == 0) != (liveControllers == 0) { onLiveControllers?(liveControllers > 0) } }
    }
    var methodTable = MethodTable()
    public var canPerformAction: ((_ controller: Controller, _ selector: String, _ sender: Responder?) throws -> Bool)? {
        didSet { methodTable.selectors?.methodsChanged() }
    }

    public init(name: String) {
        self.name = name
    }

    public override var typeName: String { "controller class" }

    public var methods: [String: Method] { methodTable.byName }
    public func setMethod(_ method: Method?, named name: String) { methodTable.set(method, named: name) }
    public func method(_ name: String) -> Method? { methodTable.method(name) }
    func method(id: Int, name: String) -> Method? { methodTable.method(id: id, name: name) }
}
