extension Component {
    /// Where an instance was constructed: the script's own code outside any build, a host's
    /// provider, the render (or view, shouldUpdate) of a component of a class, or code whose line
    /// was noted as it ran (`site`: outside any build, a scope's initialState, an update function).
    public enum Maker {
        case script
        case provider
        case render(ComponentClass)
        /// Code that is not a render, with the line that constructed the instance (atk-stale 05:
        /// a sender built at top level, in a timer or an initialState was named at the tap's line).
        /// A class payload: the enum stays one word in every component.
        case site(MakerSite)

        /// `the render of List`, `the host's provider`, `the initialState of List/Row#2`.
        public var description: String {
            switch self {
            case .script: "the script's code outside any build"
            case .provider: "the host's provider"
            case .render(let cls): "the render of \(cls.shownName)"
            case .site(let s): s.code
            }
        }

        /// Where that code is: a render's or a provider's definition's `file:line`, or the line
        /// that constructed the instance.
        public func definition(in host: Host?) -> String? {
            switch self {
            case .script: nil
            case .provider: host?.providerDefinition
            case .render(let cls): cls.renderDefinition
            case .site(let s): s.location
            }
        }
    }
}

/// The code that constructed an instance outside a render, and the `file:line` it ran at:
/// noted only where no render's definition names it (`Runtime.construct`), once per instance.
public final class MakerSite {
    public let code: String
    public let location: String?

    init(code: String, location: String?) {
        self.code = code
        self.location = location
    }
}
