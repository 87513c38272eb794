/// The bottom row: the app's generation, the clock, the timers pending, after the last error
/// when there is one.
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
        let state = [generation, clock, timers].joined(separator: " · ")
        // An error comes first: its id and place are what a cut row must still show.
        guard let error = info.lastError else { return [(" " + state + " · ", .status), ("no errors", .status)] }
        return [(" last error: " + ErrorHeadline.of(error), .error), (" · " + state, .status)]
    }

    static func seconds(_ s: Double) -> String {
        let tenths = (s * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths)) s" : "\(tenths) s"
    }
}
