// EndingSignals: in a batch (`-c`, `-f`, stdin), a signal that ends shopsh (Ctrl-C in the
// terminal, SIGTERM, SIGHUP) first ends the running plugin's process group, which it would not
// reach otherwise (the plugin runs in a group of its own), and removes the temporary file of a
// `> FILE` being written, which would be left behind otherwise.

import Foundation
import Synchronization
import LineEditor

/// Cleans up after a batch that a signal ends, while something needs it.
///
/// Only signals whose action is the default (end the process) are caught, so an ignored SIGINT
/// (a batch started in the background with `&`) stays ignored, and the interactive shell, whose
/// own handlers are in place (Ctrl-C only raises ``Interrupt``'s flag, and the command loop
/// stops the plugin and removes the file), is left alone. The handler is async-signal-safe: it
/// sends SIGTERM to the plugin's group, unlinks the temporary file, gives the signal its default
/// action back and raises it again, so shopsh ends exactly as it would have.
enum EndingSignals {
    static let caught = [SIGINT, SIGTERM, SIGHUP]

    /// What one caller asked for, to give back with ``release(_:)``.
    struct Hold {
        fileprivate let isGroup: Bool
    }

    /// Forwards the ending signals to process group `group` until the hold is released.
    static func forward(to group: pid_t) -> Hold {
        runningGroup.store(group, ordering: .sequentiallyConsistent)
        acquire()
        return Hold(isGroup: true)
    }

    /// Unlinks `path` (a temporary file) on an ending signal until the hold is released.
    static func removeOnSignal(_ path: String) -> Hold {
        _ = partialFileCleanup
        partialFileSet.store(false, ordering: .sequentiallyConsistent)
        let bytes = Array(path.utf8)
        if bytes.count < partialFileCapacity && !bytes.contains(0) {
            for (index, byte) in bytes.enumerated() { partialFile[index] = CChar(bitPattern: byte) }
            partialFile[bytes.count] = 0
            partialFileSet.store(true, ordering: .sequentiallyConsistent)
        }
        acquire()
        return Hold(isGroup: false)
    }

    /// Ends what `hold` asked for; the last release gives the signals their default action back.
    static func release(_ hold: Hold) {
        if hold.isGroup {
            runningGroup.store(0, ordering: .sequentiallyConsistent)
        } else {
            partialFileSet.store(false, ordering: .sequentiallyConsistent)
        }
        state.withLock { state in
            state.holds -= 1
            guard state.holds == 0 else { return }
            for number in state.installed { _ = signal(number, SIG_DFL) }
            state.installed = []
        }
    }

    /// The interactive shell's SIGTERM and SIGHUP handling (Interrupt) unlinks the file being
    /// written before it exits: registered once, before the first file.
    private static let partialFileCleanup: Void = Interrupt.beforeTermination { removePartialFile() }

    /// Unlinks the temporary file now, if one is being written.
    static func removePartialFile() {
        if partialFileSet.exchange(false, ordering: .sequentiallyConsistent) { _ = unlink(partialFile) }
    }

    /// The first hold installs the handler for each ending signal whose action is the default.
    private static func acquire() {
        state.withLock { state in
            state.holds += 1
            guard state.holds == 1 else { return }
            for number in caught {
                var previous = sigaction()
                guard sigaction(number, nil, &previous) == 0, previous.__sigaction_handler.sa_handler == nil else { continue }
                var action = sigaction()
                action.__sigaction_handler.sa_handler = endingHandler
                sigemptyset(&action.sa_mask)
                action.sa_flags = SA_RESTART
                if sigaction(number, &action, nil) == 0 { state.installed.append(number) }
            }
        }
    }

    private struct State {
        var holds = 0
        var installed: [Int32] = []
    }

    private static let state = Mutex(State())
}

/// The process group of the plugin running in a batch (0: none).
private let runningGroup = Atomic<Int32>(0)
/// The temporary file being written, as a C string the signal handler can read (valid while
/// `partialFileSet` is true).
private let partialFileCapacity = Int(PATH_MAX) + 1
nonisolated(unsafe) private let partialFile = UnsafeMutablePointer<CChar>.allocate(capacity: partialFileCapacity)
private let partialFileSet = Atomic<Bool>(false)

private func endingHandler(_ number: Int32) {
    let group = runningGroup.load(ordering: .sequentiallyConsistent)
    if group > 0 { _ = kill(-group, SIGTERM) }
    if partialFileSet.load(ordering: .sequentiallyConsistent) { _ = unlink(partialFile) }
    _ = signal(number, SIG_DFL)
    _ = raise(number)
}
