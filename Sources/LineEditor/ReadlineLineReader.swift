// ReadlineLineReader: the interactive line editor — GNU readline with persistent history
// and Tab completion — for when stdin is a terminal.

@preconcurrency import CReadline
import ShopCore
import Synchronization
@preconcurrency import Glibc

/// Reads lines with the system GNU readline: editing, history recall and Tab completion.
///
/// readline is one global state per process, so create one reader and use it from the main
/// thread only (readline must run there for Ctrl-C to work; see ``Interrupt``). Creating a
/// second reader replaces the first one's history list and completer.
///
/// - History: loaded from `historyFile` at creation, kept to `historyLimit` entries; ``saveHistory()``
///   appends the lines added since the last save and trims the file to `historyLimit` (so two
///   shells on one store both keep their lines; file mode 0600, parent directory created). ``addHistory(_:)``
///   skips empty lines, lines that start with a space (a way to keep a command out of the
///   history) and a repeat of the previous entry.
/// - Completion: Tab calls `completer` with a ``CompletionRequest``. Candidates are inserted
///   quoted so that ``LineParser`` reads each back as one word (`my\ file.csv`, or escaped
///   inside a quote the operator opened, which readline then closes); a single candidate gets
///   a space after it unless it ends in `/`. Words break at blanks, quotes, `|` and `>`.
/// - Output: the prompt and echo go to stderr when stdout is not a terminal, so only data
///   reaches stdout (`shopsh > out.txt` still shows its prompt).
/// - `~/.inputrc` sections `$if shopsh` apply (`rl_readline_name` is `shopsh`).
///
/// The prompt may contain ANSI colour sequences if each is wrapped in `\u{01}` … `\u{02}`
/// so readline can measure the prompt's width.
public final class ReadlineLineReader: LineReader {
    /// The history file, or `nil` for a history that is not kept.
    public let historyFile: String?
    /// The most entries kept in memory and written to the file.
    public let historyLimit: Int
    /// Why the history file could not be read at creation, if it could not (a missing file is
    /// not an error).
    public private(set) var historyLoadError: ShopError?
    /// The lines of a multi-line paste not yet returned.
    private var pastedLines: [String] = []

    /// Sets up readline, loads `historyFile` and installs `completer` for Tab.
    ///
    /// - Parameters:
    ///   - historyFile: where history is kept, or `nil`; a missing file is created on save.
    ///   - historyLimit: how many entries to keep (at least 0).
    ///   - completer: the full candidates for the word at the cursor; called on the main
    ///     thread while readline waits, so it should answer in milliseconds.
    public init(historyFile: String?, historyLimit: Int = 2000,
                completer: @escaping @Sendable (CompletionRequest) -> [String]) {
        self.historyFile = historyFile
        self.historyLimit = max(0, historyLimit)

        rl_readline_name = ReadlineCompletion.permanentCString("shopsh")
        if isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) == 0 {
            rl_outstream = stderr
        }
        ReadlineCompletion.install { request in completer(request).map { CompletionCandidate($0) } }
        rl_persistent_signal_handlers = 1  // keep readline's SIGWINCH handler while in poll(2)

        clear_history()
        Self.unsavedEntries.withLock { $0 = 0 }
        stifle_history(Int32(clamping: self.historyLimit))
        if let historyFile {
            let status = read_history(historyFile)
            if status != 0 && status != ENOENT {
                historyLoadError = .system(
                    "cannot read history file \(historyFile): \(String(cString: strerror(status)))")
            }
        }
        using_history()
    }

    /// Replaces the completer with one whose candidates may carry a description: when any of
    /// them has one, listing them (Tab Tab) shows each beside its description, e.g. product ids
    /// with their titles. Same rules as the `completer` of the initializer otherwise.
    public func setDescribedCompleter(_ completer: @escaping @Sendable (CompletionRequest) -> [CompletionCandidate]) {
        ReadlineCompletion.install(completer)
    }

    /// Binds C-x C-e (bash's edit-and-execute-command): `edit` gets the line being typed (the
    /// last history entry when it is blank) while the terminal is given back, and returns the
    /// text to run at once, or nil to go on editing the line as it was. Text of several lines
    /// comes out one line per ``readLine(prompt:)``, as a paste does.
    public func bindEditKey(_ edit: @escaping @Sendable (String) -> String?) {
        editHandler.withLock { $0 = edit }
        rl_bind_keyseq("\\C-x\\C-e", editAndAccept)
    }

    /// The newest history entry, if any.
    static var newestHistoryEntry: String? {
        guard history_length > 0,
              let entry = history_get(history_base + history_length - 1),
              let text = entry.pointee.line else { return nil }
        return String(cString: text)
    }

    /// The history saved in `file` (as readline writes it), oldest first; empty when there is
    /// none. For a run without the prompt (`shopsh -c 'history export FILE'`): it replaces
    /// readline's in-memory list, which such a run does not otherwise use.
    public static func savedHistory(file: String) -> [String] {
        clear_history()
        defer { clear_history() }
        guard read_history(file) == 0 else { return [] }
        return listedHistory()
    }

    /// The lines of readline's history list, oldest first.
    private static func listedHistory() -> [String] {
        guard let list = history_list() else { return [] }
        var lines: [String] = []
        var index = 0
        while let entry = list[index] {
            if let text = entry.pointee.line { lines.append(String(cString: text)) }
            index += 1
        }
        return lines
    }

    /// Shows `prompt` and lets the operator edit a line.
    ///
    /// Returns ``LineInput/endOfInput`` on Ctrl-D at an empty line (readline then has moved
    /// to a new line, so the next output starts cleanly) or when the terminal goes away.
    /// Ctrl-C discards the line and prompts again, once ``Interrupt/install()`` has run.
    ///
    /// A multi-line paste (readline inserts it whole, as bracketed paste) is returned one line
    /// per call, without prompting again, as if typed line by line; a Ctrl-C during one of its
    /// commands drops the rest of it.
    ///
    /// readline runs in callback mode: this method waits in `poll(2)` and feeds readline one
    /// key at a time, so a signal can be dealt with between keys as ordinary code.
    public func readLine(prompt: String) -> LineInput {
        if Interrupt.isRequested { pastedLines.removeAll() }
        if !pastedLines.isEmpty { return .line(pastedLines.removeFirst()) }

        switch readEditedLine(prompt: prompt) {
        case .endOfInput:
            return .endOfInput
        case .line(let text):
            var lines = Self.pastedLines(in: text)
            guard !lines.isEmpty else { return .line(text) }
            let first = lines.removeFirst()
            pastedLines = lines
            return .line(first)
        }
    }

    /// The lines of a multi-line paste (LF or CRLF separated, a final LF ignored); `[]` if
    /// `text` is a single line.
    static func pastedLines(in text: String) -> [String] {
        guard text.utf8.contains(UInt8(ascii: "\n")) else { return [] }
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { bytes in
                var line = String(decoding: bytes, as: UTF8.self)
                if line.unicodeScalars.last == "\r" { line.unicodeScalars.removeLast() }
                return line
            }
        if lines.count > 1 && lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// One `readline` session in callback mode (see ``readLine(prompt:)``).
    private func readEditedLine(prompt: String) -> LineInput {
        Interrupt.readlineWillRead()
        Interrupt.beginCatchingSuspend()
        defer {
            Interrupt.endCatchingSuspend()
            Interrupt.readlineDidRead()
        }
        completedLine.withLock { $0 = nil }
        rl_callback_handler_install(prompt, lineCompleted)
        let input = rl_instream.map { fileno($0) } ?? STDIN_FILENO

        while true {
            if Interrupt.takeRequest() {
                Self.discardLine(prompt: prompt)
            }
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, -1)
            if ready < 0 && errno == EINTR {
                if Interrupt.takeSuspendRequest() { Self.suspend() }
                rl_check_signals()  // a window resize, for one
                continue
            }
            if ready < 0 || poller.revents & Int16(POLLNVAL) != 0 {
                rl_callback_handler_remove()
                return .endOfInput
            }
            rl_callback_read_char()
            if let line = completedLine.withLock({ $0.take() }) {
                return line  // at end of input readline has already moved to a new line
            }
        }
    }

    /// Remembers `line`, unless it is empty or blank, starts with a space, or repeats the
    /// previous entry.
    public func addHistory(_ line: String) {
        guard !line.isEmpty,
              line.unicodeScalars.first != " ",
              line.unicodeScalars.contains(where: { !" \t\n\r".unicodeScalars.contains($0) }),
              line != lastHistoryEntry else { return }
        add_history(line)
        Self.unsavedEntries.withLock { $0 += 1 }
    }

    /// Lines added to readline's (process-wide) list since it was loaded or last saved.
    private static let unsavedEntries = Mutex(0)

    /// Writes the history to ``historyFile``; failures are ignored (use ``writeHistory()`` to
    /// see them).
    public func saveHistory() {
        try? writeHistory()
    }

    /// Writes the history to ``historyFile`` (if any) with mode 0600, creating its directory
    /// (mode 0700) if needed. The file is never readable by others, not even for a moment.
    ///
    /// - Throws: ``ShopError/storage(_:)`` if the directory or file cannot be written.
    public func writeHistory() throws(ShopError) {
        guard let historyFile else { return }
        try Self.writeHistory(to: historyFile, limit: historyLimit)
    }

    /// Saves the history when the process gets SIGTERM or SIGHUP, before it exits.
    ///
    /// A shortcut for ``Interrupt/onTermination(_:)`` with ``writeHistory()``.
    public func saveHistoryOnTermination() {
        guard let historyFile else { return }
        let limit = historyLimit
        Interrupt.onTermination { try? ReadlineLineReader.writeHistory(to: historyFile, limit: limit) }
    }

    /// Appends the lines not saved yet to `path` and keeps its last `limit` lines; see ``writeHistory()``.
    static func writeHistory(to path: String, limit: Int) throws(ShopError) {
        let directory = parentDirectory(of: path)
        try makeDirectories(directory)

        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot write history file \(path)", errno) }
        let chmodStatus = fchmod(fd, 0o600)  // an existing file may have been more open
        let chmodErrno = errno
        close(fd)
        guard chmodStatus == 0 else { throw failure("cannot protect history file \(path)", chmodErrno) }

        // Append, not overwrite: another shell on this store may have saved its lines meanwhile.
        let unsaved = unsavedEntries.withLock { count in
            defer { count = 0 }
            return min(count, Int(history_length))
        }
        if unsaved > 0 {
            let status = append_history(Int32(unsaved), path)
            guard status == 0 else { throw failure("cannot write history file \(path)", status) }
        }
        let trimmed = history_truncate_file(path, Int32(clamping: limit))
        guard trimmed == 0 else { throw failure("cannot trim history file \(path)", trimmed) }
        guard chmod(path, 0o600) == 0 else { throw failure("cannot protect history file \(path)", errno) }
    }

    /// The remembered lines, oldest first.
    public var history: [String] { Self.listedHistory() }

    // MARK: - Helpers

    /// Ctrl-C at the prompt: prints `^C` after the text typed so far, drops the line (ending a
    /// history search or numeric argument first) and shows a fresh prompt, as bash does.
    private static func discardLine(prompt: String) {
        rl_free_line_state()
        rl_callback_sigcleanup()
        rl_point = rl_end
        rl_redisplay()  // the cursor to the end of the text
        if let stream = rl_outstream {
            fputs("^C", stream)
            fflush(stream)
        }
        rl_crlf()
        rl_replace_line("", 1)
        rl_callback_handler_remove()
        using_history()  // the Up arrow starts again from the newest entry
        rl_callback_handler_install(prompt, lineCompleted)
    }

    /// Ctrl-Z at the prompt: gives the terminal back, stops, and on `fg` takes the terminal
    /// again and redraws the prompt and line.
    private static func suspend() {
        rl_deprep_terminal()
        if let stream = rl_outstream {
            fputs("\n", stream)
            fflush(stream)
        }
        Interrupt.stopProcess()
        rl_prep_terminal(1)
        rl_forced_update_display()
    }

    private var lastHistoryEntry: String? { Self.newestHistoryEntry }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `mkdir -p` with mode 0700 for the directories it creates.
    static func makeDirectories(_ directory: String) throws(ShopError) {
        guard !directory.isEmpty else { return }
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw failure("cannot create directory \(prefix)", errno)
            }
        }
    }

    private static func failure(_ what: String, _ code: Int32) -> ShopError {
        .system("\(what): \(String(cString: strerror(code)))")
    }
}

// MARK: - Callback mode

/// The line readline finished, handed from its callback to ``ReadlineLineReader/readLine(prompt:)``.
private let completedLine = Mutex<LineInput?>(nil)

/// readline's line handler: called with the finished line, or NULL at end of input.
private func lineCompleted(_ line: UnsafeMutablePointer<CChar>?) {
    let input: LineInput
    if let line {
        input = .line(String(cString: line))
        free(line)
    } else {
        input = .endOfInput
    }
    completedLine.withLock { $0 = input }
    rl_callback_handler_remove()  // otherwise readline shows the prompt again at once
}

// MARK: - C-x C-e

/// What C-x C-e calls (see ``ReadlineLineReader/bindEditKey(_:)``).
private let editHandler = Mutex<(@Sendable (String) -> String?)?>(nil)

/// readline's command for C-x C-e: hands the line to the editor and accepts what comes back.
private func editAndAccept(_ count: Int32, _ key: Int32) -> Int32 {
    guard let handler = editHandler.withLock({ $0 }) else { return 0 }
    var text = rl_line_buffer.map { String(cString: $0) } ?? ""
    if text.allSatisfy(\.isWhitespace) { text = ReadlineLineReader.newestHistoryEntry ?? "" }
    rl_deprep_terminal()
    if let stream = rl_outstream {
        fputs("\n", stream)
        fflush(stream)
    }
    let edited = handler(text)
    rl_prep_terminal(1)
    guard let edited else {
        rl_forced_update_display()
        return 0
    }
    rl_replace_line(edited, 0)
    rl_point = rl_end
    rl_redisplay()
    return rl_newline(1, key)
}
