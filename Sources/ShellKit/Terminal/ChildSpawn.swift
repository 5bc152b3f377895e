// ChildSpawn: starts a child program (`| CMD`'s shell, the editor) with the signals shopsh
// handles or ignores itself (SIGPIPE, SIGINT, TERM, HUP, TSTP) back at their defaults.

import Foundation
import ShopCore

enum ChildSpawn {
    /// Spawns `arguments` (the first is the program's path) with `actions` applied to its
    /// descriptors; returns its pid, or the errno that stopped it.
    static func spawn(_ arguments: [String], actions: UnsafePointer<posix_spawn_file_actions_t>?) -> Result<pid_t, Errno> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGTSTP] { sigaddset(&defaults, signal) }
        var noMask = sigset_t()
        sigemptyset(&noMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &noMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], actions, &attributes, &cArguments, environ)
        return status == 0 ? .success(pid) : .failure(Errno(status))
    }

    /// An errno, as an Error.
    struct Errno: Error {
        let code: Int32
        init(_ code: Int32) { self.code = code }
        var text: String { String(cString: strerror(code)) }
    }
}
