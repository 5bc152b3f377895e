// PostgresOrderService: orders on PostgreSQL. Orders are made by checkout (PostgresBasketService);
// here they are listed (streamed row by row), shown, moved through their statuses (by the server's
// shopsh_set_order_status: cancelling restocks, under the order's lock, once) and counted.

import Logging
import PostgresNIO
import ShopCore

/// `OrderService` on a PostgreSQL server.
struct PostgresOrderService: OrderService {
    let database: PostgresDatabase

    /// The order columns every query selects, in `OrderRow`'s order. The currency's minor unit
    /// comes from the ISO list (2 when the store has none); times are whole seconds since 1970.
    static let columns = """
        o.id, o.user_id, o.status, o.currency, COALESCE(c.minor_units, 2)::integer, o.total_minor,
        o.discounted_total_minor, floor(extract(epoch FROM o.created_at))::bigint,
        floor(extract(epoch FROM o.updated_at))::bigint, o.customer
        """
    static let from = " FROM orders o LEFT JOIN currencies c ON c.code = o.currency"

    /// An order (without lines) as `columns` decode.
    typealias OrderRow = (Int64, Int64?, String, String, Int, Int64, Int64, Int64, Int64, String)

    /// Statuses in the order of an order's life, for sorting and grouping.
    static let statusRank = """
        CASE o.status WHEN 'placed' THEN 1 WHEN 'paid' THEN 2 WHEN 'shipped' THEN 3 WHEN 'delivered' THEN 4 ELSE 5 END
        """

    /// Output field name → SQL expression, for `--sort` (text as SQLite orders it: the customer
    /// without regard to case, codes by byte).
    static let sortColumns: [String: String] = [
        "id": "o.id", "user_id": "o.user_id", "customer": "lower(o.customer) COLLATE \"C\"", "status": statusRank,
        "currency": "o.currency COLLATE \"C\"",
        "total": "o.total_minor", "discounted_total": "o.discounted_total_minor",
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
            let parts = try await FilterParts(connection, filter, usersSource: database.usersSource, logger: database.logger)
            return parts.query(select: Self.columns, tail: "ORDER BY " + terms, limit: limit, offset: offset)
        }) { row in
            try body(try Self.order(try row.decode(OrderRow.self)))
        }
    }

    func order(_ id: Int64) async throws -> Order {
        try await database.read("reading an order") { connection in
            try await Self.find(connection, id, logger: database.logger)
        }
    }

    /// Checks the move with ShopCore's rule (so that a refusal says which moves are allowed), then
    /// has the server make it (`shopsh_set_order_status`: the status machine again, under the
    /// order's lock; cancelling restocks what the order took, once; one audit row).
    func setOrderStatus(_ id: Int64, _ status: OrderStatus) async throws -> Order {
        try await database.write(.setOrderStatus, action: "status") { connection in
            let logger = database.logger
            let order = try await Self.find(connection, id, logger: logger)
            try order.status.checkMove(to: status, order: id)
            do {
                _ = try await connection.query("SELECT shopsh_set_order_status(\(id), \(status.rawValue))", logger: logger).collect()
            } catch let error as PSQLError {
                switch error.serverInfo?[.sqlState] {
                case PostgresServerRules.noSuchOrder: throw ShopError.notFound("no order \(id)")
                case PostgresServerRules.notAllowedMove: throw ShopError.conflict("order \(id) changed meanwhile; look at it again")
                default: throw error
                }
            }
            return try await Self.find(connection, id, logger: logger)
        }
    }

    func orderStats(_ grouping: OrderStatsGrouping, filter: OrderFilter) async throws -> [OrderStatsRow] {
        try filter.check()
        let group: String
        let order: String
        switch grouping {
        case .day:
            group = "to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
            order = "1"
        case .status:
            group = "o.status"
            order = "min(\(Self.statusRank))"
        }
        return try await database.read("counting orders") { connection in
            let parts = try await FilterParts(connection, filter, usersSource: database.usersSource, logger: database.logger)
            // Cancelled orders are counted but bring no revenue.
            let rows = try await connection.query(parts.query(select: """
                \(group), o.currency, COALESCE(c.minor_units, 2)::integer, count(*),
                COALESCE(sum(CASE WHEN o.status = 'cancelled' THEN 0 ELSE o.discounted_total_minor END), 0)::bigint
                """, tail: "GROUP BY 1, 2, 3 ORDER BY \(order), o.currency COLLATE \"C\""), logger: database.logger)
            var stats: [OrderStatsRow] = []
            for try await row in rows.decode((String, String, Int, Int, Int64).self) {
                stats.append(OrderStatsRow(group: row.0, count: row.3,
                                           revenue: Money(minorUnits: row.4, currency: Currency(code: row.1, minorUnitDigits: row.2))))
            }
            return stats
        }
    }

    // MARK: - Shared SQL (checkout reads its new order back through this)

    /// The order `id` with its lines.
    static func find(_ connection: PostgresConnection, _ id: Int64, logger: Logger) async throws -> Order {
        var found: Order?
        for try await row in try await connection.query(
            "SELECT \(unescaped: columns)\(unescaped: from) WHERE o.id = \(id)", logger: logger
        ).decode(OrderRow.self) {
            found = try order(row)
        }
        guard var order = found else { throw ShopError.notFound("no order \(id)") }
        let currency = order.total.currency
        for try await line in try await connection.query("""
            SELECT product_id, sku, title, unit_price_minor, discount_hundredths, quantity
            FROM order_lines WHERE order_id = \(id) ORDER BY line_number
            """, logger: logger).decode((Int64?, String, String, Int64, Int, Int).self) {
            order.lines.append(OrderLine(productID: line.0, sku: line.1, title: line.2,
                                         unitPrice: Money(minorUnits: line.3, currency: currency),
                                         discount: Percentage(hundredths: line.4), quantity: line.5))
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
                     createdAt: ShopClock.timestamp(row.7), updatedAt: ShopClock.timestamp(row.8))
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

        init(_ connection: PostgresConnection, _ filter: OrderFilter, usersSource: String, logger: Logger) async throws {
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

        /// `SELECT select FROM orders … WHERE` this filter `tail LIMIT … OFFSET …`, with the
        /// filter's values, the limit and the offset bound; `select` and `tail` are constant SQL.
        func query(select: String, tail: String, limit: Int? = nil, offset: Int = 0) -> PostgresQuery {
            """
            SELECT \(unescaped: select)\(unescaped: PostgresOrderService.from)
            WHERE (\(userID)::bigint IS NULL OR o.user_id = \(userID))
              AND (\(customer)::text IS NULL OR lower(o.customer) = lower(\(customer)))
              AND (\(status)::text IS NULL OR o.status = \(status))
              AND (\(since)::timestamptz IS NULL OR o.created_at >= \(since)::timestamptz)
              AND (\(before)::timestamptz IS NULL OR o.created_at < \(before)::timestamptz)
            \(unescaped: tail)
            LIMIT \(limit) OFFSET \(offset)
            """
        }
    }
}
