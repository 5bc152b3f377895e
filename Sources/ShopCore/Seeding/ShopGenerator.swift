// ShopGenerator: a large, deterministic, realistic shop for benchmarks (products with non-ASCII
// titles, users, baskets, favourites and orders), written through any store's ShopSeeder.

/// What the generator wrote.
public struct GeneratedShop: Sendable, Equatable {
    public var products: Int
    public var users: Int
    public var basketLines: Int
    public var favorites: Int
    public var orders: Int
}

/// Generates shops: the same seed always gives the same shop.
public enum ShopGenerator {
    /// Writes `products` products and `users` users (with baskets and favourites in proportion)
    /// from `seed` into `seeder`, and a year of orders up to yesterday (`OrderHistory`): about
    /// `orders` of them (one per five users when nil). Customers live at `addresses` in turn (the
    /// demo's bundled ones, under each customer's own name), which they ship to; none when empty.
    public static func generate(products: Int, users: Int, orders: Int? = nil, seed: UInt64, addresses: [PostalAddress] = [],
                                into seeder: any ShopSeeder, progress: (String) -> Void = { _ in }) throws -> GeneratedShop {
        guard products >= 1, users >= 1, products <= 50_000_000, users <= 10_000_000 else {
            throw ShopError.invalidInput("a generated shop has 1 to 50000000 products and 1 to 10000000 users")
        }
        guard (orders ?? 0) >= 0, (orders ?? 0) <= 50_000_000 else {
            throw ShopError.invalidInput("a generated shop has 0 to 50000000 orders")
        }
        let today = try seeder.today()
        var random = SplitMix64(seed: seed)
        // Details and reviews from a stream of their own: the rest of a seed's shop is as it was.
        var extra = SplitMix64(seed: seed ^ 0x3838_3838_3838_3838)
        var summary = GeneratedShop(products: products, users: users, basketLines: 0, favorites: 0, orders: 0)
        for id in 1...products {
            let category = Words.categories[random.below(Words.categories.count)]
            let title = "\(random.pick(Words.adjectives)) \(random.pick(Words.materials)) \(random.pick(Words.nouns))"
            let brand = random.below(5) == 0 ? nil : random.pick(Words.brands)
            var product = NewProduct(
                id: Int64(id), sku: "GEN-\(category.prefix(3).uppercased())-\(id)", title: title,
                description: "\(title) from \(brand ?? "an independent maker"), made for everyday use.", category: category,
                brand: brand, price: Money(minorUnits: random.price(), currency: .usd),
                discount: Percentage(hundredths: random.below(2_500)), stock: random.below(500),
                rating: Rating(hundredths: 100 + random.below(401)),
                tags: [category, random.pick(Words.materials).lowercased()], minimumOrderQuantity: 1 + random.below(10),
                barcode: generatedBarcode(id), details: details(id, &extra), reviews: reviews(&extra, at: seeder.now))
            product.details.availability = product.stock == 0 ? "Out of Stock" : product.stock < 10 ? "Low Stock" : "In Stock"
            try seeder.addProduct(product)
            if id % 250_000 == 0 { progress("\(id) products") }
        }
        var customers: [(id: Int64, username: String)] = []
        customers.reserveCapacity(users)
        for id in 1...users {
            let first = random.pick(Words.firstNames), last = random.pick(Words.lastNames)
            let username = "\(Words.ascii(first)).\(Words.ascii(last))\(id)"
            let role: UserRole = id % 1000 == 0 ? .admin : id % 100 == 0 ? .moderator : .user
            var address = addresses.isEmpty ? nil : addresses[(id - 1) % addresses.count]
            address?.name = "\(first) \(last)"
            try seeder.addUser(SeedUser(id: Int64(id), NewUser(username: username, email: "\(username)@example.com",
                                                              firstName: first, lastName: last, role: role),
                                        status: id % 50 == 0 ? .disabled : .active, address: address))
            customers.append((id: Int64(id), username: username))
        }
        progress("\(users) users")
        var baskets = Set<Int64>()
        for id in 1...users {
            let user = Int64(id)
            if random.below(4) == 0 {
                for _ in 0..<(1 + random.below(4)) {
                    let product = Int64(1 + random.below(products))
                    try seeder.addBasketLine(user: user, product: product, quantity: 1 + random.below(5))
                    if baskets.insert(user &* 100_000_000 &+ product).inserted { summary.basketLines += 1 }
                }
            }
            if random.below(3) == 0 {
                for _ in 0..<(1 + random.below(5)) where try seeder.addFavorite(user: user, product: Int64(1 + random.below(products))) {
                    summary.favorites += 1
                }
            }
        }
        progress("baskets and favourites")
        let wanted = orders ?? users / 5
        if wanted > 0 {
            let history = OrderHistory(customers: customers, productIDs: (1...products).map(Int64.init),
                                       ordersPerDay: max(1, wanted / 365), seed: random.next())
            summary.orders = try history.write(into: seeder, today: today)
        }
        progress("\(summary.orders) orders")
        try seeder.setNote("base_currency", "USD")
        try seeder.setNote("generated_seed", String(seed))
        return summary
    }
}

/// A small, fast, seedable random generator (SplitMix64), so a seed always gives the same shop.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
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
extension ShopGenerator {
    /// A barcode of the in-store range (prefix 200), its check digit right; none past 9 digits of id.
    static func generatedBarcode(_ id: Int) -> String? {
        let digits = String(id)
        guard digits.count <= 9 else { return nil }
        let twelve = "200" + String(repeating: "0", count: 9 - digits.count) + digits
        return twelve + String(Barcode.checkDigit(twelve + "0"))
    }

    static func details(_ id: Int, _ random: inout SplitMix64) -> ProductDetails {
        func measure(_ most: Int) -> ExactDecimal { ExactDecimal(units: Int64(100 + random.below(most * 100)), scale: 2).normalized }
        return ProductDetails(images: ["https://img.example.com/products/\(id)/thumbnail.webp", "https://img.example.com/products/\(id)/1.webp"],
                              weight: ExactDecimal(units: Int64(1 + random.below(10)), scale: 0),
                              dimensions: Dimensions(width: measure(30), height: measure(30), depth: measure(30)),
                              warranty: random.pick(Words.warranties), shipping: random.pick(Words.shipping),
                              returnPolicy: random.pick(Words.returnPolicies))
    }

    /// None to two reviews, written at `at`.
    static func reviews(_ random: inout SplitMix64, at: String) -> [NewReview] {
        (0..<random.below(3)).map { _ in
            let first = random.pick(Words.firstNames), last = random.pick(Words.lastNames)
            return NewReview(rating: 1 + random.below(5), comment: random.pick(Words.comments), reviewerName: "\(first) \(last)",
                             reviewerEmail: "\(first).\(last)@example.com".lowercased(), at: at)
        }
    }
}

enum Words {
    static let warranties = ["1 year warranty", "2 year warranty", "6 months warranty", "No warranty", "Lifetime warranty"]
    static let shipping = ["Ships in 1-2 business days", "Ships in 3-5 business days", "Ships in 1 week", "Ships overnight"]
    static let returnPolicies = ["30 days return policy", "60 days return policy", "No return policy"]
    static let comments = ["Great value!", "Would buy again.", "Not as described.", "Très bien, merci.", "Arrived late.",
                           "Exactly what I needed."]
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
