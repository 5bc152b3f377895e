// StagedFile: the hidden temporary file beside FILE that `> FILE` and `>> FILE` write into, so
// FILE changes only when the command succeeded, and then whole.

import Foundation
import ShopCore

/// `.NAME.shopsh-XXXXXX` in FILE's folder, created with mode 0600.
///
/// `> FILE`: on success the temporary file, synced, is renamed over FILE (or over the file a
/// symbolic link FILE points to), keeping an existing FILE's permissions. `>> FILE`: on success
/// its bytes are appended to FILE (created 0600 if new). On failure, Ctrl-C or an ending signal
/// it is removed and FILE is left exactly as it was.
final class StagedFile {
    /// FILE as the operator typed it (for messages).
    let path: String
    let descriptor: Int32
    /// The file replaced or appended to: FILE, or the file its symbolic link points to.
    private let target: String
    private let temporary: String
    private let append: Bool
    private let existed: Bool
    /// The permissions FILE ends with: an existing FILE's own, else 0600.
    private let mode: mode_t
    private let signalHold: EndingSignals.Hold
    private var closed = false

    private init(path: String, descriptor: Int32, target: String, temporary: String, append: Bool, existed: Bool,
                 mode: mode_t) {
        self.path = path
        self.descriptor = descriptor
        self.target = target
        self.temporary = temporary
        self.append = append
        self.existed = existed
        self.mode = mode
        signalHold = EndingSignals.removeOnSignal(temporary)
    }

    deinit { discard() }

    /// The temporary file for `redirect`, or nil when FILE is a device, FIFO, socket or dangling
    /// symbolic link: those are written directly.
    static func open(_ redirect: Redirect) throws(ShopError) -> StagedFile? {
        let path = redirect.path
        func failure(_ code: Int32) -> ShopError { .invalidInput("cannot write \(path): \(String(cString: strerror(code)))") }
        var target = path
        var mode: mode_t = 0o600
        var info = stat()
        let existed = stat(path, &info) == 0
        if existed {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: throw failure(EISDIR)
            case S_IFREG: break
            default: return nil
            }
            mode = info.st_mode & 0o7777
            if let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
        } else {
            let code = errno
            guard code == ENOENT else { throw failure(code) }
            if lstat(path, &info) == 0 { return nil }
        }
        let folder = (target as NSString).deletingLastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/." + shortened((target as NSString).lastPathComponent)
                              + ".shopsh-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard descriptor >= 0 else { throw failure(errno) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return StagedFile(path: path, descriptor: descriptor, target: target, temporary: temporary,
                          append: redirect.append, existed: existed, mode: mode)
    }

    /// What became of FILE when the command did not succeed (for its error line).
    var abandonedNote: String {
        if append && existed { return "nothing was appended to \(path)" }
        return existed ? "\(path) was left as it was" : "\(path) was not created"
    }

    /// Puts the output in place: renames it over FILE, or appends it to FILE.
    func commit() -> ShopError? {
        guard !closed else { return nil }
        func failure(_ code: Int32) -> ShopError {
            discard()
            return .invalidInput("cannot write \(path): \(String(cString: strerror(code)))")
        }
        guard fsync(descriptor) == 0 else { return failure(errno) }
        if append {
            if let code = appendToTarget() { return failure(code) }
            discard()
            return nil
        }
        // The partial file stays 0600; the finished one gets FILE's permissions, as `>` keeps them.
        if mode != 0o600 && fchmod(descriptor, mode) != 0 { return failure(errno) }
        guard rename(temporary, target) == 0 else { return failure(errno) }
        close(descriptor)
        closed = true
        EndingSignals.release(signalHold)
        return nil
    }

    /// Removes the temporary file (FILE is untouched).
    func discard() {
        guard !closed else { return }
        close(descriptor)
        unlink(temporary)
        closed = true
        EndingSignals.release(signalHold)
    }

    /// Copies the temporary file's bytes to the end of FILE; the errno of a failure, or nil.
    private func appendToTarget() -> Int32? {
        let output = Glibc.open(target, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard output >= 0 else { return errno }
        defer { close(output) }
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { return errno }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return errno }
            if count == 0 { return nil }
            if let failed = buffer[0..<count].withUnsafeBytes({ writeAll($0, to: output) }) { return failed }
        }
    }

    /// FILE's name cut to at most 100 bytes, so that the temporary name stays within NAME_MAX.
    private static func shortened(_ name: String) -> String {
        var short = ""
        for character in name {
            guard short.utf8.count + character.utf8.count <= 100 else { break }
            short.append(character)
        }
        return short
    }
}
