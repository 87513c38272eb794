extension Component {
    /// Where an instance was constructed: the script's own code outside any build, a host's
    /// provider, or the render (or view, shouldUpdate, initialState or update function) of a
    /// component of a class.
    public enum Maker {
        case script
        case provider
        case render(ComponentClass)
        /// A scope's `initialState` or an update function queued for it (a state holding
        /// components). No payload: the enum stays one word in every component.
        case stateFunction

        /// `the render of List`, `the host's provider`, `the script's top-level code`.
        public var description: String {
            switch self {
            case .script: "the script's code outside any build"
            case .provider: "the host's provider"
            case .render(let cls): "the render of \(cls.name)"
            case .stateFunction: "an initialState or update function"
            }
        }

        /// Where that code is defined, when known: a render's or a provider's `file:line`.
        public func definition(in host: Host?) -> String? {
            switch self {
            case .script, .stateFunction: nil
            case .provider: host?.providerDefinition
            case .render(let cls): cls.renderDefinition
            }
        }
    }
}
