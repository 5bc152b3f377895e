// PostgresServiceTests: what the PostgreSQL services do beyond the store contract's cases — rates
// stored in several statements with a repeated date and code, timestamps from the store's clock in
// the shop's format, and "did you mean" for an unknown user.

import Foundation
import PostgresNIO
import ShopCore
import Testing
@testable import ShopStorePostgres

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresServiceTests {
    /// A new store on a schema of its own, stamping rows with `clock`.
    func makeStore(clock: ShopClock = .fixed(1_776_075_630)) async throws -> PostgresStore {
        try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: try await PostgresTestServer.makeSchema(),
                                     clock: clock)
    }

    @Test func ratesOfALargeImportTheLastOfADateAndCodeWinning() async throws {
        let store = try await makeStore()
        defer { store.close() }
        let first = try #require(CalendarDay(iso: "2000-01-01")).dayNumber
        let count = 6_000
        var rates: [CurrencyRate] = []
        for offset in 0..<count {
            let day = try #require(CalendarDay(dayNumber: first + offset)).description
            rates.append(CurrencyRate(date: day, currency: "USD", rate: ExactDecimal(units: Int64(10_000 + offset), scale: 4)))
        }
        let last = try #require(rates.last)
        rates.append(CurrencyRate(date: last.date, currency: "USD", rate: ExactDecimal(units: 1_234_567, scale: 6)))
        #expect(try await store.services.currencies.storeRates(rates) == count + 1)
        #expect(try await store.services.currencies.firstRateDay("usd") == "2000-01-01")
        let latest = try #require(try await store.services.currencies.latestRate("USD", onOrBefore: nil))
        #expect(latest.date == last.date && latest.rate.normalized == ExactDecimal(units: 1_234_567, scale: 6))
        await #expect(throws: ShopError.self) { try await store.services.currencies.latestRate("USD", onOrBefore: "2026-02-30") }
    }

    @Test func timestampsComeFromTheClockInTheShopsFormat() async throws {
        let store = try await makeStore()
        defer { store.close() }
        let user = try await store.services.users.addUser(NewUser(username: "tz", email: "tz@example.com"))
        #expect(user.createdAt == "2026-04-13T10:20:30Z")
        _ = try await store.services.products.addProduct(NewProduct(sku: "TZ-1", title: "Clock", category: "time",
                                                                    price: Money(minorUnits: 100, currency: .usd)))
        #expect(try await store.services.favorites.addFavorite("tz", product: "TZ-1"))
        // A favourite's time is the server's own (issue 32: no client names it), in the shop's format.
        let added = try await store.services.favorites.favorites("tz").map(\.addedAt)
        let now = Int64(Date().timeIntervalSince1970)
        #expect(added.count == 1 && added.allSatisfy { ShopClock.parse($0).map { abs($0 - now) < 3_600 } == true }, "\(added)")
    }

    @Test func anUnknownUserSuggestsCloseNames() async throws {
        let store = try await makeStore()
        defer { store.close() }
        for name in ["emilys", "emilia", "emma", "zed"] {
            _ = try await store.services.users.addUser(NewUser(username: name, email: "\(name)@example.com"))
        }
        await #expect(throws: ShopError.notFound("no user with id, username or email \"emily\" (did you mean emilys, emilia?)")) {
            try await store.services.users.user("emily")
        }
    }
    /// What the server refuses reaches the operator as one line in our words, never with a SQLSTATE.
    @Test func theServersOwnRefusalsAreOneLineWithoutSQLSTATE() async throws {
        let store = try await makeStore()
        defer { store.close() }
        for sql in ["SELECT 1 / 0", "SELECT 'x'::integer", "SELECT repeat('x', 3000)::varchar(10)::int"] {
            let error = await refusal(store, sql)
            #expect(error?.isInvalidInput == true && error?.message.contains("SQLSTATE") == false
                    && error?.message.contains("\n") == false && error?.message.contains("trying the server") == true,
                    "\(sql): \(String(describing: error))")
        }
        #expect(PostgresErrors.refusedByServer(state: "54000", message: "index row requires 12024 bytes, maximum size is 8191",
                                               doing: "adding a product").message
                == "too large for the PostgreSQL server to keep, adding a product; nothing was changed")
    }

    /// How the store answers `sql` run as one of its reads (nil: it was not refused).
    func refusal(_ store: PostgresStore, _ sql: String) async -> ShopError? {
        let logger = store.logger
        do {
            _ = try await store.database.read("trying the server") { connection in
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect()
            }
            return nil
        } catch {
            return error
        }
    }
}

extension ShopError {
    var isInvalidInput: Bool { if case .invalidInput = self { true } else { false } }
}
