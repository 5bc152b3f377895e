// ShopHistoryTests: the rules of `--as-of` on made-up audit rows — what a TIME means, and a
// product, a basket and a user rolled back row by row (the end-to-end runs are LiveAndPastTests).

import ShopCore
import Testing

@Suite struct ShopHistoryTests {
    static let now = ShopClock.parse("2026-11-28T12:00:00Z") ?? 0

    static func row(_ id: Int64, _ time: String, _ entity: AuditEntity, _ entityID: String, _ action: String,
                    before: [(String, AuditValue)]?, after: [(String, AuditValue)]?) -> AuditEntry {
        AuditEntry(id: id, time: time, operatorName: "alice", role: "admin", command: "", entity: entity.rawValue, entityID: entityID,
                   action: action, before: before.map(AuditFields.init), after: after.map(AuditFields.init))
    }

    // MARK: - TIME

    @Test func aTimeIsAnInstantADaysEndOrASpanAgo() throws {
        #expect(try HistoryMoment.parse("2026-11-27T08:30:00Z", now: Self.now).description == "2026-11-27T08:30:00Z")
        #expect(try HistoryMoment.parse("2026-11-27", now: Self.now).description == "2026-11-27T23:59:59Z")
        #expect(try HistoryMoment.parse("2h", now: Self.now).description == "2026-11-28T10:00:00Z")
        #expect(try HistoryMoment.parse("3d", now: Self.now).description == "2026-11-25T12:00:00Z")
        #expect(try HistoryMoment.parse("1w", now: Self.now).description == "2026-11-21T12:00:00Z")
        #expect(try HistoryMoment.parse("90s", now: Self.now).description == "2026-11-28T11:58:30Z")
    }

    @Test(arguments: ["", "2", "h", "-2h", "2x", "yesterday", "2026-13-01", "2026-11-28T25:00:00Z", "99999999999w", "2 h"])
    func aWrongTimeIsOneLine(_ text: String) {
        #expect(throws: ShopError.self) { try HistoryMoment.parse(text, now: Self.now) }
    }

    @Test func theFutureIsRefused() {
        #expect(throws: ShopError.invalidInput("--as-of \"2026-11-29\" is in the future (it is 2026-11-28T12:00:00Z now)")) {
            try HistoryMoment.parse("2026-11-29", now: Self.now)
        }
    }

    // MARK: - Products

    @Test func aProductIsRolledBackRowByRowAndItsStockByTheLedger() {
        let now = Product(id: 1, sku: "A-1", title: "New title", category: "beauty", price: Money(minorUnits: 1500, currency: .usd), stock: 3)
        let rows = [
            Self.row(9, "2026-11-28T11:00:00Z", .product, "2", "add", before: nil, after: [("sku", .text("B-2"))]),
            Self.row(8, "2026-11-28T10:30:00Z", .product, "1", "update", before: [("price", .text("12.00 USD"))], after: [("price", .text("15.00 USD"))]),
            Self.row(7, "2026-11-28T10:10:00Z", .product, "1", "update", before: [("title", .text("Old title"))], after: [("title", .text("New title"))]),
            Self.row(6, "2026-11-28T10:05:00Z", .product, "5", "delete",
                     before: [("sku", .text("E-5")), ("title", .text("Gone")), ("category", .text("toys")), ("price", .text("2.50 USD")),
                              ("stock", .integer(4)), ("tags", .list(["x"]))], after: nil),
        ]
        let movements = [StockMovement(id: 1, productID: 1, at: "2026-11-28T10:20:00Z", operatorName: "alice", change: -2, balance: 3,
                                       reason: "checkout", orderID: 7, note: nil)]
        let then = ShopHistory.products(current: [now, Product(id: 2, sku: "B-2", title: "Later", category: "x", price: Money(minorUnits: 1, currency: .usd))],
                                        rows: rows, movements: movements)
        #expect(then.map(\.id) == [1, 5], "the product added since is gone, the one deleted since is back")
        #expect(then[0].title == "Old title" && then[0].price.minorUnits == 1200 && then[0].stock == 5)
        #expect(then[1].sku == "E-5" && then[1].price.minorUnits == 250 && then[1].stock == 4 && then[1].tags == ["x"])
    }

    // MARK: - Baskets

    @Test func aBasketGetsBackWhatACheckoutAndADeleteTookAndLosesWhatCameLater() throws {
        let moment = try HistoryMoment.parse("2026-11-28T10:00:00Z", now: Self.now)
        let line = { (id: Int64, quantity: Int) in
            BasketLine(userID: 1, productID: id, sku: "S\(id)", title: "T\(id)", unitPrice: Money(minorUnits: 100, currency: .usd),
                       discount: .zero, quantity: quantity)
        }
        let rows = [   // newest first
            Self.row(20, "2026-11-28T11:00:00Z", .basket, "1", "add", before: nil, after: [("product", .integer(9)), ("quantity", .integer(1))]),
            Self.row(19, "2026-11-28T10:40:00Z", .order, "77", "checkout", before: nil,
                     after: [("user", .integer(1)), ("status", .text("placed")), ("lines", .list(["3 × 2", "4 × 5"]))]),
            Self.row(18, "2026-11-28T10:30:00Z", .product, "6", "delete", before: [("sku", .text("S6"))], after: nil),
            Self.row(17, "2026-11-28T10:20:00Z", .basket, "1", "set", before: [("product", .integer(3)), ("quantity", .integer(1))],
                     after: [("product", .integer(3)), ("quantity", .integer(2))]),
            Self.row(12, "2026-11-28T09:00:00Z", .basket, "1", "add", before: nil, after: [("product", .integer(6)), ("quantity", .integer(7))]),
            Self.row(11, "2026-11-28T08:00:00Z", .basket, "1", "add", before: nil, after: [("product", .integer(4)), ("quantity", .integer(5))]),
        ]
        let then = ShopHistory.basket(userID: 1, current: [line(9, 1)], coupon: nil, rows: rows, moment: moment,
                                      historyStart: "2026-11-01T00:00:00Z")
        #expect(then.lines.map(\.productID) == [3, 4, 6], "the seeded line first (the log's start), then by when each was made")
        #expect(then.lines.map(\.quantity) == [1, 5, 7])
    }

    // MARK: - Users

    @Test func aUserDeletedSinceIsRebuiltFromTheDeleteRow() {
        let rows = [
            Self.row(5, "2026-11-28T11:00:00Z", .user, "4", "delete",
                     before: [("username", .text("sam")), ("email", .text("sam@example.org")), ("first_name", .text("Sam")),
                              ("last_name", .text("Lee")), ("phone", .null), ("role", .text("user")), ("status", .text("disabled"))], after: nil),
            Self.row(4, "2026-11-28T10:30:00Z", .user, "4", "disable", before: [("status", .text("active"))], after: [("status", .text("disabled"))]),
        ]
        let then = ShopHistory.user(id: 4, current: nil, rows: rows, createdAt: "2026-11-01T00:00:00Z")
        #expect(then?.username == "sam" && then?.status == .active && then?.createdAt == "2026-11-01T00:00:00Z")
        let added = [Self.row(6, "2026-11-28T11:00:00Z", .user, "4", "add", before: nil, after: [("username", .text("sam"))])]
        #expect(ShopHistory.user(id: 4, current: User(id: 4, username: "sam", email: "", firstName: "", lastName: "", createdAt: ""),
                                 rows: added, createdAt: nil) == nil, "not there before it was added")
    }
}
