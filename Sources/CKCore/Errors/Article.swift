/// The one place a message puts "a" or "an" before a word it did not write itself (a type's
/// name, a view class): `check-layout` refuses an article written before an interpolation.
public enum Article {
    /// "a number", "an integer", "an Event", "a userdata", "a UIButton": by how the word sounds,
    /// which its first letters tell well enough for type and class names.
    public static func with(_ noun: String) -> String {
        (takesAn(noun) ? "an " : "a ") + noun
    }

    static func takesAn(_ noun: String) -> Bool {
        let letters = Array(noun.prefix(3))
        guard let first = letters.first?.lowercased() else { return false }
        // An acronym says its letters: "an HTML", "a UIButton" ("you-eye").
        if letters.count > 1, letters[0].isUppercase, letters[1].isUppercase {
            return "aefhilmnorsx".contains(first)
        }
        guard "aeiou".contains(first) else { return false }
        // "a userdata", "a unique", "a use": a "you" sound.
        let start = noun.lowercased()
        return !(start.hasPrefix("us") || start.hasPrefix("uni") || start.hasPrefix("eu"))
    }
}
