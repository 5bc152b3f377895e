// StartupFile: the start-up file (shopshrc) — where it is, the ssh-style check that nobody else
// can write it, and running its `set`, `alias` and `let` lines before the first command.

import Foundation
import ShopCore

/// The start-up file: `--rc FILE`, else `$SHOPSH_RC`, else `$XDG_CONFIG_HOME/shopsh/shopshrc`
/// (`~/.config/shopsh/shopshrc`); `--no-rc` reads none.
public enum StartupFile {
    /// The commands a start-up file may hold.
    public static let allowedCommands: Set<String> = ["set", "alias", "unalias", "let", "unlet"]
    /// The largest start-up file read.
    public static let maxBytes = 1 << 20

    /// The default file: `$XDG_CONFIG_HOME/shopsh/shopshrc`, or `~/.config/shopsh/shopshrc` when
    /// XDG_CONFIG_HOME is unset or not absolute.
    public static func defaultPath(environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/shopsh/shopshrc" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/shopsh/shopshrc"
    }

    /// Which file to read: `explicit` (`--rc`), else `SHOPSH_RC`, else the default; whether a
    /// missing file is an error (it is when named).
    public static func choose(explicit: String?, environment: [String: String]) -> (path: String, mustExist: Bool) {
        if let explicit { return (explicit, true) }
        if let named = environment["SHOPSH_RC"], !named.isEmpty { return (named, true) }
        return (defaultPath(environment: environment), false)
    }

    /// The file's text; nil when it does not exist and need not.
    ///
    /// - Throws: ``ShopError/invalidInput(_:)`` when others could change it (group- or
    ///   world-writable, or owned by another user than the operator or root) — it is not read
    ///   at all, as ssh refuses such a config — or when it is not a readable regular text file.
    public static func read(_ path: String, mustExist: Bool) throws(ShopError) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT && !mustExist { return nil }
            throw .invalidInput("cannot read the start-up file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .invalidInput("cannot read the start-up file \(path): \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .invalidInput("the start-up file \(path) is not a regular file") }
        if info.st_mode & 0o022 != 0 {
            throw .invalidInput("the start-up file \(path) is writable by others (mode \(String(info.st_mode & 0o777, radix: 8))); "
                + "not reading it: chmod go-w \(path), or run with --no-rc")
        }
        if info.st_uid != getuid() && info.st_uid != 0 {
            throw .invalidInput("the start-up file \(path) belongs to another user (uid \(info.st_uid)); not reading it (or run with --no-rc)")
        }
        guard info.st_size <= maxBytes else { throw .invalidInput("the start-up file \(path) is larger than \(maxBytes) bytes") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var total = 0
        while total < bytes.count {
            let count = bytes[total...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
        }
        guard let text = String(validating: bytes[..<total], as: UTF8.self) else {
            throw .invalidInput("the start-up file \(path) is not UTF-8 text")
        }
        return text
    }
}

extension Shell {
    /// Runs a start-up file's lines: `set`, `alias`, `unalias`, `let` and `unlet` only. A bad
    /// line says so (`FILE:LINE: error: …`) and the rest still loads. Returns how many failed.
    @discardableResult
    public func runStartupFile(_ text: String, label: String) async -> Int {
        var failed = 0
        for command in ScriptReader.commands(in: text) {
            let location = "\(label):\(command.line)"
            let first = ScriptBlocks.keyword(of: command.text)?.keyword
                ?? String(command.text.trimmingBlanks().prefix { !$0.isWhitespace })
            guard StartupFile.allowedCommands.contains(first) else {
                report(ShopError.usage("a start-up file holds set, alias and let lines; \"\(first.escapingControls)\" belongs in a command file"),
                       location: location, words: [])
                failed += 1
                continue
            }
            if await execute(line: command.text, location: location) != .success { failed += 1 }
        }
        return failed
    }
}
