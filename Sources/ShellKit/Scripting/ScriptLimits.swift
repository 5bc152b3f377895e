// ScriptLimits: how big a variable may grow and how deep aliases and $(…) may nest — bounds that
// turn a runaway script into one error line instead of a process eating the machine.

import ShopCore

/// The bounds of the shell's scripting.
public enum ScriptLimits {
    /// The largest value a variable (or one expanded word) holds: 1 MiB.
    public static let maxValueBytes = 1 << 20
    /// The largest alias body.
    public static let maxAliasBytes = 64 << 10
    /// How deep aliases may call one another.
    public static let maxAliasDepth = 16
    /// How deep `$(…)` may nest.
    public static let maxCaptureDepth = 8
    /// How many variables and how many aliases a run may hold.
    public static let maxEntries = 10_000

    /// Refuses `value` when it is larger than ``maxValueBytes``; `what` names it in the message.
    public static func checkValue(_ value: String, what: String) throws(ShopError) {
        let size = value.utf8.count
        guard size <= maxValueBytes else {
            throw .invalidInput("\(what) is \(size) bytes; a variable or word holds at most \(maxValueBytes) bytes (1 MiB)")
        }
    }
}
