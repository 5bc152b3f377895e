// StoreContract+Audit: the audit log's contract — every change writes one row in its own
// transaction, saying what changed from what to what and by which command; refused calls and
// rolled-back runs leave none; passwords never reach it; the listing filters and pages.

import ShopCore
import Testing

extension StoreContract {
    /// The audit log (`AuditService`, and the rows every other service writes).
    public static func audit(_ fixture: some StoreFixture) async {
        await run("audit", fixture, [
            Case("a basket change records the command and the quantity before and after", basketAudit),
            Case("product and user changes record only the fields that changed", entityAudit),
            Case("a password change records no password and no hash", passwordAudit),
            Case("checkout, cancel, favourites and rate imports each record one row", otherAudit),
            Case("nothing changed, nothing recorded", noChangeNoAudit),
            Case("a rolled-back run leaves no audit rows; a committed one keeps them", store: runAudit),
            Case("list filters by entity, id, operator and time, newest first, and pages", auditFilters),
            Case("show finds an entry by id; an unknown id is notFound", auditShow),
        ])
    }

    /// Runs `body` as the shell runs a command typed as `command`.
    static func asCommand<T: Sendable>(_ command: String, _ body: () async throws -> T) async throws -> T {
        let context = AuditContext(command: command, operatorIdentity: OperatorIdentity(name: "contract", role: .admin))
        return try await AuditContext.$current.withValue(context) { try await body() }
    }

    static func auditEntries(_ shop: ShopServices, _ filter: AuditFilter = AuditFilter(), _ page: Page = .all) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try await shop.audit.listAudit(filter, page: page) { entries.append($0) }
        return entries
    }

    static func basketAudit(_ shop: ShopServices) async throws {
        let user = try await ContractData.addUser(shop, "ann")
        let product = try await ContractData.addProduct(shop, sku: "A-1")
        let before = try await auditEntries(shop).count
        _ = try await asCommand("basket add ann A-1 --qty 3") { try await shop.baskets.addToBasket("ann", product: "A-1", quantity: 3) }
        _ = try await asCommand("basket set ann A-1 2") { try await shop.baskets.setBasketQuantity("ann", product: "A-1", quantity: 2) }
        let entries = try await auditEntries(shop, AuditFilter(entity: .basket))
        try #require(entries.count == 2, "\(entries)")
        #expect(try await auditEntries(shop).count == before + 2)
        let set = entries[0], add = entries[1]   // newest first
        #expect(set.command == "basket set ann A-1 2" && add.command == "basket add ann A-1 --qty 3")
        #expect(set.entityID == String(user.id) && set.action == "set" && add.action == "add")
        #expect(set.before?["quantity"] == .integer(3) && set.after?["quantity"] == .integer(2), "\(set)")
        #expect(set.before?["product"] == .integer(product.id))
        #expect(add.before == nil && add.after?["quantity"] == .integer(3), "\(add)")
        #expect(!set.operatorName.isEmpty && !set.role.isEmpty && ContractData.isTimestamp(set.time), "\(set)")
        #expect(set.id > add.id)
        try await asCommand("basket remove ann A-1") { try await shop.baskets.removeFromBasket("ann", product: "A-1") }
        let removed = try #require(try await auditEntries(shop, AuditFilter(entity: .basket)).first)
        #expect(removed.action == "remove" && removed.before?["quantity"] == .integer(2) && removed.after == nil, "\(removed)")
        _ = try await shop.baskets.addToBasket("ann", product: "A-1", quantity: 1)
        _ = try await ContractData.addProduct(shop, sku: "A-2")
        _ = try await shop.baskets.addToBasket("ann", product: "A-2", quantity: 4)
        #expect(try await shop.baskets.clearBasket("ann") == 2)
        let cleared = try await auditEntries(shop, AuditFilter(entity: .basket)).prefix { $0.action == "clear" }
        #expect(cleared.count == 2 && Set(cleared.compactMap { $0.before?["quantity"] }) == [.integer(1), .integer(4)], "\(cleared)")
    }

    static func entityAudit(_ shop: ShopServices) async throws {
        let product = try await ContractData.addProduct(shop, sku: "E-1", title: "Old title", stock: 5)
        _ = try await shop.products.updateProduct("E-1", ProductChanges(title: "New title"))
        _ = try await shop.products.adjustStock("E-1", .set(7))
        let entries = try await auditEntries(shop, AuditFilter(entity: .product, entityID: String(product.id)))
        try #require(entries.count == 3, "\(entries)")
        #expect(entries.map(\.action) == ["stock", "update", "add"])
        #expect(entries[1].before == AuditFields([("title", .text("Old title"))]) && entries[1].after == AuditFields([("title", .text("New title"))]),
                "only the changed field: \(entries[1])")
        #expect(entries[0].before?["stock"] == .integer(5) && entries[0].after?["stock"] == .integer(7))
        #expect(entries[2].before == nil && entries[2].after?["sku"] == .text("E-1"))
        let user = try await ContractData.addUser(shop, "eve")
        _ = try await shop.users.updateUser("eve", UserChanges(lastName: "Other"))
        _ = try await shop.users.setUserStatus("eve", .disabled)
        _ = try await shop.users.deleteUser("eve")
        let userEntries = try await auditEntries(shop, AuditFilter(entity: .user, entityID: String(user.id)))
        #expect(userEntries.map(\.action) == ["delete", "disable", "update", "add"], "\(userEntries)")
        #expect(userEntries[2].after == AuditFields([("last_name", .text("Other"))]))
        #expect(userEntries[1].after == AuditFields([("status", .text("disabled"))]))
        #expect(userEntries[0].after == nil && userEntries[0].before?["username"] == .text("eve"))
        #expect(userEntries[3].after?["email"] == .text("eve@example.com"))
    }

    static func passwordAudit(_ shop: ShopServices) async throws {
        let user = try await ContractData.addUser(shop, "pat")
        try await shop.users.setPassword("pat", "correct horse")
        let entry = try #require(try await auditEntries(shop, AuditFilter(entity: .user, entityID: String(user.id))).first)
        #expect(entry.action == "passwd")
        let text = "\(entry.before?.fields ?? []) \(entry.after?.fields ?? []) \(entry.command)"
        #expect(!text.contains("correct horse") && !text.contains("$"), "\(text)")
    }

    static func otherAudit(_ shop: ShopServices) async throws {
        let user = try await ContractData.addUser(shop, "oli")
        try await ContractData.addProduct(shop, sku: "O-1", stock: 10)
        let order = try await ContractData.placeOrder(shop, "oli", [("O-1", 2)])
        _ = try await shop.orders.setOrderStatus(order.id, .cancelled)
        let orderEntries = try await auditEntries(shop, AuditFilter(entity: .order, entityID: String(order.id)))
        #expect(orderEntries.map(\.action) == ["cancel", "checkout"], "\(orderEntries)")
        #expect(orderEntries[1].after?["user"] == .integer(user.id))
        #expect(orderEntries[0].before?["status"] == .text("placed") && orderEntries[0].after?["status"] == .text("cancelled"))
        #expect(try await shop.favorites.addFavorite("oli", product: "O-1"))
        #expect(try await shop.favorites.toggleFavorite("oli", product: "O-1") == false)
        let favourites = try await auditEntries(shop, AuditFilter(entity: .favourite))
        #expect(favourites.map(\.action) == ["remove", "add"] && favourites.allSatisfy { $0.entityID == String(user.id) }, "\(favourites)")
        _ = try await shop.currencies.storeRates([CurrencyRate(date: "2026-01-02", currency: "USD", rate: ExactDecimal(units: 11, scale: 1)),
                                                  CurrencyRate(date: "2026-01-02", currency: "JPY", rate: ExactDecimal(units: 160, scale: 0))])
        let rates = try await auditEntries(shop, AuditFilter(entity: .currency))
        #expect(rates.count == 1 && rates.first?.after?["rates"] == .integer(2), "\(rates)")
    }

    static func noChangeNoAudit(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "nia")
        try await ContractData.addProduct(shop, sku: "N-1")
        _ = try await shop.favorites.addFavorite("nia", product: "N-1")
        let before = try await auditEntries(shop).count
        #expect(try await shop.favorites.addFavorite("nia", product: "N-1") == false)
        try await expectRefused(.notFound, shop) { try await shop.baskets.addToBasket("nia", product: "N-404", quantity: 1) }
        try await expectRefused(.conflict, shop) { try await shop.baskets.checkout("nia") }
        #expect(try await auditEntries(shop).count == before)
        _ = try await shop.baskets.addToBasket("nia", product: "N-1", quantity: 2)
        #expect(try await auditEntries(shop).count == before + 1)
        // Setting what already is changes nothing, and records nothing.
        #expect(try await shop.baskets.setBasketQuantity("nia", product: "N-1", quantity: 2)?.quantity == 2)
        _ = try await shop.products.updateProduct("N-1", ProductChanges(title: "Thing"))
        _ = try await shop.products.adjustStock("N-1", .add(0))
        _ = try await shop.users.updateUser("nia", UserChanges(lastName: "Last"))
        _ = try await shop.users.setUserStatus("nia", .active)
        #expect(try await auditEntries(shop).count == before + 1)
    }

    static func runAudit(_ store: any ShopStore) async throws {
        try await ContractData.addUser(store.services, "ron")
        try await ContractData.addProduct(store.services, sku: "R-1")
        let before = try await auditEntries(store.services).count
        try await inRun(store, commit: false) { shop in
            _ = try await shop.baskets.addToBasket("ron", product: "R-1", quantity: 1)
            #expect(try await auditEntries(shop).count == before + 1, "the run sees its own row")
        }
        #expect(try await auditEntries(store.services).count == before)
        try await inRun(store, commit: true) { shop in
            _ = try await shop.baskets.addToBasket("ron", product: "R-1", quantity: 1)
            // A failing call inside the run undoes its own row only.
            await #expect(throws: ShopError.self) { try await shop.baskets.addToBasket("ron", product: "R-404", quantity: 1) }
        }
        #expect(try await auditEntries(store.services).count == before + 1)
    }

    static func auditFilters(_ shop: ShopServices) async throws {
        let ann = try await ContractData.addUser(shop, "ann")
        try await ContractData.addUser(shop, "bob")
        try await ContractData.addProduct(shop, sku: "F-1")
        for _ in 0..<3 { _ = try await shop.baskets.addToBasket("ann", product: "F-1", quantity: 1) }
        _ = try await shop.baskets.addToBasket("bob", product: "F-1", quantity: 1)
        let all = try await auditEntries(shop)
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.id > $1.id }, "newest first")
        #expect(try await auditEntries(shop, AuditFilter(entity: .basket, entityID: String(ann.id))).count == 3)
        let page = try await auditEntries(shop, AuditFilter(entity: .basket), Page(limit: 2, offset: 1))
        #expect(page.map(\.id) == Array(all.filter { $0.entity == "basket" }.dropFirst().prefix(2)).map(\.id))
        let operatorName = try #require(all.first?.operatorName)
        #expect(try await auditEntries(shop, AuditFilter(operatorName: operatorName)).count == all.count)
        #expect(try await auditEntries(shop, AuditFilter(operatorName: "nobody-at-all")).isEmpty)
        #expect(try await shop.audit.auditOperators().contains(operatorName))
        #expect(try await auditEntries(shop, AuditFilter(since: "2000-01-01T00:00:00Z", until: "2999-12-31T23:59:59Z")).count == all.count)
        #expect(try await auditEntries(shop, AuditFilter(until: "2000-01-01T00:00:00Z")).isEmpty)
        #expect(try await auditEntries(shop, AuditFilter(since: "2999-01-01T00:00:00Z")).isEmpty)
        let bySort = try await auditEntries(shop, AuditFilter(), Page(sort: [SortKey(field: "id")]))
        #expect(bySort.map(\.id) == all.map(\.id).reversed())
    }

    static func auditShow(_ shop: ShopServices) async throws {
        try await ContractData.addProduct(shop, sku: "S-1")
        let newest = try #require(try await auditEntries(shop).first)
        #expect(try await shop.audit.auditEntry(newest.id) == newest)
        await #expect(throws: ShopError.notFound("no audit entry 987654321")) { try await shop.audit.auditEntry(987_654_321) }
    }
}
