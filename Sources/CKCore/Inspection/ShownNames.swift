/// Names as messages show them (`ObjectText.name`: 200 bytes, then `…` and the length, line
/// breaks escaped), as `tostring` shows them. A message names a class through these, never
/// `name` whole (`check-layout`): a 3,000-byte class name was cut in a path and printed whole
/// beside it (atk-new 18).
extension ComponentClass {
    public var shownName: String { ObjectText.name(name) }
}

extension ControllerClass {
    public var shownName: String { ObjectText.name(name) }
}

extension Component {
    /// Its class's `shownName`.
    public var shownName: String { componentClass.shownName }
}

extension Controller {
    /// Its class's `shownName`.
    public var shownName: String { controllerClass.shownName }
}

extension ScriptResponder {
    public var shownName: String { ObjectText.name(name) }
}
