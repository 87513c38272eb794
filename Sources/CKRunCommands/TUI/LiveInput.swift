/// What the live view reads: keys, or text. Text (a paste, or the rest of a burst that an Enter
/// at the command line was part of) only ever goes to the command line: it is no `Key`, so the
/// view's bindings (`KeyBindings`: `q` quits, Space taps) cannot take it.
enum LiveInput: Equatable {
    case key(Key)
    /// Text for the command line; a newline in it ends a line there, as Enter does.
    case text(String)

    /// `inputs` as the text they typed: characters as themselves, Enter as a newline, Tab as a
    /// space; keys that type nothing (arrows, Escape) are dropped.
    static func text(of inputs: [LiveInput]) -> String {
        var text = ""
        for input in inputs {
            switch input {
            case .text(let t): text += t
            case .key(let key): text += key.typed
            }
        }
        return text
    }
}

extension Key {
    /// What the key types into text (a paste, a burst): nothing for a key that types nothing.
    var typed: String {
        switch self {
        case .character(let c) where EditingKeys.isText(c): String(c)
        case .enter: "\n"
        case .tab: " "
        default: ""
        }
    }
}

/// Reads what the terminal sent since the last read (none waits): between the bracketed-paste
/// marks (terminfo's PS and PE, which ncurses reads as keys) everything is text, handed over
/// whole at the end mark however many reads the paste takes (a large paste is one change).
struct KeyReader {
    private(set) var pasting = false
    /// The paste read so far, until its end mark.
    private var pasted = ""

    mutating func readAll() -> [LiveInput] {
        var inputs: [LiveInput] = []
        for key in Key.readAll() {
            switch key {
            case .pasteStart: pasting = true
            case .pasteEnd:
                pasting = false
                inputs.append(.text(pasted))
                pasted = ""
            case .resize: inputs.append(.key(key))
            case _ where pasting: pasted += key.typed
            default: inputs.append(.key(key))
            }
        }
        return inputs.filter { $0 != .text("") }
    }
}
