/// The bottom row: the app's generation, the clock, the timers pending and the last error.
enum StatusLine {
    struct Info: Equatable {
        var generation: Int?
        /// "wall" or "virtual".
        var clock = "wall"
        var seconds = 0.0
        var paused = false
        var pendingTimers = 0
        var lastError: String?
    }

    /// The row's parts in order, each with its style.
    static func segments(_ info: Info) -> [(text: String, style: CellStyle)] {
        let generation = info.generation.map { "generation \($0)" } ?? "no app"
        let clock = "\(info.clock) clock \(seconds(info.seconds))\(info.paused ? " (paused)" : "")"
        let timers = info.pendingTimers == 1 ? "1 timer pending" : "\(info.pendingTimers) timers pending"
        var parts: [(String, CellStyle)] = [(" " + [generation, clock, timers].joined(separator: " · ") + " · ", .status)]
        if let error = info.lastError {
            parts.append(("last error: " + ErrorHeadline.of(error), .error))
        } else {
            parts.append(("no errors", .status))
        }
        return parts
    }

    static func seconds(_ s: Double) -> String {
        let tenths = (s * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
    }
}
