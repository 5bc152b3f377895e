// PostgresBasketService: baskets and checkout on PostgreSQL. Showing a basket is one statement;
// adding, setting and removing a line is one call of the server's basket functions
// (PostgresBasketStatements), whose refusals carry their own codes (PostgresRefusal): accepted or
// refused, one round trip. The step-by-step path runs only when the call cannot be made (a viewer,
// a read-only session) or met a lock it would not wait for. An increment is one atomic INSERT … ON CONFLICT DO UPDATE that checks the
// line's limit itself, so concurrent shells never lose one; checkout is the server's own operation (shopsh_checkout: it prices the basket, takes
// the stock with conditional updates, so the last item is sold once, and writes the order). The
// server's triggers record every change in the audit log. No advisory locks, no sequences.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit

/// `BasketService` on a PostgreSQL server.
struct PostgresBasketService: BasketService {
    let database: PostgresDatabase

    // MARK: - Reading

    func basket(_ user: String) async throws -> Basket {
        if let basket = try await basketInOneStatement(user) { return basket }
        return try await database.read("reading a basket") { connection in
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: database.logger)
            return Basket(user: customer, lines: try await Self.lines(connection, userID: customer.id, logger: database.logger),
                          coupon: try await PostgresCouponService.basketCoupon(connection, userID: customer.id, logger: database.logger))
        }
    }

    func listBaskets(_ query: BasketListQuery, _ body: (BasketSummary) throws -> Void) async throws {
        let before = query.changedBefore, minimum = query.minTotal
        let limit = query.page.limit.map(Int64.init), offset = Int64(query.page.offset)
        // users_masked for a viewer: only the username is read, which it does not mask. A filter
        // not given is a bound that lets every basket through, never `$1 IS NULL OR …`: the
        // server cannot fold that test for a text cast to timestamptz (the cast depends on the
        // time zone), so `--idle` could not use the index by last change (54 ms at 200,000
        // customers, now 2 ms). The listings of orders, refunds, reports, rates and the audit log
        // bound their times and days the same way.
        try await database.forEachRow("listing baskets", query: { _ in """
            SELECT s.user_id, u.username, s.lines, s.items, s.total, s.discounted_total,
                   \(unescaped: PostgresTimes.epochSeconds("s.last_change"))
            FROM basket_summaries s JOIN \(unescaped: database.usersSource) u ON u.id = s.user_id
            WHERE s.last_change <= COALESCE(\(before)::timestamptz, 'infinity') AND s.total >= \(minimum ?? .min)::bigint
            ORDER BY \(unescaped: query.orderBy) LIMIT \(limit)::bigint OFFSET \(offset)
            """ }) { row in
            let cells = try row.decode((Int64, String, Int64, Int64, Int64, Int64, Int64).self)
            try body(BasketSummary(userID: cells.0, username: cells.1, lines: Int(cells.2), items: Int(cells.3),
                                   total: Money(minorUnits: cells.4, currency: .usd),
                                   discountedTotal: Money(minorUnits: cells.5, currency: .usd),
                                   lastChange: ShopClock.timestamp(cells.6)))
        }
    }

    // MARK: - Writing

    func addToBasket(_ user: String, product: String, quantity: Int) async throws -> BasketLine {
        try BasketRules.checkQuantity(quantity, allowZero: false)
        let stamp = database.clock.timestamp()
        if let line = try await changeInOneCall(.addToBasket, user, product, call: { customer, name, id, reference, lockWait, command in
            "SELECT * FROM shopsh_basket_add(\(customer)::bigint, \(name), \(id)::bigint, \(reference), \(lockWait), \(quantity)::integer, \(stamp)::timestamptz, \(command))"
        }) {
            return line
        }
        return try await database.write(.addToBasket, action: "add") { connection in
            let logger = database.logger
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: logger)
            let item = try await PostgresProductService.find(connection, product, logger: logger)
            try BasketRules.checkAdd(customer, item)
            try await Self.checkRoom(connection, customer, item, logger: logger)
            // One statement: inserts the line or increments it, unless that would pass the limit.
            let rows = try await connection.query("""
                INSERT INTO basket_lines (user_id, product_id, quantity, added_at)
                VALUES (\(customer.id), \(item.id), \(quantity), \(stamp)::timestamptz)
                ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = basket_lines.quantity + EXCLUDED.quantity
                    WHERE basket_lines.quantity + EXCLUDED.quantity <= \(BasketLimits.maxQuantity)
                RETURNING quantity
                """, logger: logger)
            for try await stored in rows.decode(Int.self) {
                return Self.line(customer.id, item, quantity: stored)
            }
            let current = try await Self.quantity(connection, customer.id, item.id, logger: logger) ?? 0
            throw BasketRules.lineFull(customer.username, sku: item.sku, adding: quantity, current: current)
        }
    }

    func setBasketQuantity(_ user: String, product: String, quantity: Int) async throws -> BasketLine? {
        try BasketRules.checkQuantity(quantity, allowZero: true)
        let stamp = database.clock.timestamp()
        if let line = try await changeInOneCall(.setBasketQuantity, user, product, call: { customer, name, id, reference, lockWait, command in
            "SELECT * FROM shopsh_basket_set(\(customer)::bigint, \(name), \(id)::bigint, \(reference), \(lockWait), \(quantity)::integer, \(stamp)::timestamptz, \(command))"
        }) {
            return line.quantity == 0 ? nil : line
        }
        return try await database.write(.setBasketQuantity, action: "set") { connection in
            let logger = database.logger
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: logger)
            let item = try await PostgresProductService.find(connection, product, logger: logger)
            if quantity == 0 {
                guard try await Self.delete(connection, customer.id, item.id, logger: logger) != nil else {
                    throw BasketRules.notInBasket(customer.username, productID: item.id, sku: item.sku)
                }
                return nil
            }
            let current = try await Self.quantity(connection, customer.id, item.id, logger: logger)
            if try BasketRules.checkSet(customer, item, from: current, to: quantity) {
                try await Self.checkRoom(connection, customer, item, logger: logger)
            }
            try await connection.query("""
                INSERT INTO basket_lines (user_id, product_id, quantity, added_at)
                VALUES (\(customer.id), \(item.id), \(quantity), \(stamp)::timestamptz)
                ON CONFLICT (user_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity
                """, logger: logger)
            return Self.line(customer.id, item, quantity: quantity)
        }
    }

    func removeFromBasket(_ user: String, product: String) async throws {
        if try await changeInOneCall(.removeFromBasket, user, product, call: { customer, name, id, reference, lockWait, command in
            "SELECT * FROM shopsh_basket_remove(\(customer)::bigint, \(name), \(id)::bigint, \(reference), \(lockWait), \(command))"
        }) != nil {
            return
        }
        try await database.write(.removeFromBasket, action: "remove") { connection in
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: database.logger)
            let item = try await PostgresProductService.find(connection, product, logger: database.logger)
            guard try await Self.delete(connection, customer.id, item.id, logger: database.logger) != nil else {
                throw BasketRules.notInBasket(customer.username, productID: item.id, sku: item.sku)
            }
        }
    }

    func clearBasket(_ user: String) async throws -> Int {
        try await database.write(.clearBasket, action: "clear") { connection in
            let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: database.logger)
            var removed = 0
            for try await _ in try await connection.query(
                "DELETE FROM basket_lines WHERE user_id = \(customer.id) RETURNING product_id", logger: database.logger
            ) {
                removed += 1
            }
            return removed
        }
    }

    func checkout(_ user: String, shipTo: Int64?, withoutCoupon: Bool) async throws -> Order {
        try await database.write(.checkout, action: "checkout") { connection in
            try await Self.checkout(connection, user, shipTo: shipTo, withoutCoupon: withoutCoupon, database: database)
        }
    }

    // MARK: - In one round trip

    /// One call of a basket function of PostgresBasketStatements: the line it changed, or nil
    /// (PostgresDatabase.changeInOneCall).
    private func changeInOneCall(
        _ operation: ShopOperation, _ user: String, _ product: String,
        call: (Int64?, String, Int64?, String, String?, String) -> PostgresQuery
    ) async throws(ShopError) -> BasketLine? {
        try await database.changeInOneCall(operation, user: user, product: product, call: call) { row in
            let line = try row.decode((Int64, Int64, String, String, Int64, Int, Int, Int).self)
            return BasketLine(userID: line.0, productID: line.1, sku: line.2, title: line.3,
                              unitPrice: Money(minorUnits: line.4, currency: .usd), discount: Percentage(hundredths: line.5),
                              quantity: line.7, stock: line.6)
        }
    }

    /// The basket in one statement: the customer looked up as PostgresUserLookup does (id first,
    /// then username or email) with the lines joined; nil when no user matches (the step-by-step
    /// path then names close usernames). For a session that reads `users` the statement is
    /// prepared once per connection (its planning took four times its execution).
    private func basketInOneStatement(_ user: String) async throws(ShopError) -> Basket? {
        let reference = UserReference(user)
        return try await database.read("reading a basket") { connection -> Basket? in
            if database.usersSource == "users" {
                let rows = try await connection.execute(BasketStatement(reference: reference), logger: database.logger)
                var basket: Basket?
                var hasCoupon = false
                for try await row in rows { basket = try Self.addRow(row, to: basket, hasCoupon: &hasCoupon) }
                return try await Self.withCoupon(basket, if: hasCoupon, connection, logger: database.logger)
            }
            var basket: Basket?
            var hasCoupon = false
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: BasketStatement.text(table: "users_masked"),
                                                                          binds: BasketStatement(reference: reference).bindings(byEmail: false)),
                                                             logger: database.logger) {
                basket = try Self.addRow(row, to: basket, hasCoupon: &hasCoupon)
            }
            return try await Self.withCoupon(basket, if: hasCoupon, connection, logger: database.logger)
        }
    }

    /// `basket` with the coupon it carries (and the customer's uses of it), read only when the
    /// basket's statement said it has one: a basket without a coupon stays one round trip.
    private static func withCoupon(_ basket: Basket?, if hasCoupon: Bool, _ connection: PostgresConnection,
                                   logger: Logger) async throws -> Basket? {
        guard var basket else { return nil }
        guard hasCoupon else { return basket }
        basket.coupon = try await PostgresCouponService.basketCoupon(connection, userID: basket.user.id, logger: logger)
        return basket
    }

    /// `basket` with the row's user (the first row's) and its line, if it has one; `hasCoupon`
    /// set when the basket carries a coupon.
    private static func addRow(_ row: PostgresRow, to basket: Basket?, hasCoupon: inout Bool) throws -> Basket {
        var cells = PostgresProductService.Cells(row)
        let user = PostgresUserLookup.user((try cells.next(Int64.self), try cells.next(String.self), try cells.next(String.self),
                                            try cells.next(String.self), try cells.next(String.self), try cells.next(String?.self),
                                            try cells.next(String.self), try cells.next(String.self), try cells.next(Int64.self)))
        hasCoupon = try cells.next(Bool.self)
        var basket = basket ?? Basket(user: user, lines: [])
        if let productID = try cells.next(Int64?.self) {
            basket.lines.append(BasketLine(userID: user.id, productID: productID, sku: try cells.next(String.self),
                                           title: try cells.next(String.self),
                                           unitPrice: Money(minorUnits: try cells.next(Int64.self), currency: .usd),
                                           discount: Percentage(hundredths: try cells.next(Int.self)), quantity: try cells.next(Int.self),
                                           category: try cells.next(String.self)))
        }
        return basket
    }

    /// The one statement of `basketInOneStatement`: the customer by id, else (only then) by
    /// username or email, whether the basket carries a coupon, and the basket's lines oldest
    /// first; no row when no user matches.
    struct BasketStatement: PostgresPreparedStatement {
        typealias Row = PostgresRow
        let reference: UserReference

        static let name = "shopsh_basket_show"
        static let sql = text(table: "users")

        static func text(table: String) -> String {
            let columns = PostgresUserLookup.columns
            return """
                WITH by_id AS (SELECT \(columns) FROM \(table) WHERE id = $1::bigint),
                customer AS (
                    SELECT * FROM by_id
                    UNION ALL
                    (SELECT \(columns) FROM \(table)
                     WHERE NOT EXISTS (SELECT 1 FROM by_id)
                       AND (lower(username) = lower($2) OR ($3 AND lower(email) = lower($2)))
                     LIMIT 1))
                SELECT c.*, EXISTS (SELECT 1 FROM basket_coupons bc WHERE bc.user_id = c.id),
                       b.product_id, p.sku, p.title, p.price_minor, p.discount_hundredths, b.quantity, p.category
                FROM customer c
                LEFT JOIN basket_lines b ON b.user_id = c.id
                LEFT JOIN products p ON p.id = b.product_id
                ORDER BY b.added_at, b.product_id
                """
        }

        /// The id (NULL unless the reference reads as one), the name, and whether emails are looked up.
        func bindings(byEmail: Bool) -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(reference.id)
            bindings.append(reference.name)
            bindings.append(byEmail)
            return bindings
        }

        func makeBindings() throws -> PostgresBindings { bindings(byEmail: true) }

        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

    // MARK: - Checkout

    /// A basket line as checkout reads it: the line with its product's stock.
    typealias CheckoutRow = (Int64, String, String, Int64, Int, Int, Int)

    /// Reads the basket with its lines locked and checks it with BasketRules (so that a refusal
    /// names what is wrong), then has the server check it out (`shopsh_checkout`: the server prices
    /// the lines, takes the stock, writes the order and its audit row, and empties the basket; a
    /// product whose stock another checkout took meanwhile undoes everything). Runs inside the
    /// caller's transaction: any error leaves everything unchanged.
    static func checkout(_ connection: PostgresConnection, _ user: String, shipTo: Int64?, withoutCoupon: Bool,
                         database: PostgresDatabase) async throws -> Order {
        let logger = database.logger
        let customer = try await PostgresUserLookup.find(connection, user, source: database.usersSource, logger: logger)
        if let shipTo {
            var found = false
            for try await _ in try await connection.query("""
                SELECT 1 FROM \(unescaped: database.session.addressesSource) WHERE user_id = \(customer.id) AND id = \(shipTo)
                """, logger: logger) {
                found = true
            }
            guard found else { throw AddressLookup.notFound(shipTo, user: customer.username) }
        }
        var lines: [BasketLine] = []
        // A concurrent checkout of the same basket waits here, then finds its lines gone.
        for try await row in try await connection.query("""
            SELECT b.product_id, p.sku, p.title, p.price_minor, p.discount_hundredths, b.quantity, p.stock
            FROM basket_lines b JOIN products p ON p.id = b.product_id
            WHERE b.user_id = \(customer.id)
            ORDER BY p.id
            FOR UPDATE OF b
            """, logger: logger).decode(CheckoutRow.self) {
            lines.append(BasketLine(userID: customer.id, productID: row.0, sku: row.1, title: row.2,
                                    unitPrice: Money(minorUnits: row.3, currency: .usd), discount: Percentage(hundredths: row.4),
                                    quantity: row.5, stock: row.6))
        }
        try BasketRules.checkCheckout(customer, lines: lines.count)
        try BasketRules.checkStock(customer, lines)
        // The totals must fit (a store edited by hand could hold prices that do not): one line if not.
        let basket = Basket(user: customer, lines: lines)
        _ = try basket.total
        _ = try basket.discountedTotal
        // A refusal (PostgresRefusal's SHC codes: a product another checkout emptied meanwhile; its
        // SHK codes: the basket's coupon gives nothing now, in CouponRefusal's words) is worded
        // from its detail where PostgresErrors maps the server's error. The server applies the
        // coupon (unless `withoutCoupon`), counts its use and takes it off the basket.
        var orderID: Int64?
        for try await id in try await connection.query("SELECT shopsh_checkout(\(customer.id), \(shipTo), \(withoutCoupon))", logger: logger)
            .decode(Int64.self) {
            orderID = id
        }
        guard let orderID else { throw ShopError.storage("checking out: the server made no order") }
        return try await PostgresOrderService.find(connection, orderID, addresses: database.orderAddressesSource, logger: logger)
    }

    // MARK: - Rows and rules

    /// The basket lines of a user, oldest first, with the products' prices now.
    static func lines(_ connection: PostgresConnection, userID: Int64, logger: Logger) async throws -> [BasketLine] {
        var lines: [BasketLine] = []
        for try await row in try await connection.query("""
            SELECT b.product_id, p.sku, p.title, p.price_minor, p.discount_hundredths, b.quantity, p.category
            FROM basket_lines b JOIN products p ON p.id = b.product_id
            WHERE b.user_id = \(userID) ORDER BY b.added_at, b.product_id
            """, logger: logger).decode((Int64, String, String, Int64, Int, Int, String).self) {
            lines.append(BasketLine(userID: userID, productID: row.0, sku: row.1, title: row.2,
                                    unitPrice: Money(minorUnits: row.3, currency: .usd), discount: Percentage(hundredths: row.4),
                                    quantity: row.5, category: row.6))
        }
        return lines
    }

    private static func line(_ userID: Int64, _ product: Product, quantity: Int) -> BasketLine {
        BasketLine(userID: userID, productID: product.id, sku: product.sku, title: product.title,
                   unitPrice: product.price, discount: product.discount, quantity: quantity, stock: product.stock)
    }

    /// The quantity of the line, or nil when the basket does not hold the product.
    static func quantity(_ connection: PostgresConnection, _ userID: Int64, _ productID: Int64,
                         logger: Logger) async throws -> Int? {
        try await firstQuantity(connection, "SELECT quantity FROM basket_lines WHERE user_id = \(userID) AND product_id = \(productID)",
                                logger: logger)
    }

    /// Deletes the line; its quantity, or nil when there was none.
    static func delete(_ connection: PostgresConnection, _ userID: Int64, _ productID: Int64,
                       logger: Logger) async throws -> Int? {
        try await firstQuantity(connection, """
            DELETE FROM basket_lines WHERE user_id = \(userID) AND product_id = \(productID) RETURNING quantity
            """, logger: logger)
    }

    /// The first row's quantity of `query`, or nil when it has no row.
    private static func firstQuantity(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws -> Int? {
        for try await quantity in try await connection.query(query, logger: logger).decode(Int.self) { return quantity }
        return nil
    }

    /// Counts the basket's lines for `BasketRules.checkRoom`. A new line is counted with the user's
    /// row locked, so that two shells adding different products at once cannot pass the limit
    /// together; an increment of a line the basket holds needs no lock.
    static func checkRoom(_ connection: PostgresConnection, _ user: User, _ product: Product, logger: Logger) async throws {
        if try await count(connection, user, product, logger: logger).holdsProduct { return }
        // Through a function of the owner's: a row lock needs UPDATE on users, which support lacks.
        _ = try await connection.query("SELECT shopsh_lock_basket(\(user.id))", logger: logger).collect()
        let (recounted, holdsNow) = try await count(connection, user, product, logger: logger)
        try BasketRules.checkRoom(user, lines: recounted, holdsProduct: holdsNow)
    }

    private static func count(_ connection: PostgresConnection, _ user: User, _ product: Product,
                              logger: Logger) async throws -> (lines: Int, holdsProduct: Bool) {
        for try await row in try await connection.query("""
            SELECT count(*), COALESCE(bool_or(product_id = \(product.id)), false) FROM basket_lines WHERE user_id = \(user.id)
            """, logger: logger).decode((Int, Bool).self) {
            return row
        }
        return (0, false)
    }
}
