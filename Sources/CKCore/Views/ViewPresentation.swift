/// How a screen (the live view, `--tui`) shows a view of a class, declared once by view class:
/// a `UIButton` is a button and a `UILabel` a label whoever made it (`ck.Button`, an app's own
/// component's `view`, `ck.View{class = "UIButton"}`), as in UIKit. The built-ins read it for
/// their view class (`Builtin.presentation`), the live view for every mounted view.
public struct ViewPresentation: Sendable, Equatable {
    /// The attribute whose value the view shows as its text (a label's `text`, a button's
    /// `title`); nil: the view shows no text of its own.
    public let text: String?
    /// Whether the view takes focus to receive gestures, sending anything or not (a button);
    /// a view of another class takes it when a tap would send something.
    public let focusable: Bool

    public init(text: String? = nil, focusable: Bool = false) {
        self.text = text
        self.focusable = focusable
    }

    /// The view classes a screen knows how to show. Adding one is a row here (and its line in
    /// docs/tui.md, *What is drawn*).
    public static let byViewClass: [(viewClass: String, presentation: ViewPresentation)] = [
        ("UILabel", ViewPresentation(text: "text")),
        ("UIButton", ViewPresentation(text: "title", focusable: true)),
    ]

    /// How a view of `viewClass` shows; nil: a class without a row (drawn as a box of its
    /// attributes).
    public static func of(_ viewClass: String?) -> ViewPresentation? {
        guard let viewClass else { return nil }
        return byViewClass.first { $0.viewClass == viewClass }?.presentation
    }
}
