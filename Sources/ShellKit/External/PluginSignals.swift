// PluginSignals: in a batch (`-c`, `-f`, stdin), a signal that ends shopsh (Ctrl-C in the
// terminal, SIGTERM, SIGHUP) ends the running plugin's process group too, which it would not
// reach otherwise: the plugin runs in a group of its own.

import Foundation
import Synchronization

/// Forwards ending signals to a plugin's process group while it runs in a batch.
///
/// Only signals whose action is the default (end the process) are caught, so an ignored SIGINT
/// (a batch started in the background with `&`) stays ignored. The handler is async-signal-safe:
/// it sends SIGTERM to the group, gives the signal its default action back and raises it again,
/// so shopsh ends exactly as it would have. The interactive shell does not use this: there
/// Ctrl-C only raises ``Interrupt``'s flag, and the command loop stops the plugin.
enum PluginSignals {
    static let forwarded = [SIGINT, SIGTERM, SIGHUP]

    /// Forwards the ending signals to process group `group` until ``stop(_:)``; returns the
    /// signals it caught.
    static func start(forwardingTo group: pid_t) -> [Int32] {
        runningGroup.store(group, ordering: .sequentiallyConsistent)
        var caught: [Int32] = []
        for number in forwarded {
            var previous = sigaction()
            guard sigaction(number, nil, &previous) == 0, previous.__sigaction_handler.sa_handler == nil else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardingHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            if sigaction(number, &action, nil) == 0 { caught.append(number) }
        }
        return caught
    }

    /// Gives the `caught` signals their default action back.
    static func stop(_ caught: [Int32]) {
        for number in caught { _ = signal(number, SIG_DFL) }
        runningGroup.store(0, ordering: .sequentiallyConsistent)
    }
}

/// The process group of the plugin running in a batch (0: none).
private let runningGroup = Atomic<Int32>(0)

private func forwardingHandler(_ number: Int32) {
    let group = runningGroup.load(ordering: .sequentiallyConsistent)
    if group > 0 { _ = kill(-group, SIGTERM) }
    _ = signal(number, SIG_DFL)
    _ = raise(number)
}
