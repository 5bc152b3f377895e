// Interrupt: Ctrl-C, Ctrl-Z, SIGTERM and SIGHUP for an interactive shell. Ctrl-C at the prompt
// discards the half-typed line; during a command it raises a flag the command polls.

@preconcurrency import CReadline
import Dispatch
import ShopCore
import Synchronization
@preconcurrency import Glibc

/// Signal handling for the shell: Ctrl-C never kills it, termination signals end it cleanly.
///
/// After ``install()``:
/// - Ctrl-C while ``ReadlineLineReader`` waits for input prints `^C`, discards the line (and
///   any search in progress) and shows a fresh prompt; the shell stays up.
/// - Ctrl-C while a command runs only sets a flag: long commands poll ``isRequested`` (or call
///   ``checkpoint()``) and stop early; the command loop calls ``clear()`` before the next one.
///
/// How: a `sigaction` handler (with `SA_RESTART`, so a command's I/O never fails with `EINTR`)
/// sets an atomic flag and does nothing else, which keeps it async-signal-safe. The reader runs
/// readline in callback mode behind `poll(2)`, which a signal always interrupts; the reader then
/// sees the flag and resets the line as ordinary code on the main thread. readline's own
/// signal handling is turned off (`rl_catch_signals = 0`); it still handles window resizes.
///
/// Call these from the main thread, before the first prompt.
public enum Interrupt {
    /// Installs the SIGINT handler and turns readline's own signal handling off. Calling it
    /// again does nothing.
    public static func install() {
        guard !handlerInstalled.exchange(true, ordering: .sequentiallyConsistent) else { return }
        interruptRequested.store(false, ordering: .sequentiallyConsistent)  // initialized before use
        readlineIsReading.store(false, ordering: .sequentiallyConsistent)
        rl_catch_signals = 0
        setHandler(interruptSignalHandler, for: SIGINT)
        // A parent may have started us with SIGINT blocked; the prompt must still see Ctrl-C.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Whether Ctrl-C was pressed since the last ``clear()``.
    public static var isRequested: Bool {
        interruptRequested.load(ordering: .sequentiallyConsistent)
    }

    /// Forgets an earlier Ctrl-C (call it before running each command).
    public static func clear() {
        interruptRequested.store(false, ordering: .sequentiallyConsistent)
    }

    /// Throws ``ShopError/interrupted`` if Ctrl-C was pressed; for long loops in commands.
    public static func checkpoint() throws(ShopError) {
        if isRequested { throw .interrupted }
    }

    /// Runs `cleanup` first when SIGTERM or SIGHUP ends the process through ``onTermination(_:)``
    /// (after the terminal is restored, before the bodies): e.g. removing a file half written.
    /// Installs nothing by itself.
    public static func beforeTermination(_ cleanup: @escaping @Sendable () -> Void) {
        terminationCleanups.withLock { $0.append(cleanup) }
    }

    /// Runs `body` when the process gets SIGTERM or SIGHUP, then exits with 143 or 129.
    ///
    /// Use it to save history (``ReadlineLineReader/saveHistoryOnTermination()`` does that).
    /// `body` runs on a background queue while the main thread may still be inside a command
    /// or at the prompt (the terminal is restored first), so it must be quick and thread-safe.
    /// Each call adds a body; they run in the order they were added.
    ///
    /// The signals get a real handler (which writes to a pipe that a dispatch source reads)
    /// rather than `SIG_IGN`, because an ignored signal stays ignored in the programs the
    /// shell starts (`| jq`), and those must still die on SIGTERM and SIGHUP.
    public static func onTermination(_ body: @escaping @Sendable () -> Void) {
        terminationBodies.withLock { $0.append(body) }
        terminationSource.withLock { source in
            guard source == nil else { return }
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { return }
            let (readEnd, writeEnd) = (fds[0], fds[1])
            _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
            terminationPipe.store(writeEnd, ordering: .sequentiallyConsistent)

            let reader = DispatchSource.makeReadSource(
                fileDescriptor: readEnd, queue: DispatchQueue(label: "shopsh.termination"))
            reader.setEventHandler {
                var signal: UInt8 = 0
                guard read(readEnd, &signal, 1) == 1 else { return }
                restoreTerminal()
                for cleanup in terminationCleanups.withLock({ $0 }) { cleanup() }
                for body in terminationBodies.withLock({ $0 }) { body() }
                exit(128 + Int32(signal))
            }
            reader.resume()
            source = reader

            setHandler(terminationSignalHandler, for: SIGTERM)
            setHandler(terminationSignalHandler, for: SIGHUP)
        }
    }

    // MARK: - Used by ReadlineLineReader

    /// Called just before the prompt appears: forgets a Ctrl-C pressed before it.
    static func readlineWillRead() {
        clear()
        readlineIsReading.store(true, ordering: .sequentiallyConsistent)
    }

    /// Called when the line is complete: Ctrl-C presses during editing are used up.
    static func readlineDidRead() {
        readlineIsReading.store(false, ordering: .sequentiallyConsistent)
        clear()
    }

    /// Whether Ctrl-C was pressed, forgetting it.
    static func takeRequest() -> Bool {
        interruptRequested.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// While readline has the terminal in raw mode, catches Ctrl-Z (SIGTSTP) so the reader can
    /// restore the terminal before stopping (readline would, but its signal handling is off).
    /// Does nothing if SIGTSTP is ignored (no job control). Undo with ``endCatchingSuspend()``.
    static func beginCatchingSuspend() {
        var previous = sigaction()
        guard sigaction(SIGTSTP, nil, &previous) == 0,
              previous.__sigaction_handler.sa_handler == nil else { return }  // SIG_DFL only
        suspendRequested.store(false, ordering: .sequentiallyConsistent)  // initialized before use
        if setHandler(suspendSignalHandler, for: SIGTSTP) {
            suspendCaught.store(true, ordering: .sequentiallyConsistent)
        }
    }

    /// Gives SIGTSTP back its default action (stop), if ``beginCatchingSuspend()`` changed it.
    static func endCatchingSuspend() {
        guard suspendCaught.exchange(false, ordering: .sequentiallyConsistent) else { return }
        _ = signal(SIGTSTP, SIG_DFL)
        suspendRequested.store(false, ordering: .sequentiallyConsistent)
    }

    /// Whether Ctrl-Z was pressed at the prompt, forgetting it.
    static func takeSuspendRequest() -> Bool {
        suspendRequested.exchange(false, ordering: .sequentiallyConsistent)
    }

    /// Stops the process now, as Ctrl-Z would; returns when it is continued (`fg`).
    static func stopProcess() {
        let wasCaught = suspendCaught.load(ordering: .sequentiallyConsistent)
        _ = signal(SIGTSTP, SIG_DFL)
        _ = raise(SIGTSTP)
        if wasCaught { setHandler(suspendSignalHandler, for: SIGTSTP) }
    }

    /// Points `signal` at `handler`, restarting interrupted system calls.
    @discardableResult
    private static func setHandler(_ handler: @escaping @convention(c) (Int32) -> Void,
                                   for signal: Int32) -> Bool {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        return sigaction(signal, &action, nil) == 0
    }
}

// MARK: - State shared with the signal handlers

/// Set by the SIGINT handler; read by commands and by the reader's prompt loop.
private let interruptRequested = Atomic<Bool>(false)
/// Whether ``Interrupt/install()`` has run.
private let handlerInstalled = Atomic<Bool>(false)
/// Set by the SIGTSTP handler while the prompt is shown.
private let suspendRequested = Atomic<Bool>(false)
/// Whether SIGTSTP currently has our handler.
private let suspendCaught = Atomic<Bool>(false)
/// Whether ``ReadlineLineReader`` is showing the prompt (the terminal may be in raw mode).
private let readlineIsReading = Atomic<Bool>(false)
/// The write end of the pipe that wakes the termination source (-1 until set up).
private let terminationPipe = Atomic<Int32>(-1)
private let terminationBodies = Mutex<[@Sendable () -> Void]>([])
private let terminationCleanups = Mutex<[@Sendable () -> Void]>([])
private let terminationSource = Mutex<(any DispatchSourceRead)?>(nil)

// MARK: - Signal handlers (async-signal-safe: atomics and write(2) only)

private func interruptSignalHandler(_ signal: Int32) {
    interruptRequested.store(true, ordering: .sequentiallyConsistent)
}

private func suspendSignalHandler(_ signal: Int32) {
    suspendRequested.store(true, ordering: .sequentiallyConsistent)
}

private func terminationSignalHandler(_ signal: Int32) {
    let savedErrno = errno
    let fd = terminationPipe.load(ordering: .sequentiallyConsistent)
    if fd >= 0 {
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(fd, &byte, 1)
    }
    errno = savedErrno
}

// MARK: - Termination helpers

/// Puts the terminal back in its normal mode if readline has it in raw mode.
private func restoreTerminal() {
    guard readlineIsReading.load(ordering: .sequentiallyConsistent),
          rl_readline_state & UInt(RL_STATE_TERMPREPPED) != 0 else { return }
    rl_deprep_terminal()
    if let stream = rl_outstream {
        fputs("\n", stream)
        fflush(stream)
    }
}
