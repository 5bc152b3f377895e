// TerminalPrompt: asking the operator on the terminal: a secret without echo (the terminal's
// settings are restored on every path, including SIGTERM/SIGHUP), or a yes/no question.

import ShopCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LineEditor

/// Questions to the operator at the terminal.
public enum TerminalPrompt {
    /// Reads one line from the controlling terminal (`/dev/tty`, else stdin) with echo off.
    ///
    /// The terminal is put in non-canonical mode without signals, so Ctrl-C arrives as a byte
    /// and stops the prompt (``ShopError/interrupted``) with the settings restored, even when
    /// no SIGINT handler is installed. Backspace, Ctrl-U (erase all) and Ctrl-D (cancel when
    /// empty) work as in a normal line.
    public static func secret(_ prompt: String, context: CommandContext) throws(ShopError) -> String {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        defer { if tty >= 0 { close(tty) } }
        let fd = tty >= 0 ? tty : STDIN_FILENO
        guard isatty(fd) == 1 else {
            throw .usage("no terminal to ask for the password; give it with --password-file FILE")
        }
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { throw .system("cannot read the terminal's settings") }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &quiet.c_cc) { bytes in
            bytes[Int(VMIN)] = 1
            bytes[Int(VTIME)] = 0
        }
        if tty >= 0 { writeAll(fd, prompt) } else { context.host.writeToStderr(prompt) }
        registerRestoreOnTermination()
        activeTerminal.withLock { $0 = SavedTerminal(fd: fd, settings: saved) }
        guard tcsetattr(fd, TCSAFLUSH, &quiet) == 0 else {
            activeTerminal.withLock { $0 = nil }
            throw .system("cannot turn the terminal's echo off")
        }
        defer {
            var original = saved
            _ = tcsetattr(fd, TCSAFLUSH, &original)
            activeTerminal.withLock { $0 = nil }
            if tty >= 0 { writeAll(fd, "\n") } else { context.host.writeToStderr("\n") }
        }
        var bytes: [UInt8] = []
        defer { for index in bytes.indices { bytes[index] = 0 } }
        reading: while true {
            guard let byte = try readByte(fd) else {
                if bytes.isEmpty { throw .invalidInput("no password given (end of input)") }
                break reading
            }
            switch byte {
            case 0x0A, 0x0D: break reading
            case 0x03: throw .interrupted                       // Ctrl-C
            case 0x04:                                          // Ctrl-D
                if bytes.isEmpty { throw .invalidInput("no password given (Ctrl-D)") }
            case 0x7F, 0x08:                                    // Backspace: one character
                while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
            case 0x15: bytes.removeAll()                       // Ctrl-U
            case 0x00..<0x20: continue                          // other control keys do nothing
            default:
                bytes.append(byte)
                guard bytes.count <= 4096 else { throw .invalidInput("the password is too long") }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Asks a yes/no question on stderr and reads the answer from stdin; only y or yes is yes.
    public static func confirm(_ question: String, context: CommandContext) throws(ShopError) -> Bool {
        context.host.writeToStderr(question)
        var line: [UInt8] = []
        while let byte = try readByte(STDIN_FILENO), byte != UInt8(ascii: "\n") {
            if line.count < 64 { line.append(byte) }
        }
        let answer = String(decoding: line, as: UTF8.self).trimmingASCIISpaces.lowercased()
        return answer == "y" || answer == "yes"
    }

    /// One byte from `fd`, or nil at end of input. Waits in short polls so that Ctrl-C (the
    /// shell's flag) stops the wait even though the shell's SIGINT handler restarts reads.
    private static func readByte(_ fd: Int32) throws(ShopError) -> UInt8? {
        while true {
            if Interrupt.isRequested { throw .interrupted }
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 200)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .system("cannot read from the terminal")
            }
            if ready == 0 { continue }
            var byte: UInt8 = 0
            let count = read(fd, &byte, 1)
            if count == 1 { return byte }
            if count == 0 { return nil }
            if errno == EINTR || errno == EAGAIN { continue }
            throw .system("cannot read from the terminal")
        }
    }

    private static func writeAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in write(fd, buffer.baseAddress, buffer.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Restores a terminal left without echo if the shell is terminated while asking.
    private static func registerRestoreOnTermination() {
        guard !restoreRegistered.exchange(true, ordering: .sequentiallyConsistent) else { return }
        Interrupt.onTermination {
            activeTerminal.withLock { active in
                guard var saved = active?.settings, let fd = active?.fd else { return }
                _ = tcsetattr(fd, TCSANOW, &saved)
                active = nil
            }
        }
    }
}

/// The terminal settings to put back while a secret is being read.
private struct SavedTerminal: Sendable {
    var fd: Int32
    var settings: termios
}

private let activeTerminal = Mutex<SavedTerminal?>(nil)
private let restoreRegistered = Atomic<Bool>(false)
