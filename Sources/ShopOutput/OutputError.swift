// OutputError: failures of writing output bytes to their destination.

/// Why output could not be written.
public enum OutputError: Error, Equatable {
    /// The reader went away (`shopsh … | head -1` with SIGPIPE ignored): stop quietly.
    case brokenPipe
    /// Any other write failure, with the system's message (`No space left on device`).
    case io(String)
}
