// OutputDestination: where one command's data goes: stdout, a file (`> FILE`, `>> FILE`),
// or a system shell command (`| CMD`) that reads it on its stdin.

import Foundation
import ShopCore
import ShopOutput

/// An opened destination for one command's output; `finish(keep:)` closes it and waits for a pipe.
final class OutputDestination {
    let sink: OutputSink
    let isTerminal: Bool
    private let fileDescriptor: Int32?
    private let childPID: pid_t?
    /// For `> FILE` and `>> FILE` on a regular (or new) file: where the output really goes.
    private let staged: StagedFile?

    private init(sink: OutputSink, isTerminal: Bool, fileDescriptor: Int32?, childPID: pid_t?, staged: StagedFile? = nil) {
        self.sink = sink
        self.isTerminal = isTerminal
        self.fileDescriptor = fileDescriptor
        self.childPID = childPID
        self.staged = staged
    }

    /// Whether this is the command's standard output (no `> FILE`, no `| CMD`).
    var isStandardOutput: Bool { fileDescriptor == nil && childPID == nil && staged == nil }

    static func standardOutput(_ sink: OutputSink, isTerminal: Bool) -> OutputDestination {
        OutputDestination(sink: sink, isTerminal: isTerminal, fileDescriptor: nil, childPID: nil)
    }

    /// `> FILE` (replace) or `>> FILE` (append), all or nothing: the output goes to a hidden
    /// temporary file beside FILE (see ``StagedFile``), which ``finish(keep:)`` renames over FILE
    /// or appends to it when the command succeeded, and removes otherwise. A device, FIFO or
    /// socket (`> /dev/null`) is written directly. A new file is created with mode 0600: what
    /// shopsh writes is customer data.
    static func file(_ redirect: Redirect) throws(ShopError) -> OutputDestination {
        if let staged = try StagedFile.open(redirect) {
            return OutputDestination(sink: OutputSink(fileDescriptor: staged.descriptor), isTerminal: false,
                                     fileDescriptor: nil, childPID: nil, staged: staged)
        }
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (redirect.append ? O_APPEND : O_TRUNC)
        let descriptor = open(redirect.path, flags, 0o600)
        guard descriptor >= 0 else {
            throw .invalidInput("cannot write \(redirect.path): \(String(cString: strerror(errno)))")
        }
        return OutputDestination(sink: OutputSink(fileDescriptor: descriptor), isTerminal: false,
                                 fileDescriptor: descriptor, childPID: nil)
    }

    /// What became of `> FILE` when the command did not succeed, for its error line
    /// (`out.csv was not created`); nil for other destinations.
    var abandonedNote: String? { staged?.abandonedNote }

    /// `| CMD`: runs `/bin/sh -c CMD` with its stdin reading what the command writes.
    static func pipe(to command: String) throws(ShopError) -> OutputDestination {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { throw .system("cannot create a pipe: \(String(cString: strerror(errno)))") }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
        posix_spawn_file_actions_addclose(&actions, readEnd)
        // shopsh ignores SIGPIPE and handles SIGINT itself; the command gets the defaults back.
        let spawned = ChildSpawn.spawn(["/bin/sh", "-c", command], actions: &actions)
        close(readEnd)
        switch spawned {
        case .success(let pid):
            return OutputDestination(sink: OutputSink(fileDescriptor: writeEnd), isTerminal: false,
                                     fileDescriptor: writeEnd, childPID: pid)
        case .failure(let error):
            close(writeEnd)
            throw .system("cannot run /bin/sh: \(error.text)")
        }
    }

    /// Flushes, closes a file or pipe, and waits for a piped command to finish. `keep` says
    /// whether the command succeeded: only then does `> FILE` replace FILE (or `>> FILE` add to it).
    ///
    /// - Returns: an error when the piped command failed (`| false`, `| grep` finding nothing),
    ///   as `sh` makes a pipeline's status that of its last command, or when FILE could not be
    ///   written in the end.
    func finish(keep: Bool = true) -> ShopError? {
        if let staged {
            do {
                try sink.flush()
            } catch {
                staged.discard()
                return keep ? .invalidInput("cannot write \(staged.path): \(error)") : nil
            }
            guard keep else {
                staged.discard()
                return nil
            }
            return staged.commit()
        }
        try? sink.flush()
        if let fileDescriptor { close(fileDescriptor) }
        guard let childPID else { return nil }
        var status: Int32 = 0
        while waitpid(childPID, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : status & 0x7F
        guard code != 0 else { return nil }
        return .invalidInput(exited ? "the command after | exited with status \(code)"
                                    : "the command after | was killed by signal \(code)")
    }
}
