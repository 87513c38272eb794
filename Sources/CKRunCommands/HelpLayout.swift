#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Help text laid out for the width it is printed at: the width ArgumentParser wraps to
/// (`COLUMNS`, else the terminal's, else 80 on a pipe), so a table never wraps mid-row.
enum HelpLayout {
    static var width: Int {
        if let columns = Environment.value("COLUMNS").flatMap({ Int($0) }), columns > 0 {
            return columns
        }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// `text` with each line longer than `width` broken at spaces, its rows after the first
    /// indented as the line is plus two: ArgumentParser leaves its own closing line ("See
    /// 'ckrun help <subcommand>' for detailed help.") and long usage lines as they are.
    static func fitted(_ text: String, width: Int) -> String {
        guard width > 10 else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.count > width else { return String(line) }
            let indent = String(line.prefix { $0 == " " })
            var rows: [String] = []
            var row = ""
            for word in line.split(separator: " ") {
                if !row.isEmpty && row.count + 1 + word.count > width {
                    rows.append(row)
                    row = ""
                }
                row = row.isEmpty ? (rows.isEmpty ? indent : indent + "  ") + word : row + " " + word
            }
            rows.append(row)
            return rows.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Rows of `(option, meaning)`: two pairs a line when they fit in `width`, else one.
    /// ArgumentParser re-wraps a line as long as the width, so lines stay shorter than it.
    static func table(_ rows: [(String, String)], width: Int) -> String {
        let optionWidth = (rows.map(\.0.count).max() ?? 0) + 3
        let cells = rows.map { "  " + $0.0.padded(to: optionWidth) + $0.1 }
        let cellWidth = (cells.map(\.count).max() ?? 0) + 3
        guard cellWidth * 2 < width else { return cells.joined(separator: "\n") }
        return stride(from: 0, to: cells.count, by: 2).map { i in
            i + 1 < cells.count ? cells[i].padded(to: cellWidth) + cells[i + 1] : cells[i]
        }.joined(separator: "\n")
    }
}
