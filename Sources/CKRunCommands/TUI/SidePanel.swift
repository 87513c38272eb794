/// The side panel: the focused view's component and its responder chain (SPEC §6.1), then the
/// trace of the last tap: each action sent, who was asked, who handled it, and the arguments
/// the handler received. Long lines wrap (the focused path keeps one row: its end); when it
/// all does not fit, the middle of the chain gives way first.
enum SidePanel {
    typealias Line = (text: String, style: CellStyle)

    /// The focused view's component: its label, its path, and the responders from it to nil.
    struct Focused: Equatable {
        var label: String
        var path: String
        var chain: [String]
    }

    /// A chain shows at least this many responders when cut (the first ones and the last).
    static let shortestChain = 3
    /// The head (label, path, title) wraps to at most this many rows a line, leaving the chain its room.
    static let pathRows = 4

    /// `scrolledAway`: nothing is focused because the page scrolled to shows no view that takes
    /// a tap (the app has some).
    static func lines(focused: Focused?, scrolledAway: Bool = false, trace: [Line], width: Int, height: Int) -> [Line] {
        guard let focused else {
            let nothing: [Line] = scrolledAway
                ? [("Nothing focused", .title), (" no view on this page takes a tap; Tab focuses one", .dim)]
                : [("Nothing to focus", .title), (" no view here takes a tap", .dim)]
            return wrap(nothing + spaced(trace), width, rows: height)
        }
        let head = wrap([("Focused: " + focused.label, .title), (" " + endOf(focused.path, fitting: width - 1), .dim), ("", .plain),
                         ("Responder chain", .title)], width, rows: pathRows)
        let tail = wrap(spaced(trace), width, rows: height)
        let chain = focused.chain.enumerated().map { (" " + ($0.offset == 0 ? "" : "→ ") + $0.element, CellStyle.plain) }
        let room = max(shortestChain, height - head.count - tail.count)
        return Array((head + cut(wrap(chain, width, rows: height), to: room) + tail).prefix(height))
    }

    /// A path on one row of `columns` cells: whole when it fits, else its end from a `/` on
    /// (`…/Row#2/Stack/Button`), where the focused component and its nearest parents are; a last
    /// name too long for the row alone keeps its end. Reads no more of the path than the row.
    static func endOf(_ path: String, fitting columns: Int) -> String {
        guard columns > 1, Cells.suffix(path, fitting: columns).utf8.count < path.utf8.count else { return path }
        let end = Cells.suffix(path, fitting: columns - 1)
        guard let slash = end.firstIndex(of: "/"), end.index(after: slash) < end.endIndex else { return "…" + end }
        return "…" + end[slash...]
    }

    /// The trace after a blank line, if there is one.
    private static func spaced(_ trace: [Line]) -> [Line] { trace.isEmpty ? [] : [("", .plain)] + trace }

    /// The first lines and the last, with a line saying how many were left out between.
    static func cut(_ lines: [Line], to room: Int) -> [Line] {
        guard lines.count > room, room >= 2 else { return Array(lines.prefix(room)) }
        let kept = room - 2
        return Array(lines.prefix(kept)) + [("   … \(lines.count - kept - 1) more", .dim), lines[lines.count - 1]]
    }

    /// `row`, a prefix of `whole`, shortened to end after its last space or `/` when it cuts a
    /// word and one is in its second half.
    private static func breakable(_ row: String, whole: String) -> String {
        guard row.count < whole.count, let cut = row.lastIndex(where: { $0 == " " || $0 == "/" }),
              row.distance(from: row.startIndex, to: cut) >= row.count / 2 else { return row }
        return String(row[...cut])
    }

    /// Each line cut into rows of `width` cells, at most `rows` of them (a longer line ends
    /// with `…`: a 60,000-deep path is not wrapped whole to show a screenful); the rows after
    /// the first start three cells in.
    static func wrap(_ lines: [Line], _ width: Int, rows: Int = 1000) -> [Line] {
        guard width > 4 else { return lines }
        var out: [Line] = []
        for line in lines { out += wrap(line, width, rows: max(1, rows)) }
        return out
    }

    private static func wrap(_ line: Line, _ width: Int, rows: Int) -> [Line] {
        // Only what `rows` rows can show is wrapped: the work stays a screenful's.
        var rest = Cells.prefix(line.text, fitting: rows * width + 1)
        var out: [Line] = []
        repeat {
            let first = out.isEmpty
            let row = breakable(Cells.prefix(rest, fitting: first ? width : width - 3), whole: rest)
            out.append(((first ? "" : "   ") + row, line.style))
            rest = String(rest.dropFirst(row.count))
        } while !rest.isEmpty && out.count < rows
        if rest.isEmpty && Cells.width(line.text) <= rows * width { return out }
        out[out.count - 1].text = Cells.prefix(out[out.count - 1].text, fitting: width - 1) + "…"
        return out
    }
}
