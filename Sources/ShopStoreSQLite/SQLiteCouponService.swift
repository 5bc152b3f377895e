// SQLiteCouponService: CouponService on SQLite — coupons in `coupons` (Schema v11), a basket's
// coupon in `basket_coupons`, uses in `coupon_uses` (written by checkout only). Every change is
// one transaction with its audit rows.

import GRDB
import ShopCore

struct SQLiteCouponService: CouponService {
    let database: DatabaseQueue
    let clock: ShopClock

    func addCoupons(_ definitions: [CouponDefinition]) async throws -> [Coupon] {
        var checked: [CouponDefinition] = []
        checked.reserveCapacity(definitions.count)
        for definition in definitions { checked.append(try CouponRules.check(definition)) }
        return try database.shopWrite { db in
            let now = clock.timestamp()
            let insert = try db.cachedStatement(sql: """
                INSERT INTO coupons (code, percent_hundredths, amount_minor, currency, min_total_minor, starts, expires,
                                     max_uses, per_customer, category, product_ids, description, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO NOTHING
                """)
            var added: [Coupon] = []
            added.reserveCapacity(checked.count)
            for definition in checked {
                let coupon = Coupon(id: 0, terms: definition, createdAt: now)
                try insert.execute(arguments: Self.arguments(coupon))
                guard db.changesCount == 1 else { throw CouponLookup.taken(definition.code) }
                var stored = coupon
                stored.id = db.lastInsertedRowID
                try SQLiteAuditLog.record(.couponAdded(stored), in: db, at: now)
                added.append(stored)
            }
            return added
        }
    }

    func listCoupons(_ filter: CouponFilter, page: Page, _ body: (Coupon) throws -> Void) async throws {
        let paging = try SQLPaging.clause(page, sortColumns: Self.sortColumns, tieBreaker: "c.code")
        let prefix = filter.prefix.map { $0.uppercased() }
        try database.shopRead { db in
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(Self.columns) FROM coupons c WHERE (? IS NULL OR substr(c.code, 1, length(?)) = ?)" + paging,
                                             arguments: [prefix, prefix, prefix])
            while let row = try cursor.next() { try body(Self.coupon(row)) }
        }
    }

    func coupon(_ code: String) async throws -> Coupon {
        let checked = try CouponRules.code(code)
        return try database.shopRead { db in try Self.find(db, checked) }
    }

    func couponUses(_ code: String) async throws -> [CouponUse] {
        let checked = try CouponRules.code(code)
        return try database.shopRead { db in
            let coupon = try Self.find(db, checked)
            return try Row.fetchAll(db, sql: """
                SELECT u.order_id, o.customer, u.used_at, u.discount_minor, o.status, o.currency, coalesce(c.minor_units, 2)
                FROM coupon_uses u JOIN orders o ON o.id = u.order_id LEFT JOIN currencies c ON c.code = o.currency
                WHERE u.coupon_id = ? ORDER BY u.order_id
                """, arguments: [coupon.id]).map { row in
                CouponUse(orderID: row[0], customer: row[1], at: row[2],
                          discount: Money(minorUnits: row[3], currency: Currency(code: row[5], minorUnitDigits: row[6])),
                          status: OrderStatus(rawValue: row[4]) ?? .placed)
            }
        }
    }

    func disableCoupon(_ code: String) async throws -> Coupon {
        let checked = try CouponRules.code(code)
        return try database.shopWrite { db in
            var coupon = try Self.find(db, checked)
            guard !coupon.disabled else { return coupon }
            try db.execute(sql: "UPDATE coupons SET disabled = 1 WHERE id = ?", arguments: [coupon.id])
            try SQLiteAuditLog.record(.couponDisabled(coupon.code), in: db, at: clock.timestamp())
            coupon.disabled = true
            return coupon
        }
    }

    func setBasketCoupon(_ user: String, code: String?) async throws -> BasketCoupon? {
        let checked = try code.map { text throws(ShopError) in try CouponRules.code(text) }
        return try database.shopWrite { db in
            let customer = try SQLiteUserLookup.find(db, user)
            let held = try Self.basketCoupon(db, userID: customer.id)
            guard let checked else {
                guard let held else { throw CouponLookup.noCoupon(customer.username) }
                try db.execute(sql: "DELETE FROM basket_coupons WHERE user_id = ?", arguments: [customer.id])
                try SQLiteAuditLog.record(.basketCoupon(userID: customer.id, code: held.coupon.code, added: false), in: db, at: clock.timestamp())
                return nil
            }
            if let held, held.coupon.code == checked { return held }
            let coupon = try Self.find(db, checked)
            if let held { throw CouponLookup.oneAtATime(customer.username, holds: held.coupon.code) }
            let attached = BasketCoupon(coupon: coupon, customerUses: try Self.customerUses(db, couponID: coupon.id, userID: customer.id))
            try CouponRules.checkAttach(attached, on: clock.day)
            try db.execute(sql: "INSERT INTO basket_coupons (user_id, coupon_id, added_at) VALUES (?, ?, ?)",
                           arguments: [customer.id, coupon.id, clock.timestamp()])
            try SQLiteAuditLog.record(.basketCoupon(userID: customer.id, code: coupon.code, added: true), in: db, at: clock.timestamp())
            return attached
        }
    }

    // MARK: - Rows (checkout and the basket read through these)

    static let sortColumns: [String: String] = [
        "code": "c.code", "created_at": "c.created_at", "uses": "uses", "starts": "c.starts", "expires": "c.expires",
        "max_uses": "c.max_uses",
    ]

    static let columns = """
        c.id, c.code, c.percent_hundredths, c.amount_minor, c.currency,
        coalesce((SELECT minor_units FROM currencies WHERE code = c.currency), 2), c.min_total_minor, c.starts, c.expires,
        c.max_uses, c.per_customer, c.category, c.product_ids, c.description, c.disabled, c.created_at,
        (SELECT count(*) FROM coupon_uses u WHERE u.coupon_id = c.id) AS uses
        """

    static func find(_ db: Database, _ code: String) throws -> Coupon {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM coupons c WHERE c.code = ?", arguments: [code]) else {
            throw CouponLookup.notFound(code)
        }
        return coupon(row)
    }

    /// The coupon on `userID`'s basket with the customer's uses of it, if any.
    static func basketCoupon(_ db: Database, userID: Int64) throws -> BasketCoupon? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT \(columns) FROM basket_coupons b JOIN coupons c ON c.id = b.coupon_id WHERE b.user_id = ?
            """, arguments: [userID]) else { return nil }
        let coupon = coupon(row)
        return BasketCoupon(coupon: coupon, customerUses: try customerUses(db, couponID: coupon.id, userID: userID))
    }

    static func customerUses(_ db: Database, couponID: Int64, userID: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM coupon_uses WHERE coupon_id = ? AND user_id = ?",
                         arguments: [couponID, userID]) ?? 0
    }

    static func coupon(_ row: Row) -> Coupon {
        let currency = Currency(code: row[4], minorUnitDigits: row[5])
        let value: CouponValue = (row[2] as Int?).map { .percent(Percentage(hundredths: $0)) }
            ?? .amount(Money(minorUnits: row[3] ?? 0, currency: currency))
        let scope: CouponScope = (row[11] as String?).map { .category($0) }
            ?? (row[12] as String?).map { text in .products(text.split(separator: ",").compactMap { Int64($0) }) } ?? .everything
        let terms = CouponDefinition(code: row[1], value: value, minTotal: (row[6] as Int64?).map { Money(minorUnits: $0, currency: currency) },
                                     starts: (row[7] as String?).flatMap(CalendarDay.init(iso:)),
                                     expires: (row[8] as String?).flatMap(CalendarDay.init(iso:)),
                                     maxUses: row[9], perCustomer: row[10], scope: scope, description: row[13])
        return Coupon(id: row[0], terms: terms, disabled: row[14], uses: row[16], createdAt: row[15])
    }

    private static func arguments(_ coupon: Coupon) -> StatementArguments {
        var percent: Int?, amount: Int64?
        switch coupon.value {
        case .percent(let value): percent = value.hundredths
        case .amount(let money): amount = money.minorUnits
        }
        var category: String?, products: String?
        switch coupon.scope {
        case .everything: break
        case .category(let name): category = name
        case .products(let ids): products = ids.map(String.init).joined(separator: ",")
        }
        return [coupon.code, percent, amount, coupon.currency.code, coupon.minTotal?.minorUnits, coupon.starts?.description,
                coupon.expires?.description, coupon.maxUses, coupon.perCustomer, category, products, coupon.description, coupon.createdAt]
    }
}
