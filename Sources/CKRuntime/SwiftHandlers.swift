/// The Swift handlers of one host's responders. The host holds them and lets them go when it is
/// destroyed or dropped: Lua's functions for them only reach them through this, so a handler
/// that captures its runtime no longer keeps it alive through the runtime's own tables until a
/// collection that never came (attack lib 09: every such runtime leaked, ~100 KB each).
final class SwiftHandlers {
    private var handlers: [HostResponder.Handler] = []
    private(set) var isReleased = false

    /// Keeps `handler`; returns its index for ``handler(_:)``.
    func add(_ handler: @escaping HostResponder.Handler) -> Int {
        handlers.append(handler)
        return handlers.count - 1
    }

    /// The handler at `index`, or nil once released.
    func handler(_ index: Int) -> HostResponder.Handler? {
        isReleased ? nil : handlers[index]
    }

    /// Lets every handler (and what it captured) go.
    func release() {
        isReleased = true
        handlers = []
    }
}
