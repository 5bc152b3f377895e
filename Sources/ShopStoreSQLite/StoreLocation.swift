// StoreLocation: where the default store lives ($XDG_DATA_HOME/shopsh/shop.sqlite).

import Foundation

/// Finds the store file to use from flags and the environment.
public enum StoreLocation {
    /// `$XDG_DATA_HOME/shopsh/shop.sqlite`, or `~/.local/share/shopsh/shop.sqlite` when
    /// XDG_DATA_HOME is unset, empty or not absolute (as the XDG spec says).
    public static func defaultPath(environment: [String: String]) -> String {
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return dataHome + "/shopsh/shop.sqlite"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/shopsh/shop.sqlite"
    }

    /// The history file for a store: one per store, beside the user's state files
    /// (`$XDG_STATE_HOME/shopsh/history-<name>`), so a test store never pollutes the main one.
    public static func historyPath(forStore storePath: String, environment: [String: String]) -> String {
        let stateHome: String
        if let value = environment["XDG_STATE_HOME"], value.hasPrefix("/") {
            stateHome = value
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            stateHome = home + "/.local/state"
        }
        let name = storeName(storePath)
        // A server's location (`postgres://…`) is no path: made "absolute" it would name another
        // history in each working directory.
        let key = storePath.contains("://") ? storePath : URL(fileURLWithPath: storePath).standardizedFileURL.path
        return stateHome + "/shopsh/history-\(name)-\(stableHash(key))"
    }

    /// The name shown in the prompt: the file name without its extension.
    public static func storeName(_ storePath: String) -> String {
        let file = (storePath as NSString).lastPathComponent
        let name = (file as NSString).deletingPathExtension
        return name.isEmpty ? file : name
    }

    /// FNV-1a of the path, as 8 hex digits: stable across runs (unlike `hashValue`).
    static func stableHash(_ text: String) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
