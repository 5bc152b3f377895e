// WriteAll: write(2) until every byte is written (partial writes and EINTR), for the few files
// the shell writes itself rather than through an OutputSink.

import Foundation

/// Writes all of `bytes` to `descriptor`; returns the errno of a failure, or nil.
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count, let base = bytes.baseAddress {
        let written = write(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return nil
}

/// Writes `text` to a standard stream (`STDERR_FILENO`, `STDOUT_FILENO`) for the shell's own
/// messages, never trapping: a terminal that went away (a closed window, a dropped SSH session) or
/// a closed pipe loses the text, and the shell goes on (to save its history, to exit cleanly).
/// Returns the errno of a failure, or nil.
@discardableResult
public func writeToStream(_ text: String, _ descriptor: Int32) -> Int32? {
    Array(text.utf8).withUnsafeBytes { writeAll($0, to: descriptor) }
}
