// PostgresCouponService: CouponService on PostgreSQL — coupons in `coupons` (migration 15), a
// basket's coupon in `basket_coupons`, uses in `coupon_uses` (written by shopsh_checkout only).
// An admin adds and disables coupons, support attaches them (PostgresRoles); the server's
// triggers write the audit rows (PostgresCouponSchema). Many coupons are added in one statement
// (INSERT … SELECT FROM unnest of one array a column), so `coupons generate` of 10,000 codes is
// one round trip.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// `CouponService` on a PostgreSQL server.
struct PostgresCouponService: CouponService {
    let database: PostgresDatabase

    func addCoupons(_ definitions: [CouponDefinition]) async throws -> [Coupon] {
        var checked: [CouponDefinition] = []
        checked.reserveCapacity(definitions.count)
        for definition in definitions { checked.append(try CouponRules.check(definition)) }
        guard !checked.isEmpty else { return [] }
        let stamp = database.clock.timestamp()
        // One array a column; NULLs as values no coupon has (0, -1, ''), taken back by NULLIF.
        var codes: [String] = [], percents: [Int64] = [], amounts: [Int64] = [], currencies: [String] = []
        var minimums: [Int64] = [], starts: [String] = [], expires: [String] = [], maxUses: [Int64] = []
        var perCustomer: [Int64] = [], categories: [String] = [], products: [String] = [], descriptions: [String] = []
        for definition in checked {
            let coupon = Coupon(id: 0, terms: definition, createdAt: stamp)
            codes.append(coupon.code)
            switch coupon.value {
            case .percent(let percent): percents.append(Int64(percent.hundredths)); amounts.append(0)
            case .amount(let money): percents.append(0); amounts.append(money.minorUnits)
            }
            currencies.append(coupon.currency.code)
            minimums.append(coupon.minTotal?.minorUnits ?? -1)
            starts.append(coupon.starts?.description ?? "")
            expires.append(coupon.expires?.description ?? "")
            maxUses.append(Int64(coupon.maxUses ?? 0))
            perCustomer.append(Int64(coupon.perCustomer ?? 0))
            switch coupon.scope {
            case .everything: categories.append(""); products.append("")
            case .category(let name): categories.append(name); products.append("")
            case .products(let ids): categories.append(""); products.append(ids.map(String.init).joined(separator: ","))
            }
            descriptions.append(coupon.description)
        }
        let query: PostgresQuery = """
            INSERT INTO coupons (code, percent_hundredths, amount_minor, currency, min_total_minor, starts, expires, max_uses,
                                 per_customer, category, product_ids, description, created_at)
            SELECT t.code, NULLIF(t.pct, 0)::integer, NULLIF(t.amt, 0), t.cur, NULLIF(t.mini, -1), NULLIF(t.st, '')::date,
                   NULLIF(t.ex, '')::date, NULLIF(t.mu, 0)::integer, NULLIF(t.pc, 0)::integer, NULLIF(t.cat, ''),
                   string_to_array(NULLIF(t.ids, ''), ',')::bigint[], t.descr, \(stamp)::timestamptz
            FROM unnest(\(codes)::text[], \(percents)::bigint[], \(amounts)::bigint[], \(currencies)::text[], \(minimums)::bigint[],
                        \(starts)::text[], \(expires)::text[], \(maxUses)::bigint[], \(perCustomer)::bigint[], \(categories)::text[],
                        \(products)::text[], \(descriptions)::text[])
                 WITH ORDINALITY AS t(code, pct, amt, cur, mini, st, ex, mu, pc, cat, ids, descr, n)
            ORDER BY t.n
            ON CONFLICT (code) DO NOTHING
            RETURNING id, code
            """
        return try await database.write(.manageCoupons, action: "add") { connection in
            var ids: [String: Int64] = [:]
            ids.reserveCapacity(checked.count)
            for try await row in try await connection.query(query, logger: database.logger).decode((Int64, String).self) {
                ids[row.1] = row.0
            }
            var added: [Coupon] = []
            added.reserveCapacity(checked.count)
            var seen = Set<String>()
            for definition in checked {
                // A code taken already, or given twice: nothing is added (the transaction is undone).
                guard let id = ids[definition.code], seen.insert(definition.code).inserted else {
                    throw CouponLookup.taken(definition.code)
                }
                var coupon = Coupon(id: 0, terms: definition, createdAt: stamp)
                coupon.id = id
                added.append(coupon)
            }
            return added
        }
    }

    /// Output field → SQL expression, for `--sort` (codes by byte, as SQLite orders them).
    static let sortColumns: [String: String] = [
        "code": "c.code COLLATE \"C\"", "created_at": "c.created_at", "uses": "uses", "starts": "c.starts",
        "expires": "c.expires", "max_uses": "c.max_uses",
    ]

    func listCoupons(_ filter: CouponFilter, page: Page, _ body: (Coupon) throws -> Void) async throws {
        let terms = try PostgresPaging.orderBy(page, sortColumns: Self.sortColumns, tieBreaker: "c.code COLLATE \"C\"")
        let limit = page.limit.map { max(0, $0) }
        let offset = max(0, page.offset)
        let pattern = filter.prefix.map { LikePattern.prefix($0.uppercased()) }
        try await database.forEachRow("listing coupons", query: { _ in
            """
            SELECT \(unescaped: Self.columns) FROM coupons c
            WHERE (\(pattern)::text IS NULL OR c.code COLLATE "C" LIKE \(pattern)::text ESCAPE '\\')
            ORDER BY \(unescaped: terms) LIMIT \(limit) OFFSET \(offset)
            """
        }) { row in
            try body(try Self.coupon(row))
        }
    }

    func coupon(_ code: String) async throws -> Coupon {
        let checked = try CouponRules.code(code)
        return try await database.read("reading a coupon") { connection in
            try await Self.find(connection, checked, logger: database.logger)
        }
    }

    func couponUses(_ code: String) async throws -> [CouponUse] {
        let checked = try CouponRules.code(code)
        return try await database.read("reading a coupon's uses") { connection in
            let coupon = try await Self.find(connection, checked, logger: database.logger)
            var uses: [CouponUse] = []
            for try await row in try await connection.query("""
                SELECT u.order_id, o.customer, \(unescaped: PostgresTimes.epochSeconds("u.used_at")), u.discount_minor, o.status,
                       o.currency, COALESCE(cur.minor_units, 2)::integer
                FROM coupon_uses u JOIN orders o ON o.id = u.order_id LEFT JOIN currencies cur ON cur.code = o.currency
                WHERE u.coupon_id = \(coupon.id) ORDER BY u.order_id
                """, logger: database.logger).decode((Int64, String, Int64, Int64, String, String, Int).self) {
                uses.append(CouponUse(orderID: row.0, customer: row.1, at: ShopClock.timestamp(row.2),
                                      discount: Money(minorUnits: row.3, currency: Currency(code: row.5, minorUnitDigits: row.6)),
                                      status: OrderStatus(rawValue: row.4) ?? .placed))
            }
            return uses
        }
    }

    func disableCoupon(_ code: String) async throws -> Coupon {
        let checked = try CouponRules.code(code)
        return try await database.write(.manageCoupons, action: "disable") { connection in
            let logger = database.logger
            _ = try await connection.query("UPDATE coupons SET disabled = true WHERE code = \(checked) AND NOT disabled",
                                           logger: logger).collect()
            return try await Self.find(connection, checked, logger: logger)
        }
    }

    func setBasketCoupon(_ user: String, code: String?) async throws -> BasketCoupon? {
        let checked = try code.map { text throws(ShopError) in try CouponRules.code(text) }
        return try await database.write(.attachCoupon, action: "coupon") { connection in
            let logger = database.logger
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: logger)
            guard let checked else {
                var removed = false
                for try await _ in try await connection.query(
                    "DELETE FROM basket_coupons WHERE user_id = \(customer.id) RETURNING coupon_id", logger: logger) {
                    removed = true
                }
                guard removed else { throw CouponLookup.noCoupon(customer.username) }
                return nil
            }
            /// The coupon the basket holds: this one again changes nothing; another is refused.
            func held() async throws -> BasketCoupon? {
                guard let held = try await Self.basketCoupon(connection, userID: customer.id, logger: logger) else { return nil }
                if held.coupon.code == checked { return held }
                throw CouponLookup.oneAtATime(customer.username, holds: held.coupon.code)
            }
            let coupon = try await Self.find(connection, checked, logger: logger)
            if let held = try await held() { return held }
            let attached = BasketCoupon(coupon: coupon,
                                        customerUses: try await Self.customerUses(connection, couponID: coupon.id, userID: customer.id,
                                                                                  logger: logger))
            try CouponRules.checkAttach(attached, on: database.clock.day)
            var inserted = false
            for try await _ in try await connection.query("""
                INSERT INTO basket_coupons (user_id, coupon_id, added_at)
                VALUES (\(customer.id), \(coupon.id), \(database.clock.timestamp())::timestamptz)
                ON CONFLICT (user_id) DO NOTHING RETURNING user_id
                """, logger: logger) {
                inserted = true
            }
            // Another shell attached one meanwhile: as if it had been there.
            if !inserted, let held = try await held() { return held }
            return attached
        }
    }

    // MARK: - Rows (the basket reads through these)

    /// The coupon columns every query selects, as `coupon(_:)` decodes them (`c` the coupon).
    static let columns = """
        c.id, c.code, c.percent_hundredths, c.amount_minor, c.currency,
        COALESCE((SELECT cur.minor_units FROM currencies cur WHERE cur.code = c.currency), 2)::integer,
        c.min_total_minor, \(PostgresTimes.day("c.starts")), \(PostgresTimes.day("c.expires")), c.max_uses, c.per_customer,
        c.category, c.product_ids, c.description, c.disabled, \(PostgresTimes.epochSeconds("c.created_at")),
        (SELECT count(*) FROM coupon_uses u WHERE u.coupon_id = c.id) AS uses
        """

    static func coupon(_ row: PostgresRow) throws -> Coupon {
        var cells = PostgresProductService.Cells(row)
        let id = try cells.next(Int64.self), code = try cells.next(String.self)
        let percent = try cells.next(Int?.self), amount = try cells.next(Int64?.self)
        let currency = Currency(code: try cells.next(String.self), minorUnitDigits: try cells.next(Int.self))
        let minimum = try cells.next(Int64?.self)
        let starts = try cells.next(String?.self), expires = try cells.next(String?.self)
        let maxUses = try cells.next(Int?.self), perCustomer = try cells.next(Int?.self)
        let category = try cells.next(String?.self), products = try cells.next([Int64]?.self)
        let description = try cells.next(String.self), disabled = try cells.next(Bool.self)
        let created = try cells.next(Int64.self), uses = try cells.next(Int64.self)
        let value: CouponValue = percent.map { .percent(Percentage(hundredths: $0)) }
            ?? .amount(Money(minorUnits: amount ?? 0, currency: currency))
        let scope: CouponScope = category.map { .category($0) } ?? products.map { .products($0) } ?? .everything
        let terms = CouponDefinition(code: code, value: value, minTotal: minimum.map { Money(minorUnits: $0, currency: currency) },
                                     starts: starts.flatMap(CalendarDay.init(iso:)), expires: expires.flatMap(CalendarDay.init(iso:)),
                                     maxUses: maxUses, perCustomer: perCustomer, scope: scope, description: description)
        return Coupon(id: id, terms: terms, disabled: disabled, uses: Int(uses), createdAt: ShopClock.timestamp(created))
    }

    static func find(_ connection: PostgresConnection, _ code: String, logger: Logger) async throws -> Coupon {
        for try await row in try await connection.query("SELECT \(unescaped: columns) FROM coupons c WHERE c.code = \(code)",
                                                        logger: logger) {
            return try coupon(row)
        }
        throw CouponLookup.notFound(code)
    }

    /// The coupon on `userID`'s basket with the customer's uses of it, if any.
    static func basketCoupon(_ connection: PostgresConnection, userID: Int64, logger: Logger) async throws -> BasketCoupon? {
        var found: Coupon?
        for try await row in try await connection.query("""
            SELECT \(unescaped: columns) FROM basket_coupons b JOIN coupons c ON c.id = b.coupon_id WHERE b.user_id = \(userID)
            """, logger: logger) {
            found = try coupon(row)
        }
        guard let found else { return nil }
        return BasketCoupon(coupon: found, customerUses: try await customerUses(connection, couponID: found.id, userID: userID, logger: logger))
    }

    static func customerUses(_ connection: PostgresConnection, couponID: Int64, userID: Int64, logger: Logger) async throws -> Int {
        for try await count in try await connection.query(
            "SELECT count(*) FROM coupon_uses WHERE coupon_id = \(couponID) AND user_id = \(userID)", logger: logger
        ).decode(Int64.self) {
            return Int(count)
        }
        return 0
    }
}
