/// The one formatter of a runtime object's `tostring` (SPEC §8: one line, short). Each name in
/// it is cut as a message cuts one (`Excerpt`: 200 bytes, then its length), and the whole text
/// is kept on one line as a dump line is (`DumpText.oneLine`: a line break in a class name or
/// a selector shows as `\n`). `SwiftFunctions.defineMetatable` puts every `__tostring` through
/// `line`, so no object's text can break a line.
public enum ObjectText {
    /// A name (class, selector, view class, event) as a `tostring` shows it.
    public static func name(_ s: String) -> String { Excerpt.text(s) }

    /// A whole `tostring` on one line.
    public static func line(_ s: String) -> String { DumpText.oneLine(s) }
}
