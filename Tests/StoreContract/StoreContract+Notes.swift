// StoreContract+Notes: the team's notes on orders and customers (issue 35) — added with the
// store's author and time, listed oldest first per order or customer, deleted by id under the
// right subject only, bad text and unknown subjects refused with nothing changed, and each
// addition and deletion one audit row under its order or customer.

import ShopCore
import Testing

extension StoreContract {
    /// `NoteService`.
    public static func notes(_ fixture: some StoreFixture) async {
        await run("notes", fixture, [
            Case("notes are kept per order and per customer, oldest first", notesKeptPerSubject),
            Case("bad notes and unknown subjects change nothing", badNotesRefused),
            Case("adding and deleting a note are audited under its subject", notesAudited),
        ])
    }

    static func notesKeptPerSubject(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG")
        let ada = try await ContractData.addUser(shop, "ada")
        let order = try await ContractData.placeOrder(shop, "ada", [("MUG", 1)])
        let first = try await shop.notes.addNote(on: .order(order.id), "  call, don't email  ")
        #expect(first.text == "call, don't email" && first.subject == .order(order.id) && !first.author.isEmpty
                && ContractData.isTimestamp(first.at), "\(first)")
        let second = try await shop.notes.addNote(on: .order(order.id), "left with\nthe neighbour\tat 5")
        #expect(second.text == "left with\nthe neighbour\tat 5")
        let onAda = try await shop.notes.addNote(on: .user("ADA@example.com"), "prefers mornings")
        #expect(onAda.subject == .user(ada.id))
        #expect(try await shop.notes.notes(on: .order(order.id)) == [first, second])
        #expect(try await shop.notes.notes(on: .user(String(ada.id))) == [onAda])
        // A note is deleted under its own subject only.
        try await expectRefused(.notFound, shop) { try await shop.notes.deleteNote(onAda.id, on: .order(order.id)) }
        #expect(try await shop.notes.deleteNote(first.id, on: .order(order.id)) == first)
        #expect(try await shop.notes.notes(on: .order(order.id)) == [second])
        try await expectRefused(.notFound, shop) { try await shop.notes.deleteNote(first.id, on: .order(order.id)) }
    }

    static func badNotesRefused(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG")
        try await ContractData.addUser(shop, "ada")
        let order = try await ContractData.placeOrder(shop, "ada", [("MUG", 1)])
        for bad in ["", " \n\t ", "ring \u{1B}[2J", "bell\u{07}", "c1\u{85}", String(repeating: "x", count: NoteRules.maxLength + 1)] {
            try await expectRefused(.invalidInput, shop) { try await shop.notes.addNote(on: .order(order.id), bad) }
        }
        try await expectRefused(.notFound, shop) { try await shop.notes.addNote(on: .order(order.id + 1_000), "hello") }
        try await expectRefused(.notFound, shop) { try await shop.notes.addNote(on: .user("nobody"), "hello") }
        try await expectRefused(.notFound, shop) { try await shop.notes.notes(on: .order(order.id + 1_000)) }
        #expect(try await shop.notes.addNote(on: .order(order.id), String(repeating: "é", count: NoteRules.maxLength)).text.count
                == NoteRules.maxLength)
    }

    static func notesAudited(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "MUG")
        let ada = try await ContractData.addUser(shop, "ada")
        let order = try await ContractData.placeOrder(shop, "ada", [("MUG", 1)])
        let note = try await shop.notes.addNote(on: .order(order.id), "call first")
        _ = try await shop.notes.deleteNote(note.id, on: .order(order.id))
        _ = try await shop.notes.addNote(on: .user("ada"), "prefers mornings")
        let onOrder = try await auditEntries(shop, AuditFilter(entity: .order, entityID: String(order.id))).filter { $0.action.hasPrefix("note ") }
            .sorted { $0.id < $1.id }
        #expect(onOrder.map(\.action) == ["note add", "note delete"], "\(onOrder)")
        #expect(onOrder.first?.after?["text"] == .text("call first") && onOrder.first?.after?["note"] == .integer(note.id))
        #expect(onOrder.last?.before?["text"] == .text("call first") && onOrder.last?.after == nil)
        let onAda = try await auditEntries(shop, AuditFilter(entity: .user, entityID: String(ada.id))).filter { $0.action.hasPrefix("note ") }
        #expect(onAda.map(\.action) == ["note add"] && onAda.first?.after?["text"] == .text("prefers mornings"))
    }
}
