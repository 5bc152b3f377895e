// LargeShopGenerator: fills an empty store with a large, deterministic, realistic shop for
// benchmarks (products with non-ASCII titles, users, baskets, favourites and orders).

import GRDB
import ShopCore

/// What the generator wrote.
public struct GeneratedShop: Sendable, Equatable {
    public var products: Int
    public var users: Int
    public var basketLines: Int
    public var favorites: Int
    public var orders: Int
}

extension SQLiteStore {
    /// Generates `products` products and `users` users (with baskets, favourites and orders in
    /// proportion) from `seed`: the same seed gives the same shop. The store must be empty.
    public func generateLargeShop(products: Int, users: Int, seed: UInt64,
                                  progress: (String) -> Void = { _ in }) throws(ShopError) -> GeneratedShop {
        guard products >= 1, users >= 1, products <= 50_000_000, users <= 10_000_000 else {
            throw .invalidInput("a generated shop has 1 to 50000000 products and 1 to 10000000 users")
        }
        guard try isEmpty() else { throw .conflict("the store at \(path) is not empty; generate into a new file") }
        var random = SplitMix64(seed: seed)
        return try write { db in
            var summary = GeneratedShop(products: products, users: users, basketLines: 0, favorites: 0, orders: 0)
            let product = try db.makeStatement(sql: """
                INSERT INTO products (id, sku, title, description, category, brand, price_minor, discount_hundredths,
                                      stock, rating_hundredths, tags, minimum_order_quantity)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for id in 1...products {
                let category = Words.categories[random.below(Words.categories.count)]
                let title = "\(random.pick(Words.adjectives)) \(random.pick(Words.materials)) \(random.pick(Words.nouns))"
                let brand = random.below(5) == 0 ? nil : random.pick(Words.brands)
                try product.execute(arguments: [
                    id, "GEN-\(category.prefix(3).uppercased())-\(id)", title,
                    "\(title) from \(brand ?? "an independent maker"), made for everyday use.", category, brand,
                    random.price(), random.below(2_500), random.below(500), 100 + random.below(401),
                    "\(category),\(random.pick(Words.materials).lowercased())", 1 + random.below(10),
                ])
                if id % 250_000 == 0 { progress("\(id) products") }
            }
            let user = try db.makeStatement(sql: """
                INSERT INTO users (id, username, email, first_name, last_name, role, status) VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for id in 1...users {
                let first = random.pick(Words.firstNames), last = random.pick(Words.lastNames)
                let username = "\(Words.ascii(first)).\(Words.ascii(last))\(id)"
                let role = id % 1000 == 0 ? "admin" : id % 100 == 0 ? "moderator" : "user"
                try user.execute(arguments: [id, username, "\(username)@example.com", first, last, role,
                                             id % 50 == 0 ? "disabled" : "active"])
            }
            progress("\(users) users")
            let basket = try db.makeStatement(sql: "INSERT OR IGNORE INTO basket_lines (user_id, product_id, quantity) VALUES (?, ?, ?)")
            let favorite = try db.makeStatement(sql: "INSERT OR IGNORE INTO favorites (user_id, product_id) VALUES (?, ?)")
            let order = try db.makeStatement(sql: """
                INSERT INTO orders (id, user_id, customer, status, currency, total_minor, discounted_total_minor, created_at, updated_at)
                VALUES (?, ?, ?, ?, 'USD', ?, ?, ?, ?)
                """)
            let orderLine = try db.makeStatement(sql: """
                INSERT INTO order_lines (order_id, line_number, product_id, sku, title, unit_price_minor, discount_hundredths, quantity)
                SELECT ?, ?, id, sku, title, price_minor, discount_hundredths, ? FROM products WHERE id = ?
                """)
            let orderTotals = try db.makeStatement(sql: """
                UPDATE orders SET
                    total_minor = (SELECT coalesce(sum(unit_price_minor * quantity), 0) FROM order_lines WHERE order_id = orders.id),
                    discounted_total_minor = (SELECT coalesce(sum((unit_price_minor * quantity * (10000 - discount_hundredths) + 5000) / 10000), 0)
                                              FROM order_lines WHERE order_id = orders.id)
                WHERE id = ?
                """)
            let statuses = OrderStatus.allCases.map(\.rawValue)
            var orderID = 0
            for id in 1...users {
                if random.below(4) == 0 {
                    for _ in 0..<(1 + random.below(4)) {
                        try basket.execute(arguments: [id, 1 + random.below(products), 1 + random.below(5)])
                        summary.basketLines += db.changesCount
                    }
                }
                if random.below(3) == 0 {
                    for _ in 0..<(1 + random.below(5)) {
                        try favorite.execute(arguments: [id, 1 + random.below(products)])
                        summary.favorites += db.changesCount
                    }
                }
                if random.below(5) == 0 {
                    orderID += 1
                    let day = String(1 + random.below(28)), month = String(1 + random.below(12))
                    let date = "2025-\(month.count == 1 ? "0" : "")\(month)-\(day.count == 1 ? "0" : "")\(day)T12:00:00Z"
                    try order.execute(arguments: [orderID, id, "user\(id)", statuses[random.below(statuses.count)],
                                                  0, 0, date, date])
                    for line in 1...(1 + random.below(4)) {
                        try orderLine.execute(arguments: [orderID, line, 1 + random.below(3), 1 + random.below(products)])
                    }
                    try orderTotals.execute(arguments: [orderID])
                }
            }
            summary.orders = orderID
            progress("baskets, favourites and orders")
            try db.execute(sql: "INSERT OR REPLACE INTO shop_meta (key, value) VALUES ('base_currency', 'USD'), ('generated_seed', ?)",
                           arguments: [String(seed)])
            return summary
        }
    }
}

/// A small, fast, seedable random generator (SplitMix64), so a seed always gives the same shop.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick(_ words: [String]) -> String { words[below(words.count)] }

    /// A price in minor units from 0.50 to about 50,000.00, spread over the orders of magnitude.
    mutating func price() -> Int64 {
        let magnitude = [100, 1_000, 10_000, 100_000, 1_000_000, 5_000_000][below(6)]
        return Int64(50 + below(magnitude)) / 10 * 10 + Int64(below(2) == 0 ? 9 : 0)
    }
}

/// Word lists for titles, brands and names (deliberately with non-ASCII text).
enum Words {
    static let categories = ["beauty", "fragrances", "furniture", "groceries", "home-decoration", "kitchen-accessories",
                             "laptops", "mens-shirts", "mens-shoes", "mens-watches", "mobile-accessories", "motorcycle",
                             "skin-care", "smartphones", "sports-accessories", "sunglasses", "tablets", "tops", "vehicle",
                             "womens-bags", "womens-dresses", "womens-jewellery", "womens-shoes", "womens-watches"]
    static let adjectives = ["Classic", "Compact", "Deluxe", "Everyday", "Handmade", "Organic", "Vintage", "Smart", "Crème",
                             "Naïve", "Große", "Élégant", "Très Chic", "Ultra", "Mini", "Rustic", "Nordic", "Kyōto", "Señorita",
                             "Øresund", "Café", "Ženská", "Şık", "Wild"]
    static let materials = ["Oak", "Linen", "Steel", "Cotton", "Leather", "Bamboo", "Ceramic", "Glass", "Wool", "Silk",
                            "Copper", "Marble", "和紙", "竹", "Velours", "Lõng", "Mahagoni", "Porcelaine"]
    static let nouns = ["Lamp", "Chair", "Mug", "Watch", "Backpack", "Sneakers", "Kettle", "Scarf", "Blender", "Phone Case",
                        "Notebook", "Headphones", "Teapot", "Vase", "Jacket", "Sunglasses", "Serum", "Perfume", "茶碗",
                        "Schürze", "Smørbrød Board", "Crêpe Pan", "Mochila", "Tasse"]
    static let brands = ["Maison Lin", "Bäcker & Söhne", "Łódź Works", "東京デザイン", "Nordlys", "Café Crème Co.", "Olé Olé",
                         "Zürich Supply", "Acme", "Globex", "Initech", "Umbrella", "São Paulo Design", "Hüttenwerk"]
    static let firstNames = ["Emily", "Michael", "Sophia", "José", "Zoë", "Søren", "Chloé", "Łukasz", "Ana", "Yuki", "Omar",
                             "Ingrid", "Mateo", "Aisha", "Björn", "Élodie", "Noah", "Ren", "Fatima", "Jürgen"]
    static let lastNames = ["Johnson", "Müller", "García", "Nowak", "Østergaard", "Dubois", "Tanaka", "Rossi", "Kowalski",
                            "Smith", "Öztürk", "Novák", "Silva", "Brown", "Lefèvre", "Andersson", "Nakamura", "O'Brien"]

    /// A username-safe ASCII form of a name (`Zoë` → `zoe`, `O'Brien` → `obrien`).
    static func ascii(_ name: String) -> String {
        let map: [Character: String] = ["é": "e", "è": "e", "ë": "e", "ø": "o", "ö": "o", "ü": "u", "ł": "l", "á": "a",
                                        "í": "i", "ó": "o", "ç": "c", "ß": "ss", "å": "a", "ã": "a"]
        return name.lowercased().map { map[$0] ?? String($0) }.joined().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
