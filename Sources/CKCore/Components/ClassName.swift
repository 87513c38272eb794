/// What a component class's name may hold: a component's printed name (`ScopeName`) starts with
/// it and is a query that finds it (docs/api.md, *Queries*), so a name holding what a query or a
/// path reads as structure (`My Row`, `x#y`, `p>q`, `a/b`, `S[2]`) printed as something else and
/// no query found it (attack atk-repl 12). Such names are refused where the class is defined.
public enum ClassName {
    /// Why `name` cannot name a component class, or nil when it can.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name == "*" { return "is `*`, which a query reads as any class" }
        for scalar in name.unicodeScalars {
            switch scalar {
            case " ", "\t": return "holds a space, which a query reads as 'inside'"
            case "#": return "holds `#`, which a name reads as the start of an id"
            case ">": return "holds `>`, which a query reads as 'child of'"
            case "[", "]": return "holds `\(scalar)`, which a query reads as a sibling position"
            case "/": return "holds `/`, which a path reads as a level"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.isWhitespace:
                return "holds a control or space character"
            default: continue
            }
        }
        return nil
    }
}
