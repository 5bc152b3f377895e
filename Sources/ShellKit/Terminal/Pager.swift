// Pager: long output on a terminal goes through $PAGER (default `less -FRX`), as in psql.

import Foundation
import ShopCore
import ShopOutput

/// Shows a command's terminal output directly, or through the pager when it is taller than the screen.
enum Pager {
    /// The pager command: `$PAGER`, else `less -FRX`; nil when paging is off (`PAGER=` or `cat`).
    static func command(environment: [String: String]) -> String? {
        if let pager = environment["PAGER"] {
            let trimmed = pager.trimmingASCIISpaces
            return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
        }
        return "less -FRX"
    }

    /// Writes `text` to stdout, or to the pager when it has more lines than the terminal.
    static func show(_ text: String, environment: [String: String], stdout: OutputSink) {
        let lines = text.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        guard let pager = command(environment: environment), lines >= Terminal.height() - 1,
              let destination = try? OutputDestination.pipe(to: pager) else {
            stdout.write(text)
            try? stdout.flush()
            return
        }
        destination.sink.write(text)
        _ = destination.finish()   // the pager's status says nothing about the command
    }
}
