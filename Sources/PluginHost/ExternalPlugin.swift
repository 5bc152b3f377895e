// ExternalPlugin: an executable `shopsh-NAME` found on the plugin search path, and its state
// (described, shadowed by a built-in, not executable, or its describe failed).

import ShopCore
import PluginProtocol

/// An external plugin found by ``ExternalPluginFinder``.
public struct ExternalPlugin: Sendable, Equatable {
    /// Whether the plugin can run, and why not.
    public enum Status: Sendable, Equatable {
        case ok(PluginDescription)
        /// A built-in command or plugin has the same name: the built-in runs.
        case shadowed
        case notExecutable
        /// `--shopsh-describe` hung, failed, or printed something unusable.
        case describeFailed(String)
    }

    /// The word that runs it (`lowstock` for `shopsh-lowstock`).
    public var name: String
    public var path: String
    public var status: Status

    /// Its description when it can run.
    public var description: PluginDescription? {
        if case .ok(let description) = status { return description }
        return nil
    }

    /// The status as `plugins` shows it.
    public var statusText: String {
        switch status {
        case .ok: return "ok"
        case .shadowed: return "shadowed by a built-in"
        case .notExecutable: return "not executable"
        case .describeFailed(let reason): return "describe failed: " + reason
        }
    }

    /// The warning for a plugin that cannot run (nil when it can).
    public var warning: String? {
        switch status {
        case .ok: return nil
        case .shadowed: return "plugin \(path) is shadowed by the built-in \(name)"
        case .notExecutable: return "plugin \(path) is not executable"
        case .describeFailed(let reason): return "skipping plugin \(path): \(reason)"
        }
    }
}

extension ExternalPlugin.Status {
    var isOK: Bool {
        if case .ok = self { return true }
        return false
    }
}
