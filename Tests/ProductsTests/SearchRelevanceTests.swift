// SearchRelevanceTests: what `products search` finds in the demo catalogue, on the store under
// test (SQLite, or PostgreSQL in make test's second pass). Each expectation was written from
// reading the catalogue (DummyJSON's 194 products), not from the program's output: which
// products a person typing the query means, and so must see in the first three.

import ShopCore
import Testing
import TestSupport
import Products

@Suite struct SearchRelevanceTests {
    enum Expect: Sendable, CustomStringConvertible {
        /// These products are among the first three.
        case includes([Int64])
        /// The first three are all among these (the query names a family of equals).
        case within(Set<Int64>)
        /// This product comes first.
        case first(Int64)
        /// Nothing matches.
        case nothing

        var description: String {
            switch self {
            case .includes(let ids): return "top 3 include \(ids)"
            case .within(let ids): return "top 3 within \(ids.sorted())"
            case .first(let id): return "first \(id)"
            case .nothing: return "nothing"
            }
        }
    }

    static let iPhones: Set<Int64> = [104, 108, 110, 121, 122, 123, 124]
    static let galaxies: Set<Int64> = [131, 132, 133, 160, 161]

    static let cases: [(query: String, expect: Expect)] = [
        ("mascara", .first(1)),
        ("mascra", .first(1)),                              // a typo
        ("iphone", .within(iPhones)),
        ("iph", .within(iPhones)),                    // the start of a word
        ("iphnoe", .within(iPhones)),                 // two letters swapped
        ("phone", .within(iPhones.union([107]))),     // inside iPhone and Earphones
        ("samsung galaxy", .within(galaxies)),
        ("samsng galaxy", .within(galaxies)),
        ("galaxy tab", .includes([160, 161])),
        ("rolex", .within([95, 96, 97, 98, 191, 192])),
        ("rolex datejust", .includes([97, 192])),
        ("red lipstick", .first(4)),
        ("nail polish", .first(5)),
        ("lamp", .includes([47, 110])),
        ("table lamp", .first(47)),
        ("apple", .within([16, 78, 100, 101, 102, 103, 104, 105, 106])),
        ("macbook", .first(78)),
        ("laptop", .includes([79, 82])),
        ("dell", .first(82)),
        ("chair", .first(14)),
        ("sofa", .first(12)),
        ("wok", .first(52)),
        ("cricket", .within([142, 143, 144, 145])),
        ("cricket bat", .first(143)),
        ("tennis", .includes([151, 152])),
        ("sunglasses", .first(158)),
        ("sun glasses", .includes([154, 155])),
        ("women handbag", .includes([172, 176])),
        ("earring", .within([182, 183, 184])),
        ("motorcycle", .includes([113, 116, 117])),
        ("kawasaki", .first(114)),
        ("BEA-ESS-ESS-001", .first(1)),                     // a SKU
        ("122", .first(122)),                               // an id
        ("dodge", .first(169)),                             // in a title above a brand
        ("chiken", .first(19)),
        ("strawbery", .first(40)),
        ("coffe", .first(34)),                              // the last word as typed so far
        ("watch", .within([93, 98, 106, 193, 194])),
        ("grey", .within([78, 103, 160])),
        ("qqzzxx", .nothing),
    ]

    @Test func theDemoCatalogueFindsWhatPeopleMean() async throws {
        let shop = try await ShellHarness(plugins: [productsPlugin], demo: true)
        #expect(Self.cases.count >= 30)
        for (query, expect) in Self.cases {
            var found: [Int64] = []
            try await shop.services.products.searchProducts(query, filter: ProductFilter(), page: Page(limit: 3)) {
                found.append($0.product.id)
            }
            let passed: Bool
            switch expect {
            case .includes(let ids): passed = Set(ids).isSubset(of: found)
            case .within(let ids): passed = !found.isEmpty && Set(found).isSubset(of: ids)
            case .first(let id): passed = found.first == id
            case .nothing: passed = found.isEmpty
            }
            #expect(passed, "\(shop.storeKind): \"\(query)\" found \(found); expected \(expect)")
        }
    }

    @Test func theCommandTakesItsWordsWithoutQuotes() async throws {
        let shop = try await ShellHarness(plugins: [productsPlugin], demo: true)
        let rows = try #require(try await shop.json("products search samsng galxy --limit 2 --fields id,score -o json") as? [[String: Any]])
        #expect(rows.compactMap { $0["id"] as? Int } == [131, 132])   // the Samsung Galaxy phones, tied by id
        #expect(rows.allSatisfy { ($0["score"] as? Int ?? 0) > 0 })
        let none = try await shop.run("products search qqzzxx")
        #expect(none.outcome == .success && none.stdout.split(separator: "\n").count <= 1)   // a header at most
    }
}
