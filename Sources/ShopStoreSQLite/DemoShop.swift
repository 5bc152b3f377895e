// DemoShop: fills a new store with the demo shop shipped in DemoData/ (DummyJSON catalogue,
// users and carts, ECB rates, ISO 4217 minor units). See DemoData/NOTICE.md for sources.

import Foundation
import GRDB
import ShopCore

/// What the demo import put into a store.
public struct DemoShopSummary: Sendable, Equatable {
    public var products: Int
    public var users: Int
    public var baskets: Int
    public var currencies: Int
    public var rates: Int
}

extension SQLiteStore {
    /// Imports the demo shop into this store, all in one transaction. Returns nil (and changes
    /// nothing) when the store already holds products or users, e.g. when another shopsh
    /// process created it a moment earlier.
    public func importDemoShop() throws(ShopError) -> DemoShopSummary? {
        let folder = try DemoShop.dataFolder()
        let products = try ProductFileDecoder.decodeJSON(try DemoShop.bytes(folder, "products.json"))
        let users = try DemoShop.users(try DemoShop.bytes(folder, "users.json"))
        let baskets = try DemoShop.basketLines(try DemoShop.bytes(folder, "carts.json"))
        let currencies = try DemoShop.currencies(try DemoShop.bytes(folder, "iso4217-codes-all.csv"))
        let rates = try ECBRatesDecoder.decode(try DemoShop.bytes(folder, "eurofxref-daily.xml"))
            + ECBRatesDecoder.decode(try DemoShop.bytes(folder, "eurofxref.csv"))
        let hashes = DemoShop.hashPasswords(users.map(\.password))

        let now = clock.timestamp()
        return try write { db -> DemoShopSummary? in
            guard try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM products) + (SELECT count(*) FROM users)") == 0 else {
                return nil
            }
            _ = try SQLiteProductService.importAll(db, products, now: now)
            for (user, hash) in zip(users, hashes) {
                try db.execute(sql: """
                    INSERT INTO users (id, username, email, first_name, last_name, phone, role, password_hash, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [user.id, user.username, user.email, user.firstName, user.lastName,
                                     user.phone, user.role, hash, now])
            }
            for line in baskets {
                try db.execute(sql: """
                    INSERT INTO basket_lines (user_id, product_id, quantity, added_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = quantity + excluded.quantity
                    """, arguments: [line.userID, line.productID, line.quantity, now])
            }
            for currency in currencies {
                try db.execute(sql: "INSERT OR IGNORE INTO currencies (code, name, minor_units) VALUES (?, ?, ?)",
                               arguments: [currency.code, currency.name, currency.minorUnits])
            }
            for rate in rates {
                try db.execute(sql: "INSERT OR REPLACE INTO currency_rates (date, code, rate) VALUES (?, ?, ?)",
                               arguments: [rate.date, rate.currency, rate.rate.description])
            }
            try db.execute(sql: "INSERT OR REPLACE INTO shop_meta (key, value) VALUES ('base_currency', 'USD'), ('demo', '1')")
            let basketCount = try Int.fetchOne(db, sql: "SELECT count(DISTINCT user_id) FROM basket_lines") ?? 0
            return DemoShopSummary(products: products.count, users: users.count, baskets: basketCount,
                                   currencies: currencies.count, rates: rates.count)
        }
    }
}

/// Reading the shipped demo files.
enum DemoShop {
    struct DemoUser {
        var id: Int64
        var username, email, firstName, lastName, password, role: String
        var phone: String?
    }

    struct DemoBasketLine {
        var userID, productID: Int64
        var quantity: Int
    }

    struct ISOCurrency {
        var code, name: String
        var minorUnits: Int?
    }

    /// The DemoData folder: shipped as a SwiftPM resource bundle next to the executable
    /// (or the test runner). `SHOPSH_DEMO_DATA` overrides it.
    static func dataFolder() throws(ShopError) -> URL {
        let bundleName = "shopsh_ShopStoreSQLite.resources"
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["SHOPSH_DEMO_DATA"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        for base in [Bundle.main.bundleURL, executable.deletingLastPathComponent(), Bundle.main.resourceURL].compactMap({ $0 }) {
            candidates.append(base.appendingPathComponent(bundleName).appendingPathComponent("DemoData"))
            candidates.append(base.appendingPathComponent(bundleName))
        }
        for folder in candidates where FileManager.default.fileExists(atPath: folder.appendingPathComponent("products.json").path) {
            return folder
        }
        throw .notFound("the demo shop data is missing (looked for \(bundleName) beside the shopsh binary)")
    }

    static func bytes(_ folder: URL, _ name: String) throws(ShopError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        } catch {
            throw .storage("cannot read demo file \(name): \(error.localizedDescription)")
        }
    }

    static func users(_ bytes: [UInt8]) throws(ShopError) -> [DemoUser] {
        guard case .array(let elements) = try JSONParser.parse(bytes) else { throw .invalidInput("users.json: expected an array") }
        return try elements.enumerated().map { (offset, element) throws(ShopError) -> DemoUser in
            guard case .object(let object) = element,
                  case .number(let idText)? = object["id"], let id = Int64(idText),
                  case .string(let username)? = object["username"], case .string(let email)? = object["email"],
                  case .string(let password)? = object["password"] else {
                throw .invalidInput("users.json: record \(offset + 1) lacks id, username, email or password")
            }
            func text(_ key: String) -> String? {
                if case .string(let value)? = object[key] { return value }
                return nil
            }
            let role = text("role").flatMap { UserRole(rawValue: $0) }?.rawValue ?? UserRole.user.rawValue
            return DemoUser(id: id, username: username, email: email, firstName: text("firstName") ?? "",
                            lastName: text("lastName") ?? "", password: password, role: role, phone: text("phone"))
        }
    }

    static func basketLines(_ bytes: [UInt8]) throws(ShopError) -> [DemoBasketLine] {
        guard case .array(let carts) = try JSONParser.parse(bytes) else { throw .invalidInput("carts.json: expected an array") }
        var lines: [DemoBasketLine] = []
        for cart in carts {
            guard case .object(let object) = cart, case .number(let userText)? = object["userId"],
                  let userID = Int64(userText), case .array(let products)? = object["products"] else {
                throw .invalidInput("carts.json: a cart lacks userId or products")
            }
            for product in products {
                guard case .object(let line) = product, case .number(let idText)? = line["id"], let productID = Int64(idText),
                      case .number(let quantityText)? = line["quantity"], let quantity = Int(quantityText), quantity > 0 else {
                    throw .invalidInput("carts.json line \(cart): a line lacks id or quantity")
                }
                lines.append(DemoBasketLine(userID: userID, productID: productID, quantity: quantity))
            }
        }
        return lines
    }

    /// The ISO 4217 list: one row per code still in use, with its minor unit (nil for "N.A."),
    /// then the withdrawn codes not in use any more (CYP, BGN…: old ECB rates name them), with
    /// no minor unit (nothing is priced in them) and the withdrawal month in the name.
    static func currencies(_ bytes: [UInt8]) throws(ShopError) -> [ISOCurrency] {
        let records = try CSVReader.records(in: String(decoding: bytes, as: UTF8.self))
            .dropFirst().filter { $0.fields.count >= 6 && Currency.isWellFormedCode($0.fields[2]) }
        var seen = Set<String>()
        var result: [ISOCurrency] = []
        for record in records where record.fields[5].isEmpty && seen.insert(record.fields[2]).inserted {
            result.append(ISOCurrency(code: record.fields[2], name: record.fields[1], minorUnits: Int(record.fields[4])))
        }
        // A code withdrawn more than once (HRK) is named after its last withdrawal.
        for record in records.sorted(by: { $0.fields[5] > $1.fields[5] }) where seen.insert(record.fields[2]).inserted {
            result.append(ISOCurrency(code: record.fields[2], name: "\(record.fields[1]) (withdrawn \(record.fields[5]))", minorUnits: nil))
        }
        return result
    }

    /// Hashes the demo passwords on every core: they are many and PBKDF2 is slow on purpose.
    static func hashPasswords(_ passwords: [String]) -> [String?] {
        let results = HashResults(count: passwords.count)
        DispatchQueue.concurrentPerform(iterations: passwords.count) { index in
            results.set(index, try? PasswordHasher.hash(passwords[index], iterations: PasswordHasher.demoIterations, demo: true))
        }
        return results.values
    }

    private final class HashResults: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [String?]
        init(count: Int) { storage = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: String?) { lock.lock(); storage[index] = value; lock.unlock() }
        var values: [String?] { lock.lock(); defer { lock.unlock() }; return storage }
    }
}
