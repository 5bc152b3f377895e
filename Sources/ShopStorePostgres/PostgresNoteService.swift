// PostgresNoteService: NoteService on PostgreSQL — the team's notes in `notes` (migration 14).
// The server sets each note's author (the login, `session_user`) and time: support may insert
// only the note's subject and text (a column grant), and only an admin may delete; a CHECK holds
// the text to NoteRules at psql too.

import Logging
import PostgresNIO
import ShopCore

struct PostgresNoteService: NoteService {
    let database: PostgresDatabase

    func notes(on target: NoteTarget) async throws -> [Note] {
        try await database.read("reading notes") { connection in
            let subject = try await Self.subject(connection, target, database: database)
            return try await Self.all(connection, subject, logger: database.logger)
        }
    }

    func addNote(on target: NoteTarget, _ text: String) async throws -> Note {
        let checked = try NoteRules.text(text)
        return try await database.write(.addNote, action: "note") { connection in
            let subject = try await Self.subject(connection, target, database: database)
            let (order, user) = (subject.orderID, subject.userID)
            for try await row in try await connection.query("""
                INSERT INTO notes (order_id, user_id, text) VALUES (\(order), \(user), \(checked))
                RETURNING id, author, floor(extract(epoch FROM created_at))::bigint, text
                """, logger: database.logger).decode(NoteRow.self) {
                return Self.note(row, subject)
            }
            throw ShopError.storage("adding a note: the server returned no row")
        }
    }

    func deleteNote(_ id: Int64, on target: NoteTarget) async throws -> Note {
        try await database.write(.deleteNote, action: "note") { connection in
            let subject = try await Self.subject(connection, target, database: database)
            let (order, user) = (subject.orderID, subject.userID)
            for try await row in try await connection.query("""
                DELETE FROM notes WHERE id = \(id) AND (order_id = \(order) OR user_id = \(user))
                RETURNING id, author, floor(extract(epoch FROM created_at))::bigint, text
                """, logger: database.logger).decode(NoteRow.self) {
                return Self.note(row, subject)
            }
            throw NoteLookup.notFound(id, on: target)
        }
    }

    // MARK: - Rows

    typealias NoteRow = (Int64, String, Int64, String)

    static func note(_ row: NoteRow, _ subject: NoteSubject) -> Note {
        Note(id: row.0, subject: subject, author: row.1, at: ShopClock.timestamp(row.2), text: row.3)
    }

    /// The order or customer `target` names (one line when there is none).
    static func subject(_ connection: PostgresConnection, _ target: NoteTarget, database: PostgresDatabase) async throws -> NoteSubject {
        switch target {
        case .order(let id):
            for try await _ in try await connection.query("SELECT 1 FROM orders WHERE id = \(id)", logger: database.logger) {
                return .order(id)
            }
            throw ShopError.notFound("no order \(id)")
        case .user(let reference):
            return .user(try await PostgresUserLookup.find(connection, reference, source: database.usersSource, logger: database.logger).id)
        }
    }

    static func all(_ connection: PostgresConnection, _ subject: NoteSubject, logger: Logger) async throws -> [Note] {
        let (order, user) = (subject.orderID, subject.userID)
        var notes: [Note] = []
        for try await row in try await connection.query("""
            SELECT id, author, floor(extract(epoch FROM created_at))::bigint, text FROM notes
            WHERE order_id = \(order) OR user_id = \(user) ORDER BY id
            """, logger: logger).decode(NoteRow.self) {
            notes.append(note(row, subject))
        }
        return notes
    }
}
