// PostgresRoundTripTests: the common basket commands reach the server in one round trip when they
// succeed (issue 20), counted on the wire by a proxy between the store and the test server; a
// refused one still says exactly why, and leaves nothing changed.

import Foundation
import ShopCore
import Testing
@testable import ShopStorePostgres
import PostgresConnectionKit

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresRoundTripTests {
    /// A store on a schema of its own, reached through a counting proxy, with two customers (one
    /// disabled) and two products (one out of stock).
    func makeShop() async throws -> (PostgresStore, RoundTripCounter) {
        let (url, counter) = try proxiedURL()
        let store = try await PostgresStore.open(url, searchPath: try await PostgresTestServer.makeSchema())
        _ = try await store.services.users.addUser(NewUser(username: "ann", email: "ann@example.com"))
        _ = try await store.services.users.addUser(NewUser(username: "bob", email: "bob@example.com"))
        _ = try await store.services.users.setUserStatus("bob", .disabled)
        _ = try await store.services.products.addProduct(NewProduct(sku: "LAMP-1", title: "Lamp", category: "home",
                                                                 price: Money(minorUnits: 1999, currency: .usd), stock: 5))
        _ = try await store.services.products.addProduct(NewProduct(sku: "GONE-1", title: "Gone", category: "home",
                                                                 price: Money(minorUnits: 500, currency: .usd), stock: 0))
        return (store, counter)
    }

    /// The test server's URL through a new counting proxy.
    func proxiedURL() throws -> (PostgresConnectionString, RoundTripCounter) {
        var url = try PostgresTestServer.connectionURL()
        let upstream = try #require(url.hosts.first)
        let counter = try RoundTripCounter(upstreamHost: upstream.name, upstreamPort: upstream.port)
        url.hosts = [PostgresConnectionString.Host(name: "127.0.0.1", port: counter.port)]
        return (url, counter)
    }

    func auditEntries(_ store: PostgresStore) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try await store.services.audit.listAudit(AuditFilter(), page: Page()) { entries.append($0) }
        return entries
    }

    /// What `body` returned, and the round trips it took.
    func counted<T>(_ counter: RoundTripCounter, _ body: () async throws -> T) async throws -> (T, Int) {
        counter.reset()
        let value = try await body()
        return (value, counter.roundTrips)
    }

    @Test func basketChangesAndTheBasketAreOneRoundTripEach() async throws {
        let (store, counter) = try await makeShop()
        defer { store.close(); counter.stop() }
        let baskets = store.services.baskets
        let (added, addTrips) = try await counted(counter) { try await baskets.addToBasket("ANN@example.com", product: "lamp-1", quantity: 2) }
        #expect(addTrips == 1)
        #expect(added.quantity == 2 && added.sku == "LAMP-1" && added.stock == 5 && added.unitPrice.minorUnits == 1999)
        let (more, moreTrips) = try await counted(counter) { try await baskets.addToBasket("ann", product: "1", quantity: 1) }
        #expect(moreTrips == 1 && more.quantity == 3)
        let (set, setTrips) = try await counted(counter) { try await baskets.setBasketQuantity("1", product: "LAMP-1", quantity: 4) }
        #expect(setTrips == 1 && set?.quantity == 4)
        // The basket's statement is prepared on a connection's first show (one round trip more).
        let (_, firstShowTrips) = try await counted(counter) { try await baskets.basket("ann") }
        #expect(firstShowTrips <= 2)
        let (basket, showTrips) = try await counted(counter) { try await baskets.basket("ann") }
        #expect(showTrips == 1 && basket.user.username == "ann" && basket.lines.map(\.quantity) == [4])
        let (_, removeTrips) = try await counted(counter) { try await baskets.removeFromBasket("ann", product: "LAMP-1") }
        #expect(removeTrips == 1)
        let (again, againTrips) = try await counted(counter) { try await baskets.setBasketQuantity("ann", product: "LAMP-1", quantity: 2) }
        #expect(againTrips == 1 && again?.quantity == 2)
        let (zero, zeroTrips) = try await counted(counter) { try await baskets.setBasketQuantity("ann", product: "LAMP-1", quantity: 0) }
        #expect(zeroTrips == 1 && zero == nil)
        #expect(try await baskets.basket("ann").lines.isEmpty)
        // The audit log names each change by its command's action, as the step-by-step path does.
        let actions = try await auditEntries(store).filter { $0.entity == "basket" }.map(\.action)
        #expect(actions.sorted() == ["add", "add", "remove", "set", "set", "set"])
    }

    @Test func favouriteChangesAreOneRoundTripEach() async throws {
        let (store, counter) = try await makeShop()
        defer { store.close(); counter.stop() }
        let favorites = store.services.favorites
        let steps: [(String, () async throws -> Bool, Bool)] = [
            ("add", { try await favorites.addFavorite("ann", product: "LAMP-1") }, true),
            ("add again", { try await favorites.addFavorite("ANN@example.com", product: "1") }, false),
            ("toggle off", { try await favorites.toggleFavorite("ann", product: "lamp-1") }, false),
            ("toggle on", { try await favorites.toggleFavorite("1", product: "LAMP-1") }, true),
            ("remove", { try await favorites.removeFavorite("ann", product: "LAMP-1") }, true),
            ("remove again", { try await favorites.removeFavorite("ann", product: "LAMP-1") }, false),
        ]
        for (name, step, expected) in steps {
            let (result, trips) = try await counted(counter, step)
            #expect(result == expected && trips == 1, "\(name): \(result), \(trips) round trips")
        }
        // A disabled customer keeps favourites (only buying is refused), as on the step-by-step path.
        #expect(try await favorites.addFavorite("bob", product: "GONE-1"))
        await #expect(throws: ShopError.notFound("no product with id or SKU \"NOPE\"")) {
            try await favorites.addFavorite("ann", product: "NOPE")
        }
        let actions = try await auditEntries(store).filter { $0.entity == "favourite" }.map(\.action)
        #expect(actions.count == 5, "\(actions)")
    }

    @Test func aStockChangeIsOneRoundTrip() async throws {
        let (store, counter) = try await makeShop()
        defer { store.close(); counter.stop() }
        let products = store.services.products
        for (change, expected) in [(StockChange.add(3), 8), (.remove(2), 6), (.set(11), 11)] {
            let (product, trips) = try await counted(counter) { try await products.adjustStock("lamp-1", change) }
            #expect(product.stock == expected && product.sku == "LAMP-1" && product.price.minorUnits == 1999 && trips == 1,
                    "\(change): \(product.stock), \(trips) round trips")
        }
        await #expect(throws: ShopError.conflict("cannot remove 12 from product 1 (LAMP-1): only 11 in stock")) {
            try await products.adjustStock("1", .remove(12))
        }
        #expect(try await products.product("1").stock == 11)
        let stocks = try await auditEntries(store).filter { $0.action == "stock" }
        #expect(stocks.count == 3 && stocks.allSatisfy { $0.entity == "product" && $0.entityID == "1" }, "\(stocks)")
    }

    /// A one-statement change that meets a lock (here a run holding the product's row) does not
    /// wait in a statement that would commit by itself: it gives up at once and the step-by-step
    /// transaction waits, then applies it on top of the run's change.
    @Test func aChangeThatMeetsALockWaitsInATransactionOfItsOwn() async throws {
        let (store, counter) = try await makeShop()
        defer { store.close(); counter.stop() }
        let run = try await store.beginRun()
        _ = try await run.services.products.adjustStock("1", .set(3))
        _ = try await run.services.baskets.addToBasket("ann", product: "1", quantity: 1)
        let products = store.services.products, baskets = store.services.baskets
        let stock = Task { try await products.adjustStock("1", .add(1)).stock }
        let line = Task { try await baskets.addToBasket("ann", product: "1", quantity: 2).quantity }
        try await Task.sleep(for: .milliseconds(300))
        counter.reset()
        try await run.end(commit: true)
        #expect(try await stock.value == 4)
        #expect(try await line.value == 3)
        #expect(try await store.services.products.product("1").stock == 4)
    }

    /// Opening a store whose schema is current: one query after the connection's handshake (who
    /// logged in, its server process and the schema's versions), then the command's one.
    @Test func openingACurrentStoreIsOneRoundTripBeforeTheCommand() async throws {
        let (url, counter) = try proxiedURL()
        defer { counter.stop() }
        let schema = try await PostgresTestServer.makeSchema()
        let first = try await PostgresStore.open(url, searchPath: schema)
        first.close()
        counter.reset()
        let store = try await PostgresStore.open(url, searchPath: schema)
        defer { store.close() }
        #expect(counter.roundTrips == 1)
        #expect(store.identity.role == .admin)
        counter.reset()
        var listed = 0
        try await store.services.products.listProducts(ProductFilter(), page: Page()) { _ in listed += 1 }
        #expect(listed == 0)
        #expect(counter.roundTrips == 1)
    }

    /// The refusal of `body` (a change the server's function refuses) and the round trips it took.
    func refusal(_ counter: RoundTripCounter, _ body: () async throws -> Void) async -> (ShopError?, Int) {
        counter.reset()
        do {
            try await body()
            return (nil, counter.roundTrips)
        } catch {
            return (error as? ShopError, counter.roundTrips)
        }
    }

    /// Every refusal of the basket and favourite functions is one round trip (the function's own
    /// code and detail, worded by PostgresRefusal) and says exactly what BasketRules says; only a
    /// customer nobody found costs one read more, for the names to suggest.
    @Test func aRefusedChangeIsOneRoundTripSaysWhyAndChangesNothing() async throws {
        let (store, counter) = try await makeShop()
        defer { store.close(); counter.stop() }
        let baskets = store.services.baskets, favorites = store.services.favorites
        let before = try await auditEntries(store).count
        let refusals: [(ShopError, () async throws -> Void)] = [
            (.conflict("user bob is disabled: cannot add to the basket of a disabled user (enable them first)"),
             { _ = try await baskets.addToBasket("bob", product: "LAMP-1", quantity: 1) }),
            (.conflict("user bob is disabled: cannot add to the basket of a disabled user (enable them first)"),
             { _ = try await baskets.setBasketQuantity("bob", product: "LAMP-1", quantity: 2) }),
            (.conflict("product 2 (GONE-1) Gone is out of stock"),
             { _ = try await baskets.addToBasket("ann", product: "GONE-1", quantity: 1) }),
            (.notFound("no product with id or SKU \"NOPE\""),
             { _ = try await baskets.setBasketQuantity("ann", product: "NOPE", quantity: 1) }),
            (.notFound("no product with id or SKU \"NOPE\""),
             { _ = try await favorites.addFavorite("ann", product: "NOPE") }),
            (.notFound("product 1 (LAMP-1) is not in the basket of ann"),
             { try await baskets.removeFromBasket("ann", product: "LAMP-1") }),
            (.notFound("product 1 (LAMP-1) is not in the basket of ann"),
             { _ = try await baskets.setBasketQuantity("ann", product: "LAMP-1", quantity: 0) }),
        ]
        for (expected, body) in refusals {
            let (error, trips) = await refusal(counter, body)
            #expect(error == expected)
            #expect(trips == 1, "\(expected.message)")
        }
        _ = try await baskets.addToBasket("ann", product: "LAMP-1", quantity: BasketLimits.maxQuantity)
        let (full, fullTrips) = await refusal(counter) { _ = try await baskets.addToBasket("ann", product: "LAMP-1", quantity: 1) }
        #expect(full == .conflict("cannot add 1 × LAMP-1 to the basket of ann: it has \(BasketLimits.maxQuantity) and a line holds at most \(BasketLimits.maxQuantity)"))
        #expect(fullTrips == 1)
        let (unknown, unknownTrips) = await refusal(counter) { _ = try await baskets.addToBasket("anne", product: "LAMP-1", quantity: 1) }
        #expect(unknown == .notFound("no user with id, username or email \"anne\" (did you mean ann?)"))
        #expect(unknownTrips == 2)
        #expect(try await baskets.basket("ann").lines.map(\.quantity) == [BasketLimits.maxQuantity])
        #expect(try await auditEntries(store).count == before + 1)
    }

    /// When the server raises an error inside the one call (here a trigger a DBA added refuses
    /// every new basket line), the step-by-step path reports it in shopsh's words; in a run the
    /// call has a savepoint of its own, so the command fails with the error and the run goes on
    /// without its changes.
    @Test func aServerErrorInTheOneCallIsReportedAndARunGoesOn() async throws {
        let (store, counter) = try await makeShop()
        defer { store.close(); counter.stop() }
        try await store.execute("""
            CREATE FUNCTION refuse_lines() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'baskets are closed today'; END $$
            """)
        try await store.execute("CREATE TRIGGER refuse_lines BEFORE INSERT ON basket_lines FOR EACH ROW EXECUTE FUNCTION refuse_lines()")
        do {
            _ = try await store.services.baskets.addToBasket("ann", product: "LAMP-1", quantity: 1)
            Issue.record("the trigger's refusal did not reach the caller")
        } catch let error as ShopError {
            #expect(error.message.contains("adding to a basket") && error.message.contains("baskets are closed today"), "\(error.message)")
        }
        let run = try await store.beginRun()
        do {
            _ = try await run.services.baskets.addToBasket("ann", product: "LAMP-1", quantity: 1)
            Issue.record("the trigger's refusal did not reach the run")
        } catch let error as ShopError {
            #expect(error.message.contains("baskets are closed today"), "\(error.message)")
        }
        _ = try await run.services.favorites.addFavorite("ann", product: "LAMP-1")
        #expect(try await run.services.baskets.basket("ann").lines.isEmpty)
        try await run.end(commit: true)
        #expect(try await store.services.baskets.basket("ann").lines.isEmpty)
        #expect(try await store.services.favorites.favorites("ann").map(\.product.sku) == ["LAMP-1"])
    }
}

/// A listing reads each product as its record's text (PostgresRecordText): every value comes back
/// exactly as stored, whatever it holds.
@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresRecordTextTests {
    @Test func everyValueOfAListingComesBackAsStored() async throws {
        let store = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: try await PostgresTestServer.makeSchema())
        defer { store.close() }
        let titles = ["plain", "", " padded ", "a,b", "(paren)", "say \"hi\"", "back\\slash", "\\\"both\",", "tab\there",
                      "new\nline", "ünïcødé ✓ 🛒", "NULL", "\"\"", "()", ",", "-1"]
        let brands: [String?] = [nil, "", "Brand, Inc.", "\"quoted\""]
        for (index, title) in titles.enumerated() {
            let brand = brands[index % brands.count]
            try await store.execute("""
                INSERT INTO products (id, sku, title, description, category, brand, price_minor, discount_hundredths, stock,
                                      rating_hundredths, tags, minimum_order_quantity)
                VALUES (\(Int64(index + 1)), \("SKU-\(index)"), \(title), \("about " + title), \("cat (\(index))"), \(brand),
                        \(ProductLimits.maxPriceMinorUnits - Int64(index)), \(index * 100), \(index), \(index % 500), \("t\(index),x\"y"), \(index + 1))
                """)
        }
        for withText in [true, false] {
            var listed: [Product] = []
            try await store.services.products.listProducts(ProductFilter(withLongFields: withText), page: Page()) {
                listed.append($0)
            }
            #expect(listed.count == titles.count)
            for (index, product) in listed.enumerated() {
                #expect(product.id == Int64(index + 1) && product.sku == "SKU-\(index)")
                #expect(product.title == titles[index], "\(product.title.debugDescription)")
                #expect(product.brand == brands[index % brands.count])
                #expect(product.category == "cat (\(index))")
                #expect(product.price.minorUnits == ProductLimits.maxPriceMinorUnits - Int64(index))
                #expect(product.discount.hundredths == index * 100 && product.stock == index && product.minimumOrderQuantity == index + 1)
                #expect(product.description == (withText ? "about " + titles[index] : ""))
                #expect(product.tags == (withText ? ["t\(index)", "x\"y"] : []))
            }
        }
    }
}
