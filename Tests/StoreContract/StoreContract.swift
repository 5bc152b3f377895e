// StoreContract: the contract every store must pass, asserted through the service protocols
// only (no SQL, no store types). Each area is one public function; each runs its cases, every
// one on a fresh store from the fixture, so one broken rule never hides another.

import ShopCore
import Testing

/// What every shop store must do, as a library of checks that each store's tests call.
///
/// Call each area from its own `@Test` (best for reporting), or everything with `all(_:)`:
///
/// ```swift
/// @Test func products() async throws { await StoreContract.products(SQLiteFixture()) }
/// ```
///
/// Every case creates its own data through the services. A case that throws is recorded as an
/// issue naming its area and case; the next case still runs.
public enum StoreContract {
    /// The contract's areas: each store's tests run every one of them (`@Test(arguments: Area.allCases)`),
    /// so a new area runs on every store at once.
    public enum Area: String, CaseIterable, Sendable, CustomStringConvertible {
        case products, reviews, search, users, addresses, notes, shipments, baskets, checkout, coupons, favorites, orders, refunds, ledger, concurrency,
             completions, currency, runTransactions, audit, bulkChanges

        public var description: String { rawValue }

        /// Runs this area's cases on stores from `fixture`.
        public func run(_ fixture: some StoreFixture) async {
            switch self {
            case .products: await StoreContract.products(fixture)
            case .reviews: await StoreContract.reviews(fixture)
            case .search: await StoreContract.search(fixture)
            case .users: await StoreContract.users(fixture)
            case .addresses: await StoreContract.addresses(fixture)
            case .notes: await StoreContract.notes(fixture)
            case .shipments: await StoreContract.shipments(fixture)
            case .baskets: await StoreContract.baskets(fixture)
            case .checkout: await StoreContract.checkout(fixture)
            case .coupons: await StoreContract.coupons(fixture)
            case .favorites: await StoreContract.favorites(fixture)
            case .orders: await StoreContract.orders(fixture)
            case .refunds: await StoreContract.refunds(fixture)
            case .ledger: await StoreContract.ledger(fixture)
            case .concurrency: await StoreContract.concurrency(fixture)
            case .completions: await StoreContract.completions(fixture)
            case .currency: await StoreContract.currency(fixture)
            case .runTransactions: await StoreContract.runTransactions(fixture)
            case .audit: await StoreContract.audit(fixture)
            case .bulkChanges: await StoreContract.bulkChanges(fixture)
            }
        }
    }

    // MARK: - Running cases

    /// Which store a case starts from.
    enum Start: Sendable {
        case empty
        /// Empty but for `ContractData.currencyList`.
        case currencyList
    }

    /// One rule of the contract, checked on a fresh store.
    struct Case: Sendable {
        var name: String
        var start: Start
        var body: @Sendable (any ShopStore) async throws -> Void

        /// A case that works through the store's services.
        init(_ name: String, start: Start = .empty, _ body: @escaping @Sendable (ShopServices) async throws -> Void) {
            self.name = name
            self.start = start
            self.body = { store in try await body(store.services) }
        }

        /// A case that needs the store itself (runs).
        init(_ name: String, start: Start = .empty, store body: @escaping @Sendable (any ShopStore) async throws -> Void) {
            self.name = name
            self.start = start
            self.body = body
        }
    }

    /// Runs `cases` one after another, each on a new store; a failing case is recorded under
    /// `area/name` (or expected to fail, when the fixture lists it as a known issue).
    static func run(_ area: String, _ fixture: some StoreFixture, _ cases: [Case]) async {
        let known = fixture.knownIssues
        for key in known.keys where key.hasPrefix(area + "/") && !cases.contains(where: { area + "/" + $0.name == key }) {
            Issue.record(Comment(rawValue: "the fixture lists a known issue \"\(key)\" that is no case of the contract"))
        }
        for item in cases {
            let key = area + "/" + item.name
            let attempt: @Sendable () async throws -> Void = {
                let store = switch item.start {
                case .empty: try await fixture.makeEmptyStore()
                case .currencyList: try await fixture.makeStore(currencyList: ContractData.currencyList)
                }
                try await item.body(store)
            }
            if let reason = known[key] {
                await withKnownIssue(Comment(rawValue: key + ": " + reason.rawValue)) { try await attempt() }
            } else {
                do {
                    try await attempt()
                } catch {
                    Issue.record(error, Comment(rawValue: key))
                }
            }
        }
    }
}
