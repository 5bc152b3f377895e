// ExternalEditor: opens text in the operator's editor ($VISUAL, else $EDITOR, else vi) on a
// private temporary file and gives back what was saved — for `edit` and readline's C-x C-e.

import Foundation
import ShopCore

/// The operator's text editor.
public enum ExternalEditor {
    /// The editor command: `$VISUAL`, else `$EDITOR`, else `vi` (blank values skipped).
    public static func command(environment: [String: String]) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name]?.trimmingASCIISpaces, !value.isEmpty { return value }
        }
        return "vi"
    }

    /// Writes `text` to a new temporary file (mode 0600: a command may hold customer data), runs
    /// the editor on it in the foreground and waits, and returns the saved text without its
    /// trailing blank lines; nil when the saved file is empty. The file is removed in every case.
    ///
    /// - Throws: ``ShopError/system(_:)`` when the file cannot be made or the editor cannot run,
    ///   ``ShopError/invalidInput(_:)`` when the editor exits with a failure status (nothing is run then).
    public static func edit(_ text: String, environment: [String: String]) throws(ShopError) -> String? {
        let directory = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((directory + "/shopsh-edit-XXXXXX.shop").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 5) }
        guard descriptor >= 0 else { throw .system("cannot create a file to edit in \(directory): \(String(cString: strerror(errno)))") }
        let path = String(cString: template)
        defer { unlink(path) }
        let failed = Array((text.isEmpty ? "" : text + "\n").utf8).withUnsafeBytes { writeAll($0, to: descriptor) }
        close(descriptor)
        if let failed { throw .system("cannot write \(path): \(String(cString: strerror(failed)))") }

        let editor = command(environment: environment)
        let status = try run(["/bin/sh", "-c", editor + " \"$1\"", "shopsh-edit", path])
        guard status == 0 else {
            throw .invalidInput("the editor (\(editor.escapingControls)) exited with status \(status); nothing was run")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .system("cannot read \(path) back") }
        guard let saved = String(data: data, encoding: .utf8) else { throw .invalidInput("the edited text is not UTF-8; nothing was run") }
        var lines = saved.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let last = lines.last, last.trimmingBlanks().isEmpty { lines.removeLast() }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Runs `arguments` with the terminal, and the default signal handling, and returns its exit status.
    private static func run(_ arguments: [String]) throws(ShopError) -> Int32 {
        let pid: pid_t
        switch ChildSpawn.spawn(arguments, actions: nil) {
        case .success(let child): pid = child
        case .failure(let error): throw .system("cannot run the editor: \(error.text)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw .system("cannot wait for the editor: \(String(cString: strerror(errno)))") }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
