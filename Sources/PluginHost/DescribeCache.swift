// DescribeCache: external plugins' descriptions kept in $XDG_CACHE_HOME/shopsh/plugins.json,
// by path, size and modification time, so a new shopsh process need not run every describe.

import Foundation
import PluginProtocol

/// The file cache of describe results. A usable description is kept as the text the plugin
/// printed (parsed again when read, so a newer shell reads it with its own rules); a failed
/// describe is not kept, so it is tried again (and warned about) on the next run.
struct DescribeCache {
    let file: String

    init(environment: [String: String]) {
        let cacheHome = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        file = cacheHome + "/shopsh/plugins.json"
    }

    /// The cached status of `path` if the file is unchanged since.
    func lookup(path: String, file state: FileState) -> ExternalPlugin.Status? {
        guard let entry = entries()[path] as? [String: Any], matches(entry, state),
              let text = entry["description"] as? String,
              let description = try? PluginDescription.parse(Array(text.utf8)) else { return nil }
        return .ok(description)
    }

    /// Keeps a usable description (best effort: a cache that cannot be written is no error).
    func store(path: String, file state: FileState, status: ExternalPlugin.Status, output: [UInt8]?) {
        guard status.isOK, let output, let text = String(validating: output, as: UTF8.self) else { return }
        var all = entries()
        all[path] = ["size": state.size, "modified": state.modified, "nanoseconds": state.modifiedNanoseconds,
                     "description": text]
        guard let data = try? JSONSerialization.data(withJSONObject: all, options: [.sortedKeys]) else { return }
        let folder = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? data.write(to: URL(fileURLWithPath: file), options: .atomic)
    }

    private func entries() -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: file),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    private func matches(_ entry: [String: Any], _ state: FileState) -> Bool {
        (entry["size"] as? NSNumber)?.int64Value == state.size
            && (entry["modified"] as? NSNumber)?.int64Value == state.modified
            && (entry["nanoseconds"] as? NSNumber)?.intValue == state.modifiedNanoseconds
    }
}
