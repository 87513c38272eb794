/// Where an action sent from Swift starts its walk (SPEC §6.2's kinds). The component the
/// query finds first (`"Row#2"`, `"List > Row"`) is the sender; a query that finds none is
/// ``ErrorID/noMatch``.
public enum ActionTarget: Sendable, Hashable {
    /// A selector action (`ck.action(selector, types)`): the walk starts at the found
    /// component's next responder (its controller, else its parent), up to the host responders.
    case responderChain(from: String)
    /// A target action (`ck.action(component, selector, types)`): the found component (or its
    /// controller) must have the method.
    case component(String)
    /// A scope action (`component:action(selector, types)`): the newest live component of the
    /// found component's scope handles it.
    case scope(String)

    var kind: String {
        switch self {
        case .responderChain: "selector"
        case .component: "target"
        case .scope: "scope"
        }
    }

    var query: String {
        switch self {
        case .responderChain(let q), .component(let q), .scope(let q): q
        }
    }
}
