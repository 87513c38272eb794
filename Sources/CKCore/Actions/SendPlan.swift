/// What a send resolved to (`Runtime.send(…, onPlan:)`), for a bridge that caches it: valid
/// while `CallState.epoch` is unchanged, because nothing else could make the same send resolve
/// differently. A send has no plan when its answer could change without the chain changing
/// (a `canPerformAction` override or a host responder on the walk), while a tracer records
/// walks, or when nothing handles it.
public struct SendPlan {
    /// The responder whose method handles the send; nil for a block action.
    public let responder: Responder?
    public let method: Method
    public let epoch: Int
}
