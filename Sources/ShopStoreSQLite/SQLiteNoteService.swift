// SQLiteNoteService: NoteService on SQLite — the team's notes in `notes` (Schema v10), each on
// one order or one customer; the author is the operator the audit log names, the time the
// store's clock; adding and deleting are audited under the order or customer.

import GRDB
import ShopCore

struct SQLiteNoteService: NoteService {
    let database: DatabaseQueue
    let clock: ShopClock

    func notes(on target: NoteTarget) async throws -> [Note] {
        try database.shopRead { db in
            let subject = try Self.subject(db, target)
            return try Self.all(db, subject)
        }
    }

    func addNote(on target: NoteTarget, _ text: String) async throws -> Note {
        let checked = try NoteRules.text(text)
        return try database.shopWrite { db in
            let subject = try Self.subject(db, target)
            let (order, user) = (subject.orderID, subject.userID)
            try db.execute(sql: "INSERT INTO notes (order_id, user_id, author, created_at, text) VALUES (?, ?, ?, ?, ?)",
                           arguments: [order, user, SQLiteOrderService.operatorName, clock.timestamp(), checked])
            let note = try Self.find(db, db.lastInsertedRowID, subject, target)
            try SQLiteAuditLog.record(.note(note, deleted: false), in: db, at: note.at)
            return note
        }
    }

    func deleteNote(_ id: Int64, on target: NoteTarget) async throws -> Note {
        try database.shopWrite { db in
            let subject = try Self.subject(db, target)
            let note = try Self.find(db, id, subject, target)
            try db.execute(sql: "DELETE FROM notes WHERE id = ?", arguments: [id])
            try SQLiteAuditLog.record(.note(note, deleted: true), in: db, at: clock.timestamp())
            return note
        }
    }

    // MARK: - Rows

    /// The order or customer `target` names (one line when there is none).
    static func subject(_ db: Database, _ target: NoteTarget) throws -> NoteSubject {
        switch target {
        case .order(let id):
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM orders WHERE id = ?)", arguments: [id]) == true else {
                throw ShopError.notFound("no order \(id)")
            }
            return .order(id)
        case .user(let reference):
            return .user(try SQLiteUserLookup.find(db, reference).id)
        }
    }

    static func all(_ db: Database, _ subject: NoteSubject) throws -> [Note] {
        let (order, user) = (subject.orderID, subject.userID)
        return try Row.fetchAll(db, sql: """
            SELECT id, author, created_at, text FROM notes
            WHERE (order_id = ? AND ? IS NOT NULL) OR (user_id = ? AND ? IS NOT NULL) ORDER BY id
            """, arguments: [order, order, user, user]).map { row in
            Note(id: row[0], subject: subject, author: row[1], at: row[2], text: row[3])
        }
    }

    static func find(_ db: Database, _ id: Int64, _ subject: NoteSubject, _ target: NoteTarget) throws -> Note {
        guard let note = try all(db, subject).first(where: { $0.id == id }) else { throw NoteLookup.notFound(id, on: target) }
        return note
    }
}
