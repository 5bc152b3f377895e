// Terminal: what the process is attached to (which streams are terminals, how wide).

import Glibc

/// Facts about the standard streams, read once at start-up.
public struct Terminal: Sendable {
    public var stdinIsTerminal: Bool
    public var stdoutIsTerminal: Bool
    public var stderrIsTerminal: Bool

    public init(stdinIsTerminal: Bool, stdoutIsTerminal: Bool, stderrIsTerminal: Bool) {
        self.stdinIsTerminal = stdinIsTerminal
        self.stdoutIsTerminal = stdoutIsTerminal
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// The streams of this process.
    public static func current() -> Terminal {
        Terminal(stdinIsTerminal: isatty(STDIN_FILENO) == 1, stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
                 stderrIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// `COLUMNS` when set, else the width of the terminal on stdout (or stderr) now (it may have
    /// been resized), else 80.
    public static func width(environment: [String: String]) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] where ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
            return Int(size.ws_col)
        }
        return 80
    }

    /// The height of the terminal on stdout now, or 24.
    public static func height() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 {
            return Int(size.ws_row)
        }
        return 24
    }
}
