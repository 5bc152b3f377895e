// BasketTests: the basket plugin and the SQLite basket service on real temporary stores: demo
// totals against the shipped carts, quantities, refusals, checkout (all or nothing), and
// concurrent increments from four shopsh processes.

import Basket
import Foundation
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite
import Testing
import TestSupport

/// The basket plugin on the demo shop.
func basketShell() async throws -> ShellHarness { try await ShellHarness(plugins: [basketPlugin], demo: true) }

/// The package's root folder (for the shipped demo data and the built binary).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

extension ShellHarness {
    /// The quantity of `product` in `user`'s basket as the basket service shows it; nil when no line.
    func quantity(_ user: Int64, _ product: Int64) async throws -> Int? {
        try await services.baskets.basket(String(user)).lines.first { $0.productID == product }?.quantity
    }

    /// How many lines `user`'s basket holds.
    func basketLineCount(_ user: Int64) async throws -> Int {
        try await services.baskets.basket(String(user)).lines.count
    }

    /// Everything a basket operation or checkout may touch (every product's stock, every basket
    /// line, every order with its lines), read through the services, to prove nothing changed.
    func snapshot() async throws -> ShopFingerprint {
        try await services.basketFingerprint()
    }
}

/// Parses a DummyJSON number exactly and rounds it to cents (`124.94999999999999` → 124.95).
func cents(_ value: JSONValue?) throws -> Money {
    // Float noise sits far below a cent: keep 8 decimals, then round once to 2.
    guard case .number(let text)? = value else { throw ShopError.invalidInput("not a number: \(String(describing: value))") }
    let parts = text.split(separator: ".", maxSplits: 1)
    let kept = parts.count == 2 ? parts[0] + "." + parts[1].prefix(8) : Substring(text)
    guard let exact = ExactDecimal.parse(String(kept), maxScale: 8), let rounded = exact.rescaled(to: 2) else {
        throw ShopError.invalidInput("not an amount: \(String(describing: value))")
    }
    return Money(minorUnits: rounded.units, currency: .usd)
}

@Suite struct BasketTests {
    /// Every demo user's basket has the totals carts.json implies, to the cent: the sum of the
    /// lines' `total`, and the discounted total of each (merged) line rounded once.
    @Test func demoBasketTotalsMatchCarts() async throws {
        let shop = try await basketShell()
        let bytes = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Sources/ShopStoreKit/DemoData/carts.json")))
        guard case .array(let carts) = try JSONParser.parse(bytes) else { Issue.record("carts.json is not an array"); return }
        #expect(carts.count == 208)
        var checked = 0
        for cart in carts {
            guard case .object(let object) = cart, case .number(let userText)? = object["userId"],
                  case .array(let products)? = object["products"] else { Issue.record("bad cart \(cart)"); continue }
            var total = Money.zero(.usd)
            var merged: [Int64: BasketLine] = [:]
            var order: [Int64] = []
            for product in products {
                guard case .object(let line) = product, case .number(let idText)? = line["id"], let id = Int64(idText),
                      case .number(let priceText)? = line["price"], case .number(let discountText)? = line["discountPercentage"],
                      case .number(let quantityText)? = line["quantity"], let quantity = Int(quantityText) else {
                    Issue.record("bad line \(product)"); continue
                }
                total = try total + (try cents(line["total"]))
                if merged[id] == nil {
                    order.append(id)
                    merged[id] = BasketLine(userID: 0, productID: id, sku: "", title: "",
                                            unitPrice: try Money.parse(priceText, currency: .usd),
                                            discount: try Percentage.parse(discountText), quantity: 0)
                }
                merged[id]?.quantity += quantity
            }
            let discounted = try order.compactMap { merged[$0] }.reduce(Money.zero(.usd)) { try $0 + $1.discountedTotal }
            let quantity = order.compactMap { merged[$0] }.reduce(0) { $0 + $1.quantity }
            #expect(try cents(object["total"]) == total, "cart of user \(userText): carts.json total")

            let basket = try await shop.services.baskets.basket(userText)
            #expect(basket.lines.count == merged.count, "user \(userText)")
            #expect(try basket.total == total, "user \(userText): total")
            #expect(try basket.discountedTotal == discounted, "user \(userText): discounted total")
            #expect(basket.totalQuantity == quantity, "user \(userText): quantity")

            // The command prints the same figures, exactly.
            let (outcome, text) = await shop.run("basket total \(userText) -o json")
            #expect(outcome == .success)
            #expect(text.contains("\"total\":\(total.decimalString),"), "user \(userText): \(text)")
            #expect(text.contains("\"discounted_total\":\(discounted.decimalString),"), "user \(userText): \(text)")
            checked += 1
        }
        #expect(checked == 208)
    }

    /// `basket list --idle 0d --sort total:desc -o json` on the demo shop: the 208 carts of
    /// carts.json, in the order of their own totals, each total the cart's own (parsed with our
    /// JSON parser from the data file, the listing with JSONSerialization).
    @Test func basketListOrdersTheDemoCartsByTheirTotals() async throws {
        // The demo shop as seeded in 2020: every line idle since then.
        let shop = try await ShellHarness(plugins: [basketPlugin], demo: true, clock: try #require(.fixed("2020-01-01T00:00:00Z")))
        let bytes = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent("Sources/ShopStoreKit/DemoData/carts.json")))
        guard case .array(let carts) = try JSONParser.parse(bytes) else { Issue.record("carts.json is not an array"); return }
        var expected: [(user: Int64, total: Money)] = []
        for cart in carts {
            guard case .object(let object) = cart, case .number(let user)? = object["userId"], let id = Int64(user) else { continue }
            expected.append((id, try cents(object["total"])))
        }
        expected.sort { $0.total.minorUnits != $1.total.minorUnits ? $0.total.minorUnits > $1.total.minorUnits : $0.user < $1.user }
        let listed = try #require(try await shop.json("basket list --idle 0d --sort total:desc --all -o json") as? [[String: Any]])
        #expect(listed.count == 208)
        #expect(listed.compactMap { ($0["user_id"] as? NSNumber)?.int64Value } == expected.map(\.user))
        for (row, cart) in zip(listed, expected) {
            let total = try #require(row["total"] as? NSNumber)
            #expect(Int64((total.doubleValue * 100).rounded()) == cart.total.minorUnits, "user \(cart.user)")
        }
        // Every seeded basket has been idle since 2020; an emptied one is not listed. (What a
        // change does to the last change is the store contract's: the clock is each store's.)
        _ = try await shop.services.baskets.clearBasket("michaelw")
        let idle = try #require(try await shop.json("basket list --idle 1d --all -o json") as? [[String: Any]])
        let ids = Set(idle.compactMap { ($0["user_id"] as? NSNumber)?.int64Value })
        #expect(ids.count == 207 && !ids.contains(2) && ids.contains(1), "\(ids.count) \(ids.sorted().prefix(5)) \(idle.prefix(2))")
        #expect(idle.allSatisfy { $0["last_change"] as? String == "2020-01-01T00:00:00Z" })
        #expect((try await shop.json("basket list --idle 5000w --all -o json") as? [[String: Any]])?.isEmpty == true)
        let all = try #require(try await shop.json("basket list --all -o json") as? [[String: Any]])
        #expect(all.count == 207 && all.compactMap { ($0["user_id"] as? NSNumber)?.int64Value } == all.compactMap { ($0["user_id"] as? NSNumber)?.int64Value }.sorted())
        let big = try #require(try await shop.json("basket list --min-total 100000 --all -o json") as? [[String: Any]])
        #expect(big.count == expected.filter { $0.total.minorUnits >= 10_000_000 }.count && !big.isEmpty)
        let page = try #require(try await shop.json("basket list --limit 5 --offset 10 -o json") as? [[String: Any]])
        #expect(page.compactMap { ($0["user_id"] as? NSNumber)?.int64Value } == Array(all.dropFirst(10).prefix(5)).compactMap { ($0["user_id"] as? NSNumber)?.int64Value })
    }

    @Test func showJSONIsOneObjectWithLinesAndTotals() async throws {
        let shop = try await basketShell()
        let shown = try #require(try await shop.json("basket show emilys -o json") as? [String: Any])
        #expect(shown["customer"] as? String == "emilys")
        #expect(shown["currency"] as? String == "USD")
        #expect((shown["total"] as? NSNumber)?.stringValue == "13037.88")
        #expect((shown["discounted_total"] as? NSNumber)?.stringValue == "11510.81")
        #expect(shown["total_quantity"] as? Int == 12)
        let lines = try #require(shown["lines"] as? [[String: Any]])
        #expect(lines.compactMap { $0["product_id"] as? Int }.sorted() == [113, 122, 138, 162])
        #expect(Set(lines[0].keys) == ["product_id", "sku", "title", "unit_price", "discount_percentage", "quantity",
                                       "total", "discounted_total", "currency"])

        let compact = await shop.run("basket show 1 -o ndjson --fields sku,quantity").stdout
        #expect(compact.hasSuffix("]}\n") && compact.filter { $0 == "\n" }.count == 1)
        #expect(compact.contains("\"lines\":[{\"sku\":\"MOT-GEN-GEN-113\",\"quantity\":3},"))

        let totals = try #require(try await shop.json("basket total emilys -o json") as? [String: Any])
        #expect(Set(totals.keys) == ["user_id", "customer", "lines", "total_quantity", "total", "discounted_total", "currency"])
        #expect(totals["lines"] as? Int == 4)

        // An empty basket is a normal answer.
        #expect(await shop.run("basket clear emilys").outcome == .success)
        let empty = try #require(try await shop.json("basket show emilys -o json") as? [String: Any])
        #expect((empty["lines"] as? [Any])?.isEmpty == true)
        #expect((empty["total"] as? NSNumber)?.intValue == 0)
    }

    @Test func addingTwiceIncrementsAndSetZeroRemoves() async throws {
        let shop = try await basketShell()
        #expect(try await shop.quantity(1, 1) == nil)
        #expect(await shop.run("basket add emilys 1 --qty 2").outcome == .success)
        #expect(await shop.run("basket add 1 BEA-ESS-ESS-001 --qty 2").outcome == .success)   // same line by SKU and id
        #expect(try await shop.quantity(1, 1) == 4)
        #expect(await shop.run("basket add emily.johnson@x.dummyjson.com 1").outcome == .success)  // by email
        #expect(try await shop.quantity(1, 1) == 5)

        #expect(await shop.run("basket set emilys 1 7").outcome == .success)
        #expect(try await shop.quantity(1, 1) == 7)
        #expect(await shop.run("basket set emilys 1 0").outcome == .success)
        #expect(try await shop.quantity(1, 1) == nil)
        #expect(try await shop.services.baskets.basket("emilys").lines.count == 4)

        #expect(await shop.run("basket remove emilys 162").outcome == .success)
        #expect(try await shop.quantity(1, 162) == nil)
        #expect(await shop.run("basket remove emilys 162").outcome == .failure)
        #expect(shop.stderr.contains("is not in the basket of emilys"))
        #expect(await shop.run("basket clear emilys").outcome == .success)
        #expect(try await shop.basketLineCount(1) == 0)
    }

    @Test func currentCustomerCanBeLeftOut() async throws {
        let shop = try await basketShell()
        #expect(await shop.run("basket add 1").outcome == .usageError)   // no USER and no current customer
        // The usage line comes from the command's one declaration of its words.
        #expect(shop.stderr.contains("basket add [USER] PRODUCT: give USER (an id, username or email), or pick a customer first with: use USER"))
        #expect(await shop.run("basket set emilys 1 2 3").outcome == .usageError)
        #expect(shop.stderr.contains("basket set [USER] PRODUCT QTY: expected USER and 2 more arguments, got 4"))
        shop.shell.session.currentUser = "emilys"
        #expect(await shop.run("basket add 1 --qty 3").outcome == .success)
        #expect(await shop.run("basket set 1 5").outcome == .success)
        #expect(try await shop.quantity(1, 1) == 5)
        #expect(await shop.run("basket set michaelw 1 2").outcome == .success)   // an explicit USER still wins
        #expect(try await shop.quantity(2, 1) == 2)
        let totals = try #require(try await shop.json("basket total -o json") as? [String: Any])
        #expect(totals["customer"] as? String == "emilys")
    }

    @Test func badQuantitiesAndReferencesChangeNothing() async throws {
        let shop = try await basketShell()
        let before = try await shop.snapshot()
        for line in ["basket add emilys 1 --qty 0", "basket add emilys 1 --qty 10001", "basket add emilys 1 --qty abc",
                     "basket set emilys 1 -1", "basket set emilys 1 1.5", "basket set emilys 1 10001", "basket set emilys 1 x",
                     "basket add nobody 1", "basket add emilys 99999", "basket add emilys NO-SUCH-SKU",
                     "basket set emilys 1", "basket show emilys extra"] {
            let (outcome, output) = await shop.run(line)
            #expect(outcome != .success, "\(line) was accepted")
            #expect(output.isEmpty, "\(line) printed \(output)")
        }
        #expect(shop.stderr.contains("invalid quantity"))
        #expect(shop.stderr.contains("no user with id, username or email \"nobody\""))
        #expect(shop.stderr.contains("no product with id or SKU \"99999\""))
        // The limit holds for increments too.
        #expect(await shop.run("basket set emilys 1 10000").outcome == .success)
        #expect(await shop.run("basket add emilys 1").outcome == .failure)
        #expect(shop.stderr.contains("at most 10000"))
        #expect(try await shop.quantity(1, 1) == 10000)
        #expect(await shop.run("basket remove emilys 1").outcome == .success)
        #expect(try await shop.snapshot() == before)

        // At the highest price and quantity the limits allow, a line and the basket still total exactly,
        // also when the price rises after the line was added (issue 9: this used to trap).
        _ = try await shop.services.products.addProduct(NewProduct(sku: "GOLD-1", title: "Gold bar", category: "gold",
                                                                   price: Money(minorUnits: 100, currency: .usd), stock: 5))
        #expect(await shop.run("basket set emilys GOLD-1 10000").outcome == .success)
        _ = try await shop.services.products.updateProduct("GOLD-1", ProductChanges(
            price: Money(minorUnits: ProductLimits.maxPriceMinorUnits, currency: .usd), discount: .zero))
        let (totalOutcome, totals) = await shop.run("basket total emilys -o tsv --fields total,discounted_total --no-header")
        #expect(totalOutcome == .success)
        // 13037.88 (the demo basket) + 10000 × 1,000,000,000.00, and 11510.81 + the same undiscounted.
        #expect(totals == "10000000013037.88\t10000000011510.81\n")
        #expect(await shop.run("basket checkout emilys").outcome == .failure)   // 5 in stock: refused, no trap
        #expect(shop.stderr.contains("wanted 10000, in stock 5"))
        #expect(try await shop.services.baskets.basket("emilys").lines.count == 5)
    }

    @Test func aBasketHoldsAtMostTheLimitOfProducts() async throws {
        let shop = try await basketShell()
        let products = shop.services.products, baskets = shop.services.baskets
        let held = try await baskets.basket("emilys").lines.count
        for index in 0..<(BasketLimits.maxLines - held) {
            let product = try await products.addProduct(NewProduct(sku: "LIM-\(index)", title: "Limit \(index)", category: "limits",
                                                                   price: Money(minorUnits: 100, currency: .usd), stock: 1))
            _ = try await baskets.addToBasket("emilys", product: String(product.id), quantity: 1)
        }
        _ = try await products.addProduct(NewProduct(sku: "LIM-ONE-MORE", title: "One more", category: "limits",
                                                     price: Money(minorUnits: 100, currency: .usd), stock: 1))
        #expect(await shop.run("basket add emilys LIM-ONE-MORE").outcome == .failure)
        #expect(shop.stderr.contains("already holds \(BasketLimits.maxLines) products"))
        #expect(await shop.run("basket set emilys LIM-ONE-MORE 1").outcome == .failure)
        // A product already in the basket can still be added to.
        #expect(await shop.run("basket add emilys LIM-0").outcome == .success)
        #expect(try await baskets.basket("emilys").lines.count == BasketLimits.maxLines)
    }

    @Test func tablesPutTheTotalsOnStderr() async throws {
        let shop = try await basketShell()
        let (outcome, table) = await shop.run("basket show emilys -o table")
        #expect(outcome == .success)
        #expect(table.contains("Generic Motorcycle") && !table.contains("13037.88"))
        #expect(shop.stderr.contains("basket of emilys: total 13037.88 USD · discounted 11510.81 USD · 12 items in 4 lines"))
    }

    @Test func outOfStockProductsAndDisabledUsersAreRefused() async throws {
        let shop = try await basketShell()
        _ = try await shop.services.products.adjustStock("1", .set(0))
        let before = try await shop.snapshot()
        #expect(await shop.run("basket add emilys 1").outcome == .failure)
        #expect(shop.stderr.contains("BEA-ESS-ESS-001) Essence Mascara Lash Princess is out of stock"))
        #expect(await shop.run("basket set emilys 1 2").outcome == .failure)
        #expect(try await shop.snapshot() == before)

        _ = try await shop.services.users.setUserStatus("2", .disabled)
        #expect(await shop.run("basket add michaelw 2").outcome == .failure)
        #expect(shop.stderr.contains("user michaelw is disabled"))
        #expect(await shop.run("basket checkout michaelw").outcome == .failure)
        #expect(try await shop.snapshot() == before)
        // Looking and taking things out stay possible.
        #expect(await shop.run("basket show michaelw").outcome == .success)
        #expect(await shop.run("basket clear michaelw").outcome == .success)
    }

    @Test func checkoutPlacesOneOrderTakesStockAndEmptiesTheBasket() async throws {
        let shop = try await basketShell()
        let basket = try await shop.services.baskets.basket("emilys")
        var stockBefore: [Int64: Int] = [:]
        for line in basket.lines { stockBefore[line.productID] = try await shop.services.products.product(String(line.productID)).stock }

        let placed = try #require(try await shop.json("basket checkout emilys -o json") as? [String: Any])
        let orderID = try #require(placed["id"] as? Int)
        #expect(placed["status"] as? String == "placed")
        #expect((placed["discounted_total"] as? NSNumber)?.stringValue == "11510.81")

        let orders = try await shop.services.ordersToday()
        #expect(orders.count == 1)
        #expect(orders.map { "\($0.userID.map(String.init) ?? "nil") \($0.customer) \($0.status.rawValue) \($0.total.currency.code) "
                             + "\($0.total.minorUnits) \($0.discountedTotal.minorUnits)" }
                == ["1 emilys placed USD 1303788 1151081"])
        #expect(try await shop.basketLineCount(1) == 0)
        for line in basket.lines {
            let after = try await shop.services.products.product(String(line.productID)).stock
            #expect(after == (stockBefore[line.productID] ?? 0) - line.quantity, "stock of \(line.sku)")
        }
        let order = try await shop.services.orders.order(Int64(orderID))
        #expect(order.lines.count == 4)
        #expect(try order.total == basket.total && order.discountedTotal == basket.discountedTotal)

        // Lines keep the price as sold when the catalogue changes later.
        _ = try await shop.services.products.updateProduct("162", ProductChanges(title: "Renamed", price: Money(minorUnits: 1, currency: .usd)))
        let frock = try #require(try await shop.services.orders.order(Int64(orderID)).lines.first { $0.productID == 162 })
        #expect(frock.title == "Blue Frock" && frock.unitPrice.minorUnits == 2999 && frock.discount.hundredths == 1213)
        #expect(frock.sku == "TOP-BRD-BLU-162" && frock.quantity == 4)

        // The basket is now empty: a second checkout says so, and changes nothing.
        let before = try await shop.snapshot()
        #expect(await shop.run("basket checkout emilys").outcome == .failure)
        #expect(shop.stderr.contains("basket is empty"))
        #expect(try await shop.snapshot() == before)
    }

    @Test func checkoutWithoutEnoughStockChangesNothing() async throws {
        let shop = try await basketShell()
        // emilys wants 3 × MOT-GEN-GEN-113 and 3 × SMA-APP-IPH-122.
        _ = try await shop.services.products.adjustStock("113", .set(1))
        _ = try await shop.services.products.adjustStock("122", .set(2))
        let before = try await shop.snapshot()
        let (outcome, output) = await shop.run("basket checkout emilys")
        #expect(outcome == .failure)
        #expect(output.isEmpty)
        #expect(shop.stderr.contains("MOT-GEN-GEN-113 (Generic Motorcycle): wanted 3, in stock 1"))
        #expect(shop.stderr.contains("SMA-APP-IPH-122 (iPhone 6): wanted 3, in stock 2"))
        #expect(!shop.stderr.contains("Baseball Ball"))
        #expect(try await shop.snapshot() == before)
        #expect(try await shop.services.ordersToday().isEmpty)
        #expect(try await shop.basketLineCount(1) == 4)

        // With the stock back, the same basket checks out.
        _ = try await shop.services.products.adjustStock("113", .set(3))
        _ = try await shop.services.products.adjustStock("122", .set(3))
        #expect(await shop.run("basket checkout emilys").outcome == .success)
        #expect(try await shop.services.products.product("113").stock == 0)
        #expect(try await shop.services.products.product("122").stock == 0)
    }

    @Test func convertedMoneyShowsTheRateDate() async throws {
        let shop = try await basketShell()
        let shown = try #require(try await shop.json("basket total emilys -o json --currency EUR") as? [String: Any])
        #expect(shown["currency"] as? String == "EUR")
        // The newest shipped rates (eurofxref.csv, 13 April 2026): USD 1.1684 per euro.
        let shipped = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/ShopStoreKit/DemoData/eurofxref.csv"),
                                 encoding: .utf8)
        let rows = shipped.split(separator: "\n").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let usdColumn = try #require(rows.first?.firstIndex(of: "USD"))
        let usd = try #require(Decimal(string: rows[1][usdColumn]))
        #expect(rows[1][0] == "13 April 2026" && shown["rate_date"] as? String == "2026-04-13")
        // 13037.88 USD in euros, rounded once to the cent, half away from zero.
        var exact = try #require(Decimal(string: "13037.88")) / usd, rounded = Decimal()
        NSDecimalRound(&rounded, &exact, 2, .plain)
        let (_, text) = await shop.run("basket total emilys -o json --currency EUR")
        #expect(text.contains("\"total\":\(rounded),"), "\(text) should hold total \(rounded)")
    }

    /// Four shopsh processes, 250 `basket add` each, on one store: no increment is lost.
    @Test func concurrentAddsFromFourProcessesAreAllCounted() throws {
        let binary = try #require(ShopshBinary.url, "the shopsh binary is not built (looked in \(ShopshBinary.candidates.map(\.path)))")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shopsh-basket-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("shop.sqlite").path
        let created = try ShopshBinary.run(binary, ["init", "--store", store], folder: folder, name: "init")
        #expect(created.status == 0, "shopsh init failed: \(created.stderr)")
        let script = folder.appendingPathComponent("adds.shop")
        try String(repeating: "basket add emilys 1\n", count: 250).write(to: script, atomically: true, encoding: .utf8)

        let processes = try (0..<4).map { index in
            try ShopshBinary.start(binary, ["--store", store, "-f", script.path], folder: folder, name: "adds-\(index)")
        }
        for (index, process) in processes.enumerated() {
            process.waitUntilExit()
            let errors = (try? String(contentsOf: folder.appendingPathComponent("adds-\(index).err"), encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "process \(index): \(errors.split(separator: "\n").suffix(3))")
        }
        let result = try ShopshBinary.run(binary, ["--store", store, "-c", "basket total emilys -o json",
                                                   "-c", "basket show emilys -o json --fields product_id,quantity"],
                                          folder: folder, name: "check")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("{\"product_id\":1,\"quantity\":1000}"), "\(result.stdout)")
    }
}

/// The built shopsh: `$SHOPSH_BIN`, or beside the test bundle (`.build/debug`, or the scratch
/// path the tests were built in), or `.build/debug/shopsh` in the package.
enum ShopshBinary {
    static let candidates: [URL] = {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["SHOPSH_BIN"] { candidates.append(URL(fileURLWithPath: override)) }
        candidates += [
            Bundle.main.bundleURL.appendingPathComponent("shopsh"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("shopsh"),
            packageRoot.appendingPathComponent(".build/debug/shopsh"),
        ]
        return candidates
    }()

    static let url: URL? = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Starts shopsh with stdout to `name.out` and stderr to `name.err` in `folder`.
    static func start(_ binary: URL, _ arguments: [String], folder: URL, name: String) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        for key in ["SHOPSH_STORE", "SHOPSH_FORMAT", "NO_COLOR"] { environment.removeValue(forKey: key) }
        environment["XDG_STATE_HOME"] = folder.appendingPathComponent("state").path
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("data").path
        process.environment = environment
        let out = folder.appendingPathComponent("\(name).out"), err = folder.appendingPathComponent("\(name).err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        return process
    }

    /// Runs shopsh to the end; returns its status, stdout and stderr.
    static func run(_ binary: URL, _ arguments: [String], folder: URL, name: String) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let process = try start(binary, arguments, folder: folder, name: name)
        process.waitUntilExit()
        let read = { (suffix: String) in
            (try? String(contentsOf: folder.appendingPathComponent("\(name).\(suffix)"), encoding: .utf8)) ?? ""
        }
        return (process.terminationStatus, read("out"), read("err"))
    }
}
