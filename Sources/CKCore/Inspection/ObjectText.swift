/// The one formatter of a runtime object's `tostring` (SPEC §8: one line, short). Each name in
/// it is cut as a message cuts one (`Excerpt`: 200 bytes, then its length), and the whole text
/// is kept on one line as a dump line is (`DumpText.oneLine`: a line break in a class name or
/// a selector shows as `\n`). `SwiftFunctions.defineMetatable` puts every `__tostring` through
/// `line`, so no object's text can break a line.
public enum ObjectText {
    /// A name (class, selector, view class, event) as a `tostring` and every message show it:
    /// at most 200 bytes (`Excerpt`), its line breaks escaped. The one cutter of names: a
    /// class's is its `shownName`.
    public static func name(_ s: String) -> String { DumpText.oneLine(Excerpt.text(s)) }

    /// A whole `tostring` on one line.
    public static func line(_ s: String) -> String { DumpText.oneLine(s) }
}
