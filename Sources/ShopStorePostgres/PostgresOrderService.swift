// PostgresOrderService: orders on PostgreSQL. Orders are made by checkout (PostgresBasketService);
// here they are listed (streamed row by row), shown, moved through their statuses (by the server's
// shopsh_set_order_status: cancelling restocks, under the order's lock, once) and counted.

import Logging
import PostgresNIO
import ShopCore
import ShopStoreKit
import PostgresShopSchema

/// `OrderService` on a PostgreSQL server.
struct PostgresOrderService: OrderService {
    let database: PostgresDatabase

    /// The order columns every query selects, in `OrderRow`'s order. The currency's minor unit
    /// comes from the ISO list (2 when the store has none); times are whole seconds since 1970.
    static let columns = """
        o.id, o.user_id, o.status, o.currency, COALESCE(c.minor_units, 2)::integer, o.total_minor,
        o.discounted_total_minor, floor(extract(epoch FROM o.created_at))::bigint,
        floor(extract(epoch FROM o.updated_at))::bigint, o.customer, o.refunded_minor,
        a.name, a.line1, a.line2, a.city, a.state, a.postal_code, a.country, a.phone,
        (SELECT k.code FROM coupons k WHERE k.id = cu.coupon_id), cu.discount_minor
        """

    /// The orders with their currencies and where they go, read from `addresses` (the session's
    /// `orderAddressesSource`: constant SQL).
    static func from(_ addresses: String) -> String {
        " FROM orders o LEFT JOIN currencies c ON c.code = o.currency LEFT JOIN \(addresses) a ON a.order_id = o.id"
            + " LEFT JOIN coupon_uses cu ON cu.order_id = o.id"
    }

    /// An order (without lines) as `columns` decode.
    typealias OrderRow = (Int64, Int64?, String, String, Int, Int64, Int64, Int64, Int64, String, Int64,
                          String?, String?, String?, String?, String?, String?, String?, String?, String?, Int64?)

    /// Statuses in the order of an order's life, for sorting and grouping.
    static let statusRank = OrderStatusSQL.rank("o.status")

    /// Output field name → SQL expression, for `--sort` (text as SQLite orders it: the customer
    /// without regard to case, codes by byte).
    static let sortColumns: [String: String] = [
        "id": "o.id", "user_id": "o.user_id", "customer": "lower(o.customer) COLLATE \"C\"", "status": statusRank,
        "currency": "o.currency COLLATE \"C\"",
        "total": "o.total_minor", "discounted_total": "o.discounted_total_minor", "refunded": "o.refunded_minor",
        "created_at": "o.created_at", "updated_at": "o.updated_at",
    ]

    // MARK: - Reading

    func listOrders(_ filter: OrderFilter, page: Page, _ body: (Order) throws -> Void) async throws {
        try filter.check()
        // Newest first unless a sort is asked for.
        let terms = try PostgresPaging.orderBy(page, sortColumns: Self.sortColumns,
                                               tieBreaker: page.sort.isEmpty ? "o.id DESC" : "o.id")
        let limit = page.limit.map { max(0, $0) }
        let offset = max(0, page.offset)
        try await database.forEachRow("listing orders", query: { connection in
            let parts = try await FilterParts(connection, filter, database: database)
            return parts.query(select: Self.columns, tail: "ORDER BY " + terms, limit: limit, offset: offset)
        }) { row in
            try body(try Self.order(try row.decode(OrderRow.self)))
        }
    }

    func order(_ id: Int64) async throws -> Order {
        try await database.read("reading an order") { connection in
            try await Self.find(connection, id, addresses: database.orderAddressesSource, logger: database.logger)
        }
    }

    /// Checks the move with ShopCore's rule (so that a refusal says which moves are allowed), then
    /// has the server make it (`shopsh_set_order_status`: the status machine again, under the
    /// order's lock; cancelling restocks what the order took, once; one audit row).
    func setOrderStatus(_ id: Int64, _ status: OrderStatus) async throws -> Order {
        try await database.write(.setOrderStatus, action: "status") { connection in
            let logger = database.logger
            let order = try await Self.find(connection, id, addresses: database.orderAddressesSource, logger: logger)
            try order.status.checkMove(to: status, order: id)
            if status == .cancelled {
                try RefundRules.checkCancel(order)
                try ShipmentRules.checkCancel(order, shipments: try await PostgresShipmentService.all(connection, id, logger: logger))
            }
            do {
                _ = try await connection.query("SELECT shopsh_set_order_status(\(id), \(status.rawValue))", logger: logger).collect()
            } catch let error as PSQLError {
                switch error.serverInfo?[.sqlState] {
                case PostgresServerRules.noSuchOrder: throw ShopError.notFound("no order \(id)")
                case PostgresServerRules.notAllowedMove: throw ShopError.conflict("order \(id) changed meanwhile; look at it again")
                default: throw error
                }
            }
            return try await Self.find(connection, id, addresses: database.orderAddressesSource, logger: logger)
        }
    }

    /// Checks the return with ShopCore's rules (so that a refusal says why in its words), then has
    /// the server make it (`shopsh_return_units`: the same checks under the order's lock, one
    /// audit row). A refusal of the server's (another operator got there first) is worded from
    /// the order read again.
    func returnUnits(_ request: ReturnRequest) async throws -> OrderRefund {
        let reason = try RefundRules.checkReason(request.reason)
        return try await refunding(request.orderID) { connection, order in
            let (lineNumber, _) = try RefundRules.plan(request, order: order)
            var id: Int64?
            for try await row in try await connection.query(
                "SELECT shopsh_return_units(\(order.id), \(lineNumber)::integer, \(request.quantity)::integer, \(request.restock), \(reason))",
                logger: database.logger
            ).decode(Int64.self) { id = row }
            return id
        } reword: { order in
            _ = try RefundRules.plan(request, order: order)
        }
    }

    func refund(_ orderID: Int64, amount: Money, reason: String) async throws -> OrderRefund {
        let reason = try RefundRules.checkReason(reason)
        return try await refunding(orderID) { connection, order in
            try RefundRules.checkAmount(amount, order: order)
            var id: Int64?
            for try await row in try await connection.query(
                "SELECT shopsh_refund(\(order.id), \(amount.minorUnits), \(reason))", logger: database.logger
            ).decode(Int64.self) { id = row }
            return id
        } reword: { order in
            try RefundRules.checkAmount(amount, order: order)
        }
    }

    /// Runs `call` (the server's function, after ShopCore's checks on `order`) in a write, and
    /// returns the refund it made. A refusal of the server's own is worded by `reword` on the order
    /// as it is now; if that finds nothing wrong, the order changed meanwhile.
    private func refunding(_ orderID: Int64, _ call: (PostgresConnection, Order) async throws -> Int64?,
                           reword: (Order) throws -> Void) async throws -> OrderRefund {
        do {
            return try await database.write(.refundOrder, action: "refund") { connection in
                let order = try await Self.find(connection, orderID, addresses: database.orderAddressesSource, logger: database.logger)
                let refundID: Int64?
                do {
                    refundID = try await call(connection, order)
                } catch let error as PSQLError {
                    guard let state = error.serverInfo?[.sqlState], let refusal = PostgresRefusal(rawValue: state),
                          refusal == .noSuchOrder || refusal.rawValue.hasPrefix("SHR") else { throw error }
                    throw ShopError.conflict(Self.refusedMarker)
                }
                guard let refundID else { throw ShopError.storage("the server gave no refund back") }
                let after = try await Self.find(connection, orderID, addresses: database.orderAddressesSource, logger: database.logger)
                guard let refund = after.refunds.first(where: { $0.id == refundID }) else {
                    throw ShopError.storage("the server's refund \(refundID) is not on order \(orderID)")
                }
                return refund
            }
        } catch {
            guard case .conflict(let text) = error, text == Self.refusedMarker else { throw error }
            try reword(try await order(orderID))
            throw ShopError.conflict("order \(orderID) changed meanwhile; look at it again")
        }
    }

    /// What a refusal of the refund functions is carried out of the transaction as (never shown).
    private static let refusedMarker = "shopsh_return_units or shopsh_refund refused"

    /// Refunds by day, status, product, category or customer come from their day summaries
    /// (PostgresRefundSummarySchema) unless the filter names a customer or a place; by coupon, or
    /// for one customer, from the refunds with their orders.
    func refundStats(_ query: OrderStatsQuery) async throws -> [OrderStatsRow] {
        try query.filter.check()
        if !query.filter.picksByOrder, let summary = Self.summary(query.grouping.stored, of: .refunds) {
            return try await database.read("counting refunds") { connection in
                var rows: [OrderStatsRow] = []
                for try await row in try await connection.query(Self.daysQuery(summary, query, of: .refunds, countsCancelled: true, tail: ""),
                                                                logger: database.logger)
                    .decode((String?, Int64?, String?, String, Int64, Int64, Int).self) {
                    let currency = Currency(code: row.3, minorUnitDigits: row.6)
                    rows.append(.refunds(group: row.0, id: row.1, title: row.2, amount: Money(minorUnits: row.4, currency: currency), units: row.5))
                }
                return rows
            }
        }
        let shape = RefundStatsShape.of(query.grouping.stored, day: "to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
                                        noID: "NULL::bigint", noTitle: "NULL::text")
        return try await database.read("counting refunds") { connection in
            let parts = try await FilterParts(connection, query.filter, database: database)
            let statement: PostgresQuery = """
                SELECT \(unescaped: shape.labels), o.currency, COALESCE(max(c.minor_units), 2)::integer,
                       sum(r.amount_minor)::bigint, sum(r.quantity)::bigint
                \(unescaped: RefundStatsShape.from)
                WHERE (\(parts.userID)::bigint IS NULL OR o.user_id = \(parts.userID))
                  AND (\(parts.customer)::text IS NULL OR lower(o.customer) = lower(\(parts.customer)))
                  AND (\(parts.status)::text IS NULL OR o.status = \(parts.status))
                  AND r.created_at >= COALESCE(\(parts.since)::timestamptz, '-infinity')
                  AND r.created_at < COALESCE(\(parts.before)::timestamptz, 'infinity')
                  AND (\(parts.country)::text IS NULL
                       OR o.id IN (SELECT order_id FROM \(unescaped: parts.addresses) WHERE country = \(parts.country)))
                  AND (\(parts.city)::text IS NULL
                       OR o.id IN (SELECT order_id FROM \(unescaped: parts.addresses) WHERE lower(city) = lower(\(parts.city))))
                  AND (NOT \(shape.returnsOnly) OR r.line_number IS NOT NULL)
                GROUP BY \(unescaped: shape.group), o.currency
                """
            var rows: [OrderStatsRow] = []
            for try await row in try await connection.query(statement, logger: database.logger)
                .decode((String?, Int64?, String?, String, Int, Int64, Int64).self) {
                let currency = Currency(code: row.3, minorUnitDigits: row.4)
                rows.append(.refunds(group: row.0, id: row.1, title: row.2, amount: Money(minorUnits: row.5, currency: currency), units: row.6))
            }
            return rows
        }
    }

    /// Days and statuses come from `sales_days`, products, customers and categories from their
    /// day summaries (PostgresSalesSummarySchema, PostgresCategorySummarySchema), unless the filter
    /// names a customer or a place; coupons read the orders.
    func orderStats(_ query: OrderStatsQuery) async throws -> [OrderStatsRow] {
        try query.filter.check()
        let grouping = query.grouping.stored
        let summary = query.filter.picksByOrder ? nil : Self.summary(grouping, of: .sales)
        // Columns 6 and 8 are the units and the net; a period's top N is ShopCore's to cut.
        let rank = query.rank == .items ? "6" : "8"
        let tail = grouping == .day || query.top == nil ? "" : "ORDER BY \(rank) DESC, 1 LIMIT \(max(0, query.top ?? 0))"
        return try await database.read("counting orders") { connection in
            let statement = if let summary { Self.daysQuery(summary, query, of: .sales, countsCancelled: query.countsCancelled, tail: tail) } else {
                try await FilterParts(connection, query.filter, database: database)
                    .statsQuery(Self.ordersShape(grouping), countsCancelled: query.countsCancelled, tail: tail)
            }
            var stats: [OrderStatsRow] = []
            for try await row in try await connection.query(statement, logger: database.logger)
                .decode((String?, Int64?, String?, String, Int64, Int64, Int64, Int64, Int).self) {
                let currency = Currency(code: row.3, minorUnitDigits: row.8)
                stats.append(OrderStatsRow(group: row.0, id: row.1, title: row.2, orders: row.4, items: row.5,
                                           gross: Money(minorUnits: row.6, currency: currency),
                                           net: Money(minorUnits: row.7, currency: currency)))
            }
            return stats
        }
    }

    /// `grouping` over the server's day summaries of `kind` (`OrderStatsShape.summary`), if they keep it.
    static func summary(_ grouping: OrderStatsGrouping, of kind: DaySummaries) -> OrderStatsShape? {
        OrderStatsShape.summary(grouping, of: kind, day: "to_char(s.day, 'YYYY-MM-DD')", noID: "NULL::bigint", noTitle: "NULL::text",
                                sum: { "sum(\($0))::bigint" })
    }

    /// A grouping a summary of `kind` keeps, for the query's days and status (cancelled orders'
    /// rows only when `countsCancelled`).
    static func daysQuery(_ shape: OrderStatsShape, _ query: OrderStatsQuery, of kind: DaySummaries, countsCancelled: Bool,
                          tail: String) -> PostgresQuery {
        let status = query.filter.status?.rawValue, since = query.filter.since, until = query.filter.until
        return """
            SELECT g.*, COALESCE(c.minor_units, 2)::integer FROM (
                SELECT \(unescaped: shape.labels), \(unescaped: shape.sums)
                FROM \(unescaped: shape.from)
                WHERE s.\(unescaped: kind.count) > 0 AND (\(countsCancelled) OR s.status <> 'cancelled')
                  AND (\(status)::text IS NULL OR s.status = \(status))
                  AND s.day >= COALESCE(\(since)::date, '-infinity')
                  AND s.day <= COALESCE(\(until)::date, 'infinity')
                GROUP BY \(unescaped: shape.group) \(unescaped: tail)) g
            LEFT JOIN currencies c ON c.code = g.currency
            """
    }

    /// Any grouping from the orders (days and statuses of one customer), or their lines.
    static func ordersShape(_ grouping: OrderStatsGrouping) -> OrderStatsShape {
        switch grouping {
        case .customer:
            return OrderStatsShape(labels: "max(o.customer), o.user_id, NULL::text, o.currency", sums: orderSums, from: "orders o",
                                   group: "o.user_id, CASE WHEN o.user_id IS NULL THEN o.customer END, 4")
        case .category:
            return OrderStatsShape(labels: "p.category, NULL::bigint, NULL::text, o.currency", sums: lineSums, from: linesFrom, group: "1, 4")
        case .product:
            return OrderStatsShape(labels: "COALESCE(p.sku, max(l.sku)), l.product_id, COALESCE(p.title, max(l.title)), o.currency",
                                   sums: lineSums, from: linesFrom,
                                   group: "l.product_id, p.id, CASE WHEN l.product_id IS NULL THEN l.sku END, 4")
        case .status:
            return OrderStatsShape(labels: "o.status, NULL::bigint, NULL::text, o.currency", sums: orderSums, from: "orders o", group: "1, 4")
        case .coupon:
            return OrderStatsShape(labels: "k.code, NULL::bigint, NULL::text, o.currency", sums: orderSums,
                                   from: RefundStatsShape.ordersWithCoupons, group: "1, 4")
        case .day, .week, .month:
            return OrderStatsShape(labels: "to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), NULL::bigint, NULL::text, o.currency",
                                   sums: orderSums, from: "orders o", group: "1, 4")
        }
    }

    /// An order-level group's figures: orders, units, gross, net.
    static let orderSums = "count(*), sum(o.items)::bigint, sum(o.total_minor)::bigint, sum(o.discounted_total_minor)::bigint"
    /// A line-level group's figures: the orders holding such lines, units, gross, and net with each
    /// line's discount rounded once, half away from zero, as checkout rounds it, less its part of
    /// the order's coupon (what was paid: LineTotalSQL.orderLinePaid).
    static let lineSums = """
        count(DISTINCT l.order_id), sum(l.quantity)::bigint, sum(l.unit_price_minor * l.quantity)::bigint,
        sum(\(LineTotalSQL.orderLinePaid("l")))::bigint
        """
    static let linesFrom = "order_lines l JOIN orders o ON o.id = l.order_id LEFT JOIN products p ON p.id = l.product_id"

    // MARK: - Shared SQL (checkout reads its new order back through this)

    /// The order `id` with its lines.
    static func find(_ connection: PostgresConnection, _ id: Int64, addresses: String, logger: Logger) async throws -> Order {
        var found: Order?
        for try await row in try await connection.query(
            "SELECT \(unescaped: columns)\(unescaped: from(addresses)) WHERE o.id = \(id)", logger: logger
        ).decode(OrderRow.self) {
            found = try order(row)
        }
        guard var order = found else { throw ShopError.notFound("no order \(id)") }
        let currency = order.total.currency
        for try await line in try await connection.query("""
            SELECT product_id, sku, title, unit_price_minor, discount_hundredths, quantity, returned, coupon_minor
            FROM order_lines WHERE order_id = \(id) ORDER BY line_number
            """, logger: logger).decode((Int64?, String, String, Int64, Int, Int, Int, Int64).self) {
            order.lines.append(OrderLine(productID: line.0, sku: line.1, title: line.2,
                                         unitPrice: Money(minorUnits: line.3, currency: currency),
                                         discount: Percentage(hundredths: line.4), quantity: line.5, returned: line.6,
                                         couponShare: line.7))
        }
        for try await row in try await connection.query("""
            SELECT id, line_number, product_id, sku, quantity, restocked, amount_minor, reason, operator,
                   floor(extract(epoch FROM created_at))::bigint
            FROM order_refunds WHERE order_id = \(id) ORDER BY id
            """, logger: logger).decode((Int64, Int?, Int64?, String?, Int, Bool, Int64, String, String, Int64).self) {
            order.refunds.append(OrderRefund(id: row.0, orderID: id, lineNumber: row.1, productID: row.2, sku: row.3,
                                             quantity: row.4, restocked: row.5, amount: Money(minorUnits: row.6, currency: currency),
                                             reason: row.7, operatorName: row.8, createdAt: ShopClock.timestamp(row.9)))
        }
        return order
    }

    /// An order (without lines) from a row of `columns`.
    static func order(_ row: OrderRow) throws -> Order {
        guard let status = OrderStatus(rawValue: row.2) else {
            throw ShopError.storage("order \(row.0) has an unknown status \"\(row.2)\"")
        }
        let currency = Currency(code: row.3, minorUnitDigits: row.4)
        return Order(id: row.0, userID: row.1, customer: row.9, status: status,
                     total: Money(minorUnits: row.5, currency: currency),
                     discountedTotal: Money(minorUnits: row.6, currency: currency),
                     refunded: Money(minorUnits: row.10, currency: currency),
                     createdAt: ShopClock.timestamp(row.7), updatedAt: ShopClock.timestamp(row.8),
                     shipTo: row.12.map { line1 in
                         PostalAddress(name: row.11 ?? "", line1: line1, line2: row.13 ?? "", city: row.14 ?? "", state: row.15 ?? "",
                                       postalCode: row.16 ?? "", country: row.17 ?? "", phone: row.18)
                     },
                     coupon: row.19.map { OrderCoupon(code: $0, discount: Money(minorUnits: row.20 ?? 0, currency: currency)) })
    }

    /// A filter's values, each nil when the filter does not use it (the SQL tests `IS NULL`).
    /// `user` is an id, username or email; an order of a deleted user is still found by the
    /// username it was placed under. Days are UTC: `until` is the start of the day after it.
    struct FilterParts {
        var userID: Int64?
        var customer: String?
        var status: String?
        var since: String?
        var before: String?
        var country: String?
        var city: String?
        /// Where the orders' addresses are read (constant SQL).
        var addresses: String

        init(_ connection: PostgresConnection, _ filter: OrderFilter, database: PostgresDatabase) async throws {
            let usersSource = database.usersSource, logger = database.logger
            addresses = database.orderAddressesSource
            country = filter.country
            city = filter.city?.trimmingASCIISpaces
            if let reference = filter.user {
                do {
                    userID = try await PostgresUserLookup.find(connection, reference, source: usersSource, logger: logger).id
                } catch let error as ShopError {
                    let trimmed = reference.trimmingASCIISpaces
                    var placed = false
                    for try await _ in try await connection.query(
                        "SELECT 1 FROM orders WHERE lower(customer) = lower(\(trimmed)) LIMIT 1", logger: logger
                    ) {
                        placed = true
                    }
                    guard placed else { throw error }
                    customer = trimmed
                }
            }
            status = filter.status?.rawValue
            since = try filter.since.map { text throws(ShopError) in
                let day = try CalendarDay.validate(text, for: "the first day")
                return "\(day)T00:00:00Z"
            }
            before = try filter.until.map { text throws(ShopError) in
                let day = try CalendarDay.validate(text, for: "the last day")
                guard let next = CalendarDay(dayNumber: day.dayNumber + 1) else {
                    throw .invalidInput("the last day \(day) is too late")
                }
                return "\(next)T00:00:00Z"
            }
        }

        /// A report's groups: `SELECT labels, sums FROM from WHERE` this filter (and no cancelled
        /// orders unless `countsCancelled`) `GROUP BY group tail`, each group with its currency's
        /// minor unit. The shape and the tail are constant SQL; the filter's values are bound.
        func statsQuery(_ shape: OrderStatsShape, countsCancelled: Bool, tail: String) -> PostgresQuery {
            """
            SELECT g.*, COALESCE(c.minor_units, 2)::integer FROM (
                SELECT \(unescaped: shape.labels), \(unescaped: shape.sums) FROM \(unescaped: shape.from)
                WHERE (\(userID)::bigint IS NULL OR o.user_id = \(userID))
                  AND (\(customer)::text IS NULL OR lower(o.customer) = lower(\(customer)))
                  AND (\(status)::text IS NULL OR o.status = \(status))
                  AND o.created_at >= COALESCE(\(since)::timestamptz, '-infinity')
                  AND o.created_at < COALESCE(\(before)::timestamptz, 'infinity')
                  AND (\(country)::text IS NULL OR o.id IN (SELECT order_id FROM \(unescaped: addresses) WHERE country = \(country)))
                  AND (\(city)::text IS NULL OR o.id IN (SELECT order_id FROM \(unescaped: addresses) WHERE lower(city) = lower(\(city))))
                  AND (\(countsCancelled) OR o.status <> 'cancelled')
                GROUP BY \(unescaped: shape.group) \(unescaped: tail)) g
            LEFT JOIN currencies c ON c.code = g.currency
            """
        }

        /// `SELECT select FROM orders … WHERE` this filter `tail LIMIT … OFFSET …`, with the
        /// filter's values, the limit and the offset bound; `select` and `tail` are constant SQL.
        func query(select: String, tail: String, limit: Int? = nil, offset: Int = 0) -> PostgresQuery {
            """
            SELECT \(unescaped: select)\(unescaped: PostgresOrderService.from(addresses))
            WHERE (\(userID)::bigint IS NULL OR o.user_id = \(userID))
              AND (\(customer)::text IS NULL OR lower(o.customer) = lower(\(customer)))
              AND (\(status)::text IS NULL OR o.status = \(status))
              AND o.created_at >= COALESCE(\(since)::timestamptz, '-infinity')
              AND o.created_at < COALESCE(\(before)::timestamptz, 'infinity')
              AND (\(country)::text IS NULL OR a.country = \(country))
              AND (\(city)::text IS NULL OR lower(a.city) = lower(\(city)))
            \(unescaped: tail)
            LIMIT \(limit) OFFSET \(offset)
            """
        }
    }
}
