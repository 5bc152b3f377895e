// DemoShopData: the demo shop shipped in DemoData/ (DummyJSON catalogue,
// users and carts, ECB rates, ISO 4217 minor units). See DemoData/NOTICE.md for sources.

import Foundation
import ShopCore

/// What the demo import put into a store.
public struct DemoShopSummary: Sendable, Equatable {
    public var products: Int
    public var users: Int
    public var baskets: Int
    public var currencies: Int
    public var rates: Int
    /// The orders of the demo's history.
    public var orders: Int
}

/// The shipped demo files, read and decoded; written into any store through its ShopSeeder.
public struct DemoShopData: Sendable {
    let products: [NewProduct]
    let users: [SeedUser]
    let baskets: [DemoBasketLine]
    let currencies: [CurrencyInfo]
    let rates: [CurrencyRate]

    /// Reads and decodes every demo file, and hashes the demo passwords (cheaply, marked demo).
    public static func load() throws(ShopError) -> DemoShopData {
        let folder = try dataFolder()
        let demoUsers = try users(try bytes(folder, "users.json"))
        let hashes = hashPasswords(demoUsers.map(\.password))
        var seedUsers: [SeedUser] = []
        for (user, hash) in zip(demoUsers, hashes) {
            guard let role = UserRole(rawValue: user.role) else {
                throw .invalidInput("users.json: user \(user.id) has the unknown role \(user.role.quotedForMessage())")
            }
            seedUsers.append(SeedUser(id: user.id, NewUser(username: user.username, email: user.email, firstName: user.firstName,
                                                           lastName: user.lastName, phone: user.phone, role: role),
                                      passwordHash: hash, address: user.address))
        }
        return DemoShopData(
            products: try ProductFileDecoder.decodeJSON(try bytes(folder, "products.json")),
            users: seedUsers,
            baskets: try basketLines(try bytes(folder, "carts.json")),
            currencies: try currencies(try bytes(folder, "iso4217-codes-all.csv"))
                .map { CurrencyInfo(code: $0.code, name: $0.name, minorUnits: $0.minorUnits) },
            rates: try ECBRatesDecoder.decode(try bytes(folder, "eurofxref-daily.xml"))
                + ECBRatesDecoder.decode(try bytes(folder, "eurofxref.csv")))
    }

    /// The bundled customers' addresses (what `dev generate`'s customers live at), read alone.
    public static func bundledAddresses() throws(ShopError) -> [PostalAddress] {
        try users(try bytes(try dataFolder(), "users.json")).compactMap(\.address)
    }

    /// Writes only the ISO 4217 list (a new empty shop still needs it to price in other currencies).
    public func writeCurrencies(into seeder: any ShopSeeder) throws {
        for currency in currencies { try seeder.addCurrency(currency) }
        try seeder.setNote("base_currency", "USD")
    }

    /// Writes the demo shop through `seeder` (duplicate cart lines add up), with its order
    /// history unless `history` is false (a store as older versions made it).
    public func write(into seeder: any ShopSeeder, history withHistory: Bool = true) throws -> DemoShopSummary {
        for product in products { try seeder.addProduct(product) }
        for user in users { try seeder.addUser(user) }
        for line in baskets { try seeder.addBasketLine(user: line.userID, product: line.productID, quantity: line.quantity) }
        for currency in currencies { try seeder.addCurrency(currency) }
        for rate in rates { try seeder.addRate(rate) }
        let orders = withHistory ? try history.write(into: seeder, today: try seeder.today()) : 0
        try seeder.setNote("base_currency", "USD")
        try seeder.setNote("demo", "1")
        return DemoShopSummary(products: products.count, users: users.count, baskets: Set(baskets.map(\.userID)).count,
                               currencies: currencies.count, rates: rates.count, orders: orders)
    }

    /// The demo's past: twelve months of orders (9 on an average day) from its customers (the users
    /// with the role user), ending the day before the shop is made; the cheaper a product, the more
    /// often it sells. The baskets and the stock stay DummyJSON's: the history happened before
    /// today's stock count.
    var history: OrderHistory {
        let byPrice = products.sorted { ($0.price.minorUnits, $0.id ?? 0) < ($1.price.minorUnits, $1.id ?? 0) }
        return OrderHistory(customers: users.filter { $0.fields.role == .user }.map { (id: $0.id, username: $0.fields.username) },
                            productIDs: byPrice.compactMap(\.id), ordersPerDay: 9, seed: Self.historySeed)
    }

    /// The demo history's seed: the same on every machine and store.
    static let historySeed: UInt64 = 2_026

    struct DemoUser {
        var id: Int64
        var username, email, firstName, lastName, password, role: String
        var phone: String?
        /// The customer's address (their default for shipping and billing).
        var address: PostalAddress?
    }

    /// The countries the bundled users live in, by the name users.json gives (it names no code).
    static let countryCodes = ["United States": "US"]

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
        let bundleName = "shopsh_ShopStoreKit.resources"
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
            let firstName = text("firstName") ?? "", lastName = text("lastName") ?? ""
            var address: PostalAddress?
            if case .object(let fields)? = object["address"] {
                func field(_ key: String) -> String {
                    if case .string(let value)? = fields[key] { return value }
                    return ""
                }
                let country = field("country")
                guard let code = countryCodes[country] ?? CountryCodes.code(country) else {
                    throw .invalidInput("users.json: user \(id) lives in \(country.quotedForMessage()), a country without a known code")
                }
                address = try AddressRules.checked(PostalAddress(name: "\(firstName) \(lastName)", line1: field("address"), city: field("city"),
                                                                 state: field("state"), postalCode: field("postalCode"), country: code,
                                                                 phone: text("phone")))
            }
            return DemoUser(id: id, username: username, email: email, firstName: firstName, lastName: lastName, password: password,
                            role: role, phone: text("phone"), address: address)
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
