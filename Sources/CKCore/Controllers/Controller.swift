/// The long-lived object of a scope: created once with its first generation, kept across
/// generations, invalidated once when the scope leaves the tree or the host is destroyed.
public final class Controller: RuntimeObject {
    /// Its class: a class redefined under the same name (the REPL's `.reload`) takes over at
    /// the scope's next build, so edited handlers and callbacks apply to live controllers.
    public internal(set) var controllerClass: ControllerClass {
        didSet {
            oldValue.liveControllers -= 1
            controllerClass.liveControllers += 1
        }
    }
    /// Weak: the scope owns the controller.
    public internal(set) weak var scope: Scope?
    /// The latest component of its scope.
    public internal(set) var component: Component
    public internal(set) var isInvalidated = false
    /// Lua-side fields live with the script; the core keeps only lifecycle facts.
    var isMounted = false
    var mountedComponent: Component?
    /// The component this controller last saw mounted: an update is a mount of a different one.
    var lastMountedComponent: Component?
    var acquiredView: View?
    /// Told `componentTreeWillAppear` and not yet `componentTreeDidDisappear`.
    var hasAppeared = false
    /// The bridge's table of the controller's script fields (`self.x = …`), released with it.
    public var scriptFields: ScriptRef?

    init(controllerClass: ControllerClass, scope: Scope?, component: Component) {
        self.controllerClass = controllerClass
        self.scope = scope
        self.component = component
        controllerClass.liveControllers += 1
    }

    /// What points back at this controller without keeping it (an action's target), cleared as it goes.
    private var ownLink: BackLink<Controller>?
    var backLink: BackLink<Controller> { BackLink.of(self, in: &ownLink) }

    deinit {
        ownLink?.target = nil
        controllerClass.liveControllers -= 1
        Reaper.release(self)
    }

    override var holdsUniqueLinks: Bool {
        Reaper.unique(&mountedComponent) || Reaper.unique(&lastMountedComponent) || Reaper.unique(&acquiredView)
    }

    /// `component` is not optional: it stays, and frees its own links when it goes.
    override func moveLinks(into stack: inout [RuntimeObject]) {
        if let c = mountedComponent { stack.append(c); mountedComponent = nil }
        if let c = lastMountedComponent { stack.append(c); lastMountedComponent = nil }
        if let v = acquiredView { stack.append(v); acquiredView = nil }
    }

    public override var typeName: String { controllerClass.name }
    /// Until invalidated.
    public override var keepsItsHandle: Bool { !isInvalidated }
    public var view: View? { acquiredView }
}
