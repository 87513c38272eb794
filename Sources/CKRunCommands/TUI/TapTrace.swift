import CKCore

/// The side panel's account of a tap: for each action the tap sent, the responders asked in
/// order, the one that handled it, and the arguments its handler received, typed as declared.
enum TapTrace {
    typealias Line = SidePanel.Line

    /// `describe` shows a value as dumps do (it may run a `__tostring`: call it in a turn).
    static func lines(tapped: String, entries: [Tracer.Entry], error: String?, describe: (Value) -> String) -> [Line] {
        var out: [Line] = [("Last tap: " + tapped, .title)]
        if entries.isEmpty && error == nil { out.append((" sent nothing (no tap or touchUpInside action)", .dim)) }
        for entry in entries { out += lines(of: entry, describe: describe) }
        if let error { out.append((" " + ErrorHeadline.of(error), .error)) }
        return out
    }

    /// The build the tap's updates queued failed (`[buildFailed]`): rolled back, `generation`
    /// still shown; what the tap's handler did is undone on screen.
    static func buildFailed(_ error: String, generation: Int?) -> [Line] {
        let kept = generation.map { ", generation \($0) stays" } ?? ""
        return [(" ✗ the build it queued failed and was rolled back\(kept)", .error), ("  " + ErrorHeadline.of(error), .error)]
    }

    static func lines(of entry: Tracer.Entry, describe: (Value) -> String) -> [Line] {
        var out: [Line] = [(" \(entry.selector) from \(entry.sender?.name ?? "nil")", .plain)]
        for (i, visit) in entry.visited.enumerated() {
            if i == entry.visited.count - 1, entry.omittedVisits > 0 { out.append(("  … \(entry.omittedVisits) more asked", .dim)) }
            out.append(visit.handled ? ("  ✓ \(visit.responder.name) handled it", .handled) : ("  asked \(visit.responder.name)", .plain))
        }
        if entry.handled && entry.handler == nil { out.append(("  ✓ its block handled it", .handled)) }
        if !entry.handled { out.append(("  nobody handled it", .error)) }
        if entry.handled && entry.received.isEmpty { out.append(("  got nothing (no parameters)", .dim)) }
        for argument in entry.received {
            out.append(("  got \(argument.type): \(describe(argument.value))", .plain))
        }
        return out
    }
}
