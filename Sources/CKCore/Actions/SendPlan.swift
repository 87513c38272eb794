/// What a send resolves to, for a bridge that caches it: valid while `CallState.epoch` is
/// unchanged, because nothing else could make the same send resolve differently. A send
/// has no plan when its answer could change without the chain changing (a `canPerformAction`
/// override or a host responder on the walk), while a tracer records walks, or when nothing
/// would handle it.
public struct SendPlan {
    /// The responder whose method handles the send; nil for a block action.
    public let responder: Responder?
    public let method: Method
    public let epoch: Int
}

extension Runtime {
    /// The plan for sending `action` from `sender` now (see `SendPlan`). Calls no script code.
    public func plan(_ action: Action, sender: Responder?) -> SendPlan? {
        guard tracer == nil, ThreadIdentity.current == ownerThread else { return nil }
        let epoch = callState.pointee.epoch
        if action.kind == .block { return action.block.map { SendPlan(responder: nil, method: $0, epoch: epoch) } }
        guard case .some(var current) = walkStart(action, sender: sender) else { return nil }
        while let r = current {
            switch lookup(r, action) {
            case .found(let m): return SendPlan(responder: r, method: m, epoch: epoch)
            case .mustAsk: return nil
            case .notFound: current = nextResponder(r)
            }
        }
        return nil
    }
}
