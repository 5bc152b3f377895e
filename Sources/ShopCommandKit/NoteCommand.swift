// NoteCommand: the one implementation of `orders note ID [TEXT] [--delete N]` and `users note USER
// [TEXT] [--delete N]` — with text it adds a note (support), without it lists the notes (any
// role), with --delete it deletes one (an admin); and the one place where notes become columns.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput

/// How notes become output.
public enum NoteRows {
    public static let columns = ["id", "author", "at", "text"].map(Column.init)

    public static func cells(_ note: Note) -> [Cell] {
        [.integer(note.id), .text(note.author), .text(note.at), .text(note.text)]
    }

    /// What a table shows: who and when always, the text cut first.
    public static let tableView = TableView(["id", "author", "at", "text"])
}

/// The words and options every note command shares: the note's text, `--delete ID`, the output.
public struct NoteArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The note (several words are joined by spaces); none lists the notes.", valueName: "text"))
    public var words: [String] = []

    @Option(name: .customLong("file"), help: ArgumentHelp("Read the note from this file (/dev/stdin: a pipe); it may hold several lines.",
                                                          valueName: "path"),
            completion: .file())
    public var file: String?

    @Option(name: .customLong("delete"), parsing: .unconditional,
            help: ArgumentHelp("Delete this note (an admin's to do).", valueName: "note-id"))
    public var delete: Int64?

    @OptionGroup public var output: OutputOptions

    public init() {}

    /// The change this invocation makes: adding, deleting, or none (listing).
    public var operation: ShopOperation? {
        if delete != nil { return .deleteNote }
        return words.isEmpty && file == nil ? nil : .addNote
    }

    /// Adds, lists or deletes the notes of `target`, as the words and options say.
    public func run(on target: NoteTarget, in context: CommandContext) async throws {
        let notes = context.services.notes
        if file != nil && !words.isEmpty { throw ShopError.usage("give the note as words or --file, not both") }
        if let delete {
            guard words.isEmpty && file == nil else { throw ShopError.usage("--delete takes no note text") }
            let deleted = try await notes.deleteNote(delete, on: target)
            try context.record(columns: NoteRows.columns, row: NoteRows.cells(deleted), options: output)
            context.note("deleted note \(deleted.id) of \(target.described)")
        } else if words.isEmpty && file == nil {
            let listed = try await notes.notes(on: target)
            try await context.list(columns: NoteRows.columns, tableView: NoteRows.tableView, options: output, page: Page(),
                                   emptyNote: "\(target.described) has no notes") { emit in
                for note in listed { try emit(NoteRows.cells(note)) }
            }
        } else {
            // A file's surrounding blank lines go, as a note's surrounding blanks do (NoteRules).
            let text = try file.map { path throws(ShopError) in try FileInput.readText(path) } ?? words.joined(separator: " ")
            let added = try await notes.addNote(on: target, text)
            try context.record(columns: NoteRows.columns, row: NoteRows.cells(added), options: output)
            context.note("added note \(added.id) to \(target.described)")
        }
    }
}
