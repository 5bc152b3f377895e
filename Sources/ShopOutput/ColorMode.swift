// ColorMode: the `--color` setting and the one rule that turns it into yes or no.

/// Whether to colour output: `auto` colours only a terminal and honours `NO_COLOR`.
public enum ColorMode: String, CaseIterable, Sendable {
    case auto, always, never

    /// Resolves the mode for one output stream.
    ///
    /// `always` and `never` win over everything. `auto` colours only when the stream is a
    /// terminal, `NO_COLOR` is unset or empty (see no-color.org) and `TERM` is not `dumb`.
    public func isEnabled(outputIsTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return outputIsTerminal
        }
    }
}
