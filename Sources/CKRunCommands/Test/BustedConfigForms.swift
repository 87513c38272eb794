import ArgumentParser
import CKCore

/// The forms busted 2.1.1 takes each `.busted` key in (its `modules/cli.lua` and `runner.lua`),
/// one declaration the reader normalizes every key through: a string or a table of strings where
/// busted makes a list, a flag by its truth (`1` and `"no"` are on, as in Lua), a string alone
/// where busted concatenates or opens it. A form busted fails on is refused here with what to
/// write instead, never read as part of what was meant (a table of `lpath`s kept its first).
enum BustedConfigForm: Equatable {
    /// A string or a table of strings (busted's makeList and fixupList; commas are split later).
    case list
    /// A table of strings only: busted walks it with ipairs, so a string gives it nothing.
    case table
    /// A string (a number is its text): busted concatenates or opens it, and fails on a table.
    case text
    /// A number, or a string of one: busted's tonumber.
    case number
    /// On unless false (Lua's truth).
    case flag

    static let keys: [String: BustedConfigForm] = {
        var keys: [String: BustedConfigForm] = ["ROOT": .table, "repeat": .number, "timeout": .number]
        for key in ["pattern", "exclude-pattern", "e", "filter", "filter-out", "tags", "exclude-tags", "loaders", "Xoutput", "Xhelper"] {
            keys[key] = .list
        }
        for key in ["lpath", "cpath", "helper", "output", "lang", "seed", "coverage-config-file", "directory"] { keys[key] = .text }
        for key in ["coverage", "verbose", "enable-sound", "list", "ignore-lua", "lazy", "auto-insulate", "keep-going",
                    "no-keep-going", "recursive", "shuffle", "shuffle-files", "shuffle-tests", "sort", "sort-files", "sort-tests",
                    "suppress-pending", "defer-print"] {
            keys[key] = .flag
        }
        return keys
    }()

    /// One key's values as the options read them (a flag as "true" or "false"), given the Lua
    /// type its value had (`table`, `string`, `number`, `boolean`, …) and its values as text.
    static func normalize(key: String, type: String, values: [String]) throws -> [String] {
        let form = keys[key], key = written(key)
        switch (form, type) {
        case (nil, _), (.list?, _), (.table?, "table"): return values
        case (.flag?, "boolean"): return values
        case (.flag?, _): return ["true"]
        case (.text?, "string"), (.text?, "number"): return values
        case (.number?, "number"): return values
        case (.number?, "string") where values.first.flatMap(Double.init) != nil: return values
        case (.table?, _):
            let example = "{ \"" + Excerpt.text(values.first ?? "spec") + "\" }"
            throw ValidationError(".busted \(key) is \(Article.with(type)): busted 2.1.1 reads only a table of paths there (a string gives it no test files); write \(key) = \(example)")
        case (.text?, "table") where key == "lpath" || key == "cpath":
            let joined = values.joined(separator: ";")
            throw ValidationError(".busted \(key) is a table: busted 2.1.1 takes one string of paths separated by ';' there (it fails on a table); write \(key) = \"\(Excerpt.text(joined))\"")
        case (.text?, _):
            throw ValidationError(".busted \(key) is \(Article.with(type)): busted 2.1.1 takes a string there; write \(key) = \"…\"")
        case (.number?, _):
            throw ValidationError(".busted \(key) is \(Article.with(type)) (\(Excerpt.text(values.first ?? ""))): it takes a number, as busted's tonumber reads it; write \(key) = 2")
        }
    }

    /// A key as a `.busted` file writes it: `["repeat"]` and `["shuffle-tests"]` are not names.
    static func written(_ key: String) -> String {
        let keywords: Set<String> = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
                                     "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]
        let isName = key.first.map { !$0.isNumber } ?? false && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return isName && !keywords.contains(key) ? key : "[\"" + Excerpt.text(key) + "\"]"
    }
}
