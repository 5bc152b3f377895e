// ChildProcess: an external plugin's process: spawned in its own process group with stdin from
// /dev/null, stdout read in chunks, stderr kept (its end only), and the whole group stopped on
// Ctrl-C, a timeout or a bad line.

import Foundation
import ShopCore

/// One running plugin process.
///
/// The child leads a process group of its own, so Ctrl-C at the terminal reaches only the
/// shell (its handler raises ``Interrupt``'s flag); ``stop()`` then ends the whole group,
/// grandchildren included.
public final class ChildProcess {
    /// How a process ended.
    public enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    public let pid: pid_t
    private var stdoutFD: Int32
    private var stderrFD: Int32
    /// The end of what the process wrote on stderr (at most ``stderrCap`` bytes).
    private(set) var stderrTail: [UInt8] = []
    private var ending: Ending?
    /// The most stderr bytes kept: the last ones.
    static let stderrCap = 64 * 1024

    /// Starts `path` with `arguments` (argv[1…]) and exactly `environment`.
    public static func spawn(path: String, arguments: [String], environment: [String: String]) throws(ShopError) -> ChildProcess {
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { throw .system("cannot start \(path): no pipe (errno \(errno))") }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            throw .system("cannot start \(path): no pipe (errno \(errno))")
        }
        // Close-on-exec, all four: a child another thread starts must not inherit them (the dup2
        // onto this child's 1 and 2 clears the flag for those copies).
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group; default signal actions (the shell ignores or catches some);
        // no signal blocked.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGTSTP] { sigaddset(&defaults, signal) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([path] + arguments).map { strdup($0) }
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        var status = posix_spawn(&pid, path, &actions, &attributes, argv + [nil], envp + [nil])
        // "Text file busy": some process still has the program open for writing (it is being
        // installed or updated, or a process started meanwhile inherited a writer's descriptor):
        // wait for it a little (up to a second) before giving up.
        var waited = 0
        while status == ETXTBSY && waited < 20 {
            usleep(50_000)
            waited += 1
            status = posix_spawn(&pid, path, &actions, &attributes, argv + [nil], envp + [nil])
        }
        close(outPipe[1])
        close(errPipe[1])
        guard status == 0 else {
            close(outPipe[0]); close(errPipe[0])
            throw .system("cannot start \(path): \(String(cString: strerror(status)))")
        }
        return ChildProcess(pid: pid, stdoutFD: outPipe[0], stderrFD: errPipe[0])
    }

    private init(pid: pid_t, stdoutFD: Int32, stderrFD: Int32) {
        self.pid = pid
        self.stdoutFD = stdoutFD
        self.stderrFD = stderrFD
    }

    deinit {
        if stdoutFD >= 0 { close(stdoutFD) }
        if stderrFD >= 0 { close(stderrFD) }
    }

    /// Why reading stopped before the end of the output.
    public enum ReadStop: Error {
        case interrupted
        case timedOut
    }

    /// The next chunk of stdout, or nil at its end. Drains stderr meanwhile; throws when Ctrl-C
    /// is asked for (`isInterrupted`: Ctrl-C, in the shell) or `deadline` passes. Leaves the process running.
    public func readStdout(deadline: ContinuousClock.Instant? = nil, isInterrupted: () -> Bool = { false }) throws(ReadStop) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if isInterrupted() { throw .interrupted }
            if let deadline, ContinuousClock.now >= deadline { throw .timedOut }
            guard stdoutFD >= 0 || stderrFD >= 0 else { return nil }
            var fds = [pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, 100)
            if ready < 0 && errno != EINTR { return nil }
            if ready <= 0 { continue }
            if fds[1].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(stderrFD, $0.baseAddress, $0.count) }
                if count > 0 {
                    stderrTail.append(contentsOf: buffer[0..<count])
                    if stderrTail.count > Self.stderrCap { stderrTail.removeFirst(stderrTail.count - Self.stderrCap) }
                } else if count == 0 || errno != EINTR {
                    close(stderrFD)
                    stderrFD = -1
                }
            }
            if fds[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(stdoutFD, $0.baseAddress, $0.count) }
                if count > 0 { return Array(buffer[0..<count]) }
                if count == 0 || errno != EINTR {
                    close(stdoutFD)
                    stdoutFD = -1
                }
            }
        }
    }

    /// Waits for the process to end (after its output ended); throws, leaving it running, when
    /// a stop is asked for (`isInterrupted`) or `deadline` passes.
    @discardableResult
    public func wait(deadline: ContinuousClock.Instant? = nil, isInterrupted: () -> Bool = { false }) throws(ReadStop) -> Ending {
        if let ending { return ending }
        var status: Int32 = 0
        var pause: UInt32 = 1_000
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { ending = .exited(-1); return .exited(-1) }
            if isInterrupted() { throw .interrupted }
            if let deadline, ContinuousClock.now >= deadline { throw .timedOut }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
        let result = Self.ending(status)
        ending = result
        return result
    }

    /// Waits for the end whatever happens (after ``stop()`` sent SIGKILL).
    private func reap() {
        guard ending == nil else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { ending = .exited(-1); return }
        }
        ending = Self.ending(status)
    }

    /// Ends the process group: SIGTERM, then SIGKILL if the leader has not ended within `grace`.
    public func stop(grace: Duration = .milliseconds(500)) {
        guard ending == nil else {
            _ = kill(-pid, SIGKILL)   // stray members of the group
            return
        }
        _ = kill(-pid, SIGTERM)
        let deadline = ContinuousClock.now + grace
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                ending = Self.ending(status)
                _ = kill(-pid, SIGKILL)
                return
            }
            usleep(10_000)
        }
        _ = kill(-pid, SIGKILL)
        reap()
    }

    private static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    /// The last non-empty line of stderr, if any (invalid UTF-8 repaired).
    public var lastStderrLine: String? {
        let text = String(decoding: stderrTail, as: UTF8.self)
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .last(where: { !$0.isEmpty })
    }
}
