/// busted's command line (lua_cliargs) takes `--filter=` with nothing after the `=`: the option's
/// value is then cliargs' placeholder text `__CLIARGS_NULL__`, which busted uses as any value.
/// So `--exclude-tags="$EMPTY"` excludes nothing and `--tags=` selects no test, as in busted;
/// ArgumentParser would call the value missing. Only busted's options that take text are
/// rewritten; ckrun's own (`--jobs=`, `--junit=`) stay usage errors.
enum BustedArguments {
    static let emptyValue = "__CLIARGS_NULL__"

    /// Long names, and the short ones standing for them.
    static let textOptions: Set<String> = ["pattern", "exclude-pattern", "filter", "filter-out", "tags", "exclude-tags",
                                           "lpath", "cpath", "output", "run"]
    static let shortNames: [String: String] = ["p": "pattern", "t": "tags", "m": "lpath", "o": "output", "r": "run"]

    /// `ckrun test`'s words with each `--name=` / `-n=` of `textOptions` given busted's value; a
    /// word after `--` is a path, left alone.
    static func normalized(_ words: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(words.count)
        var options = true
        for word in words {
            if word == "--" { options = false }
            result.append(options ? normalized(word) : word)
        }
        return result
    }

    private static func normalized(_ word: String) -> String {
        guard word.hasSuffix("="), word.hasPrefix("-") else { return word }
        let name = word.drop { $0 == "-" }.dropLast()
        if word.hasPrefix("--"), textOptions.contains(String(name)) { return word + emptyValue }
        if !word.hasPrefix("--"), let long = shortNames[String(name)] { return "--\(long)=" + emptyValue }
        return word
    }
}
