// StoreContract+BulkChanges: changes to many products at once (`ProductService.applyProductChanges`)
// and the audit log's change sets — all or nothing, checked against the values they were planned
// from, one change set per transaction.

import ShopCore
import Testing

extension StoreContract {
    /// Bulk product changes and change sets.
    public static func bulkChanges(_ fixture: some StoreFixture) async {
        await run("bulkChanges", fixture, [
            Case("a plan applies every change, audited under one change set", appliesUnderOneChangeSet),
            Case("a product changed since the plan stops the whole change", staleProductStopsEverything),
            Case("a product deleted since the plan stops the whole change", deletedProductStopsEverything),
            Case("plans changing different fields each change and audit only theirs", mixedPlansChangeOnlyTheirFields),
            Case("a plan that breaks a rule changes nothing", ruleBreakStopsEverything),
            Case("separate changes have separate change sets", separateChangesDiffer),
            Case("selections by brand, stock below and ids", selectionFilters),
        ])
    }

    /// Three products, prices 10.00, 20.00 and 30.05.
    static func addBulkCatalogue(_ shop: ShopServices) async throws -> [Product] {
        [try await ContractData.addProduct(shop, sku: "BLK-1", price: 1_000, stock: 5, brand: "Acme"),
         try await ContractData.addProduct(shop, sku: "BLK-2", price: 2_000, stock: 0, brand: "acme"),
         try await ContractData.addProduct(shop, sku: "BLK-3", price: 3_005, stock: 12, brand: "Brio")]
    }

    static func auditRows(_ shop: ShopServices, changeSet: Int64? = nil) async throws -> [AuditEntry] {
        var rows: [AuditEntry] = []
        try await shop.audit.listAudit(AuditFilter(changeSet: changeSet), page: Page()) { rows.append($0) }
        return rows
    }

    static func appliesUnderOneChangeSet(_ shop: ShopServices) async throws {
        let products = try await addBulkCatalogue(shop)
        let plans = try ProductChangePlan.plan(ProductEdit(price: .percent(hundredths: -1_000)), over: products)
        #expect(plans.map { $0.changes.price?.minorUnits } == [900, 1_800, 2_705])   // 30.05 × 0.9 = 27.045 → 27.05
        let changeSet = try await shop.products.applyProductChanges(plans)
        #expect(changeSet != nil)
        for (product, cents) in zip(products, [Int64(900), 1_800, 2_705]) {
            #expect(try await shop.products.product(product.sku).price.minorUnits == cents)
        }
        let rows = try await auditRows(shop, changeSet: changeSet)
        #expect(rows.count == 3 && rows.allSatisfy { $0.action == "update" && $0.changeSet == changeSet })
        #expect(Set(rows.map(\.entityID)) == Set(products.map { String($0.id) }))
        #expect(try await shop.products.applyProductChanges([]) == nil)
    }

    static func staleProductStopsEverything(_ shop: ShopServices) async throws {
        let products = try await addBulkCatalogue(shop)
        let plans = try ProductChangePlan.plan(ProductEdit(price: .times(tenThousandths: 20_000)), over: products)
        _ = try await shop.products.updateProduct("BLK-3", ProductChanges(price: ContractData.usd(3_100)))
        let error = try await expectRefused(.conflict, shop) { try await shop.products.applyProductChanges(plans) }
        #expect(error?.message.contains("BLK-3") == true && error?.message.contains("31.00") == true && error?.message.contains("30.05") == true,
                "\(String(describing: error))")
    }

    static func deletedProductStopsEverything(_ shop: ShopServices) async throws {
        let products = try await addBulkCatalogue(shop)
        let plans = try ProductChangePlan.plan(ProductEdit(stock: .add(3)), over: products)
        _ = try await shop.products.deleteProduct("BLK-2")
        let error = try await expectRefused(.notFound, shop) { try await shop.products.applyProductChanges(plans) }
        #expect(error?.message.contains(String(products[1].id)) == true, "\(String(describing: error))")
        #expect(try await shop.products.product("BLK-1").stock == 5)
        #expect(try await shop.products.product("BLK-3").stock == 12)
    }

    /// Plans made by hand, one field each (as a revert makes them): a price, a brand given to a
    /// product without one, a brand cleared, a stock. Each product takes its own change only,
    /// and its audit row names that field alone, before and after.
    static func mixedPlansChangeOnlyTheirFields(_ shop: ShopServices) async throws {
        let products = try await addBulkCatalogue(shop)
        let plain = try await ContractData.addProduct(shop, sku: "BLK-4", price: 4_000, stock: 1, brand: nil)
        let plans = [
            ProductChangePlan(before: products[0], changes: ProductChanges(price: ContractData.usd(1_234))),
            ProductChangePlan(before: plain, changes: ProductChanges(brand: "Newco")),
            ProductChangePlan(before: products[1], changes: ProductChanges(brand: "")),
            ProductChangePlan(before: products[2], changes: ProductChanges(stock: 7)),
        ]
        let changeSet = try await shop.products.applyProductChanges(plans)
        let after = [try await shop.products.product("BLK-1"), try await shop.products.product("BLK-4"),
                     try await shop.products.product("BLK-2"), try await shop.products.product("BLK-3")]
        #expect(after.map(\.price.minorUnits) == [1_234, 4_000, 2_000, 3_005])
        #expect(after.map(\.brand) == ["Acme", "Newco", nil, "Brio"])
        #expect(after.map(\.stock) == [5, 1, 0, 7])
        let rows = Dictionary(uniqueKeysWithValues: try await auditRows(shop, changeSet: changeSet).map { ($0.entityID, $0) })
        func fields(_ product: Product) -> [String]? { rows[String(product.id)]?.after?.fieldNames }
        #expect(fields(products[0]) == ["price"] && fields(plain) == ["brand"] && fields(products[1]) == ["brand"]
                && fields(products[2]) == ["stock"], "\(rows)")
        #expect(rows[String(products[0].id)]?.before?["price"] == .text("10.00 USD"))
        #expect(rows[String(products[0].id)]?.after?["price"] == .text("12.34 USD"))
        #expect(rows[String(plain.id)]?.before?["brand"] == .null && rows[String(plain.id)]?.after?["brand"] == .text("Newco"))
        #expect(rows[String(products[1].id)]?.before?["brand"] == .text("acme") && rows[String(products[1].id)]?.after?["brand"] == .null)
        #expect(rows[String(products[2].id)]?.before?["stock"] == .integer(12) && rows[String(products[2].id)]?.after?["stock"] == .integer(7))
    }

    static func ruleBreakStopsEverything(_ shop: ShopServices) async throws {
        let products = try await addBulkCatalogue(shop)
        // Planning refuses a stock below zero and a price at or below zero, naming the product.
        #expect(throws: ShopError.self) { try ProductChangePlan.plan(ProductEdit(stock: .remove(6)), over: products) }
        #expect(throws: ShopError.self) { try ProductChangePlan.plan(ProductEdit(price: .add(ContractData.usd(-1_000))), over: products) }
        // A plan made by hand that the store's rules refuse (a SKU another product has) changes nothing.
        var plans = try ProductChangePlan.plan(ProductEdit(discount: .set(ContractData.percent(500))), over: products)
        plans[2].changes.sku = "BLK-1"
        _ = try await expectRefused(.conflict, shop) { try await shop.products.applyProductChanges(plans) }
    }

    static func separateChangesDiffer(_ shop: ShopServices) async throws {
        let products = try await addBulkCatalogue(shop)
        let first = try await shop.products.applyProductChanges(
            try ProductChangePlan.plan(ProductEdit(stock: .add(1)), over: Array(products.prefix(2))))
        _ = try await shop.products.updateProduct("BLK-3", ProductChanges(title: "Renamed"))
        let rows = try await auditRows(shop)
        let sets = Dictionary(grouping: rows.filter { $0.action == "update" }, by: { $0.changeSet })
        #expect(sets[first]?.count == 2)
        #expect(sets.count == 2 && sets.keys.allSatisfy { $0 != nil })
        // Each add was its own change too.
        #expect(Set(rows.filter { $0.action == "add" }.compactMap(\.changeSet)).count == 3)
    }

    static func selectionFilters(_ shop: ShopServices) async throws {
        _ = try await addBulkCatalogue(shop)
        func skus(_ filter: ProductFilter) async throws -> [String] {
            try await ContractData.list(shop, filter, Page(sort: [SortKey(field: "sku")])).map(\.sku)
        }
        #expect(try await skus(ProductFilter(brand: "ACME")) == ["BLK-1", "BLK-2"])
        #expect(try await skus(ProductFilter(stockBelow: 6)) == ["BLK-1", "BLK-2"])
        let ids = try await ContractData.list(shop, ProductFilter(), Page(sort: [SortKey(field: "id")])).map(\.id)
        #expect(try await skus(ProductFilter(ids: [ids[0]...ids[0], ids[2]...ids[2]])) == ["BLK-1", "BLK-3"])
        #expect(try await skus(ProductFilter(ids: [ids[1]...ids[2]])) == ["BLK-2", "BLK-3"])
        #expect(try await shop.products.countProducts(ProductFilter(brand: "acme", stockBelow: 1)) == 1)
        #expect(throws: ShopError.self) { try ProductFilter.parseIDs("5-2") }
        #expect(throws: ShopError.self) { try ProductFilter.parseIDs("1,,2") }
        #expect(try ProductFilter.parseIDs("1,2,5-9") == [1...1, 2...2, 5...9])
    }
}
