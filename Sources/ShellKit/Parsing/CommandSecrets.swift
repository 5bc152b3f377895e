// CommandSecrets: placeholder until the watch/history branch lands its version.

enum CommandSecrets {
    static func masked(_ line: String) -> String { line }
}
