// FileInput: reads a file named on the command line (`-f`, `source`, imports, --password-file),
// including pipes, FIFOs and /dev/stdin, with a one-line error when it cannot.

import Foundation
import ShopCore

/// Reading input files for commands such as `products import FILE`.
public enum FileInput {
    /// The most a command reads from one file (1 GiB): more is refused rather than filling memory
    /// (`-f /dev/zero`).
    public static let maxBytes = 1 << 30

    /// The bytes of `path`: a regular file, a pipe or FIFO (`-f <(…)`, `/dev/stdin`), or a device.
    ///
    /// - Throws: `ShopError.notFound` when there is no such file; `.invalidInput` for a folder, a
    ///   file that cannot be read, or one larger than `maxBytes`.
    public static func read(_ path: String) throws(ShopError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw openError(path, errno) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw .invalidInput("\(path) is a folder, not a file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .invalidInput("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            guard bytes.count <= maxBytes - count else {
                throw .invalidInput("\(path) is too large (more than \(maxBytes >> 20) MiB)")
            }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// The text of `path`, which must be UTF-8 (command files).
    public static func readText(_ path: String) throws(ShopError) -> String {
        let bytes = try read(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            let bad = (lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
            throw .invalidInput("\(path):\(bad): not UTF-8 text")
        }
        return text
    }

    private static func openError(_ path: String, _ code: Int32) -> ShopError {
        switch code {
        case ENOENT: return .notFound("no such file: \(path)")
        case EACCES: return .invalidInput("cannot read \(path): permission denied")
        default: return .invalidInput("cannot read \(path): \(String(cString: strerror(code)))")
        }
    }
}
