// SQLiteOrderService: OrderService on SQLite. Orders are made by checkout (SQLiteBasketService);
// here they are listed, shown, moved through their statuses (cancelling restocks) and counted.

import GRDB
import ShopCore
import ShopStoreKit

/// `OrderService` on a SQLite store.
struct SQLiteOrderService: OrderService {
    let database: DatabaseQueue
    let clock: ShopClock

    /// The order columns every query selects, in the order `order(_:)` reads them. The currency's
    /// minor unit comes from the ISO list (2 when the store has none).
    static let columns = """
        o.id, o.user_id, o.status, o.currency, coalesce(c.minor_units, 2), o.total_minor, o.discounted_total_minor,
        o.created_at, o.updated_at, o.customer, o.refunded_minor,
        a.name, a.line1, a.line2, a.city, a.state, a.postal_code, a.country, a.phone,
        (SELECT k.code FROM coupons k WHERE k.id = u.coupon_id), u.discount_minor
        """
    static let from = " FROM orders o LEFT JOIN currencies c ON c.code = o.currency LEFT JOIN order_addresses a ON a.order_id = o.id"
        + " LEFT JOIN coupon_uses u ON u.order_id = o.id"

    /// Output field name → SQL expression, for `--sort`.
    static let sortColumns: [String: String] = [
        "id": "o.id", "user_id": "o.user_id", "customer": "o.customer COLLATE NOCASE", "status": statusRank,
        "currency": "o.currency",
        "total": "o.total_minor", "discounted_total": "o.discounted_total_minor", "refunded": "o.refunded_minor",
        "created_at": "o.created_at", "updated_at": "o.updated_at",
    ]

    /// Statuses in the order of an order's life, for sorting and grouping.
    static let statusRank = OrderStatusSQL.rank("o.status")

    // MARK: - Reading

    func listOrders(_ filter: OrderFilter, page: Page, _ body: (Order) throws -> Void) async throws {
        try filter.check()
        // Newest first unless a sort is asked for.
        let paging = try SQLPaging.clause(page, sortColumns: Self.sortColumns,
                                          tieBreaker: page.sort.isEmpty ? "o.id DESC" : "o.id")
        try database.shopRead { db in
            let (where_, arguments) = try Self.whereClause(db, filter)
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(Self.columns)" + Self.from + where_ + paging,
                                             arguments: arguments)
            while let row = try cursor.next() {
                try body(try Self.order(row))
            }
        }
    }

    func order(_ id: Int64) async throws -> Order {
        try database.shopRead { db in try Self.find(db, id) }
    }

    func setOrderStatus(_ id: Int64, _ status: OrderStatus) async throws -> Order {
        let now = clock.timestamp()
        return try database.shopWrite { db in
            let order = try Self.find(db, id)
            try order.status.checkMove(to: status, order: id)
            if status == .cancelled {
                try RefundRules.checkCancel(order)
                try ShipmentRules.checkCancel(order, shipments: try SQLiteShipmentService.all(db, id))
                // Put the goods back on the shelf (returned units went back, or not, with their
                // return); lines whose product was deleted have nowhere to go.
                try SQLiteStockContext.with(.cancel, order: id, at: now, in: db) {
                    for line in order.lines where line.quantity > line.returned {
                        guard let productID = line.productID else { continue }
                        try db.execute(sql: """
                            UPDATE products SET stock = stock + ?, updated_at = ? WHERE id = ?
                            """, arguments: [line.quantity - line.returned, now, productID])
                    }
                }
            }
            try db.execute(sql: """
                UPDATE orders SET status = ?, updated_at = ? WHERE id = ?
                """, arguments: [status.rawValue, now, id])
            try SQLiteAuditLog.record(.orderStatus(id: id, before: order.status, after: status), in: db, at: now)
            return try Self.find(db, id)
        }
    }

    func returnUnits(_ request: ReturnRequest) async throws -> OrderRefund {
        let reason = try RefundRules.checkReason(request.reason)
        let now = clock.timestamp()
        return try database.shopWrite { db in
            let order = try Self.find(db, request.orderID)
            let (lineNumber, amount) = try RefundRules.plan(request, order: order)
            let line = order.lines[lineNumber - 1]
            try db.execute(sql: "UPDATE order_lines SET returned = returned + ? WHERE order_id = ? AND line_number = ?",
                           arguments: [request.quantity, order.id, lineNumber])
            let restocked = request.restock && line.productID != nil
            if restocked, let productID = line.productID {
                try RefundRules.checkRestock(request.quantity, productID: productID,
                                              stock: try Int64.fetchOne(db, sql: "SELECT stock FROM products WHERE id = ?", arguments: [productID]))
                try SQLiteStockContext.with(.return, order: order.id, note: reason, at: now, in: db) {
                    try db.execute(sql: "UPDATE products SET stock = stock + ?, updated_at = ? WHERE id = ?",
                                   arguments: [request.quantity, now, productID])
                }
            }
            let refund = OrderRefund(id: 0, orderID: order.id, lineNumber: lineNumber, productID: line.productID, sku: line.sku,
                                     quantity: request.quantity, restocked: restocked, amount: amount, reason: reason,
                                     operatorName: Self.operatorName, createdAt: now)
            return try Self.record(refund, order: order, in: db, at: now)
        }
    }

    func refund(_ orderID: Int64, amount: Money, reason: String) async throws -> OrderRefund {
        let reason = try RefundRules.checkReason(reason)
        let now = clock.timestamp()
        return try database.shopWrite { db in
            let order = try Self.find(db, orderID)
            try RefundRules.checkAmount(amount, order: order)
            let refund = OrderRefund(id: 0, orderID: order.id, lineNumber: nil, productID: nil, sku: nil, quantity: 0,
                                     restocked: false, amount: amount, reason: reason, operatorName: Self.operatorName, createdAt: now)
            return try Self.record(refund, order: order, in: db, at: now)
        }
    }

    /// Who gives a refund: the operator the audit log names.
    static var operatorName: String { AuditContext.current?.operatorIdentity.name ?? OperatorLogin.current }

    /// Writes `refund` of `order` (as it was before it), adds it to the order's refunded sum
    /// (the order becomes `refunded` when that is everything), and records it in the audit log.
    static func record(_ refund: OrderRefund, order: Order, in db: Database, at now: String) throws -> OrderRefund {
        try db.execute(sql: """
            INSERT INTO order_refunds (order_id, line_number, product_id, sku, quantity, restocked, amount_minor, reason, operator, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [refund.orderID, refund.lineNumber, refund.productID, refund.sku, refund.quantity, refund.restocked,
                             refund.amount.minorUnits, refund.reason, refund.operatorName, refund.createdAt])
        var recorded = refund
        recorded.id = db.lastInsertedRowID
        try db.execute(sql: """
            UPDATE orders SET refunded_minor = refunded_minor + ?, updated_at = ?,
                status = CASE WHEN \(RefundSQL.fullyRefunded(refunded: "refunded_minor + ?", paid: "discounted_total_minor"))
                              THEN 'refunded' ELSE status END
            WHERE id = ?
            """, arguments: [refund.amount.minorUnits, now, refund.amount.minorUnits, order.id])
        let status = try String.fetchOne(db, sql: "SELECT status FROM orders WHERE id = ?", arguments: [order.id])
            .flatMap(OrderStatus.init(rawValue:)) ?? order.status
        try SQLiteAuditLog.record(.refund(recorded, order: order, status: status), in: db, at: now)
        return recorded
    }

    /// Days and statuses come from `sales_days`, products, customers and categories from their
    /// day summaries (SalesSummarySchema, CategorySummarySchema), unless the filter names a
    /// customer or a place; coupons read the orders.
    func orderStats(_ query: OrderStatsQuery) async throws -> [OrderStatsRow] {
        try query.filter.check()
        let grouping = query.grouping.stored
        let summary = query.filter.picksByOrder ? nil : OrderStatsShape.summary(grouping, day: "s.day")
        let fromDays = summary != nil
        let shape = summary ?? Self.ordersShape(grouping)
        // Columns 6 and 8 are the units and the net; a period's top N is ShopCore's to cut.
        let rank = query.rank == .items ? "6" : "8"
        let tail = grouping == .day || query.top == nil ? "" : " ORDER BY \(rank) DESC, 1 LIMIT \(max(0, query.top ?? 0))"
        return try database.shopRead { db in
            let (where_, arguments) = fromDays ? Self.daysWhere(query, alias: "s", countsCancelled: query.countsCancelled) : try Self.ordersWhere(db, query)
            // The currency's minor unit is looked up once per group, not per order.
            let sql = """
                SELECT g.*, coalesce(c.minor_units, 2) FROM (
                    SELECT \(shape.labels), \(shape.sums) FROM \(shape.from)\(where_) GROUP BY \(shape.group)\(tail)) g
                LEFT JOIN currencies c ON c.code = g.currency
                """
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let currency = Currency(code: row[3], minorUnitDigits: row[8])
                return OrderStatsRow(group: row[0], id: row[1], title: row[2], orders: row[4], items: row[5],
                                     gross: Money(minorUnits: row[6], currency: currency),
                                     net: Money(minorUnits: row[7], currency: currency))
            }
        }
    }

    /// Refunds by day, status, product, category or customer come from their day summaries
    /// (RefundSummarySchema) unless the filter names a customer or a place; by coupon, or for one
    /// customer, from the refunds with their orders.
    func refundStats(_ query: OrderStatsQuery) async throws -> [OrderStatsRow] {
        try query.filter.check()
        if !query.filter.picksByOrder, let summary = OrderStatsShape.summary(query.grouping.stored, of: .refunds, day: "s.day") {
            return try database.shopRead { db in
                let (where_, arguments) = Self.daysWhere(query, alias: "s", of: .refunds, countsCancelled: true)
                let sql = """
                    SELECT g.*, coalesce(c.minor_units, 2) FROM (
                        SELECT \(summary.labels), \(summary.sums) FROM \(summary.from)\(where_) GROUP BY \(summary.group)) g
                    LEFT JOIN currencies c ON c.code = g.currency
                    """
                return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                    let currency = Currency(code: row[3], minorUnitDigits: row[6])
                    return OrderStatsRow.refunds(group: row[0], id: row[1], title: row[2],
                                                 amount: Money(minorUnits: row[4], currency: currency), units: row[5])
                }
            }
        }
        let shape = RefundStatsShape.of(query.grouping.stored, day: "substr(r.created_at, 1, 10)")
        return try database.shopRead { db in
            var conditions: [String] = shape.returnsOnly ? ["r.line_number IS NOT NULL"] : []
            var arguments: [any DatabaseValueConvertible] = []
            var userArguments = StatementArguments()
            // The orders' own filters (their customer, where they go); the days are the refunds'.
            let filter = query.filter
            if filter.picksByOrder {
                let (clause, values) = try Self.whereClause(db, OrderFilter(user: filter.user, country: filter.country, city: filter.city))
                conditions.append(String(clause.dropFirst(" WHERE ".count)))
                userArguments = values
            }
            SQLConditions.add("o.status = ?", query.filter.status.map { $0.rawValue }, to: &conditions, &arguments)
            SQLConditions.add("r.created_at >= ?", query.filter.since, to: &conditions, &arguments)
            SQLConditions.add("r.created_at < date(?, '+1 day')", query.filter.until, to: &conditions, &arguments)
            let sql = """
                SELECT \(shape.labels), o.currency, coalesce(max(c.minor_units), 2), sum(r.amount_minor), sum(r.quantity)
                \(RefundStatsShape.from)
                \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
                GROUP BY \(shape.group), o.currency
                """
            return try Row.fetchAll(db, sql: sql, arguments: userArguments + StatementArguments(arguments)).map { row in
                let currency = Currency(code: row[3], minorUnitDigits: row[4])
                return OrderStatsRow.refunds(group: row[0], id: row[1], title: row[2],
                                             amount: Money(minorUnits: row[5], currency: currency), units: row[6])
            }
        }
    }

    /// Any grouping from the orders (days and statuses of one customer), or their lines.
    static func ordersShape(_ grouping: OrderStatsGrouping) -> OrderStatsShape {
        switch grouping {
        case .customer:
            return OrderStatsShape(labels: "max(o.customer), o.user_id, NULL, o.currency", sums: orderSums, from: "orders o",
                                   group: "o.user_id, CASE WHEN o.user_id IS NULL THEN o.customer END, o.currency")
        case .category:
            return OrderStatsShape(labels: "p.category, NULL, NULL, o.currency", sums: lineSums, from: linesFrom,
                                   group: "p.category, o.currency")
        case .product:
            return OrderStatsShape(labels: "coalesce(p.sku, max(l.sku)), l.product_id, coalesce(p.title, max(l.title)), o.currency",
                                   sums: lineSums, from: linesFrom,
                                   group: "l.product_id, CASE WHEN l.product_id IS NULL THEN l.sku END, o.currency")
        case .status:
            return OrderStatsShape(labels: "o.status, NULL, NULL, o.currency", sums: orderSums, from: "orders o", group: "o.status, o.currency")
        case .coupon:
            return OrderStatsShape(labels: "k.code, NULL, NULL, o.currency", sums: orderSums, from: RefundStatsShape.ordersWithCoupons,
                                   group: "k.code, o.currency")
        case .day, .week, .month:
            let day = "substr(o.created_at, 1, 10)"
            return OrderStatsShape(labels: "\(day), NULL, NULL, o.currency", sums: orderSums, from: "orders o", group: "\(day), o.currency")
        }
    }

    /// ` WHERE …` over a day summary of `kind` (aliased `alias`) for the query's days and status,
    /// without cancelled orders unless `countsCancelled`.
    static func daysWhere(_ query: OrderStatsQuery, alias: String, of kind: DaySummaries = .sales,
                          countsCancelled: Bool) -> (String, StatementArguments) {
        let s = alias + "."
        var conditions = ["\(s)\(kind.count) > 0"]
        var arguments: [(any DatabaseValueConvertible)?] = []
        if !countsCancelled { conditions.append("\(s)status <> 'cancelled'") }
        if let status = query.filter.status { conditions.append("\(s)status = ?"); arguments.append(status.rawValue) }
        if let since = query.filter.since { conditions.append("\(s)day >= ?"); arguments.append(since) }
        if let until = query.filter.until { conditions.append("\(s)day <= ?"); arguments.append(until) }
        return (" WHERE " + conditions.joined(separator: " AND "), StatementArguments(arguments))
    }

    /// ` WHERE …` over the orders (`o`) for the query's filter, without cancelled orders unless they count.
    static func ordersWhere(_ db: Database, _ query: OrderStatsQuery) throws -> (String, StatementArguments) {
        var (where_, arguments) = try whereClause(db, query.filter)
        if !query.countsCancelled { where_ += (where_.isEmpty ? " WHERE " : " AND ") + "o.status <> 'cancelled'" }
        return (where_, arguments)
    }

    /// An order-level group's figures: orders, units, gross, net.
    static let orderSums = "count(*), sum(o.items), sum(o.total_minor), sum(o.discounted_total_minor)"
    /// A line-level group's figures: the orders holding such lines, units, gross, and net with each
    /// line's discount rounded once, half away from zero, as checkout rounds it (Money.discounted).
    static let lineSums = """
        count(DISTINCT l.order_id), sum(l.quantity), sum(l.unit_price_minor * l.quantity),
        sum(\(LineTotalSQL.orderLinePaid("l")))
        """
    /// The orders first (`CROSS JOIN` fixes SQLite's join order): a window of days is a range of
    /// `orders_by_created`, then each order's lines by its key. Left to itself the planner walked
    /// every line in product order to spare a sort: 25 s instead of 1.4 s for 30 days of 5M orders.
    static let linesFrom = "orders o CROSS JOIN order_lines l ON l.order_id = o.id LEFT JOIN products p ON p.id = l.product_id"

    // MARK: - Shared SQL (checkout reads its new order back through this)

    /// The order `id` with its lines.
    static func find(_ db: Database, _ id: Int64) throws -> Order {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(columns)" + from + " WHERE o.id = ?", arguments: [id]) else {
            throw ShopError.notFound("no order \(id)")
        }
        var order = try order(row)
        order.lines = try Row.fetchAll(db, sql: """
            SELECT product_id, sku, title, unit_price_minor, discount_hundredths, quantity, returned, coupon_minor
            FROM order_lines WHERE order_id = ? ORDER BY line_number
            """, arguments: [id]).map { line in
            OrderLine(productID: line[0], sku: line[1], title: line[2],
                      unitPrice: Money(minorUnits: line[3], currency: order.total.currency),
                      discount: Percentage(hundredths: line[4]), quantity: line[5], returned: line[6], couponShare: line[7])
        }
        order.refunds = try Row.fetchAll(db, sql: """
            SELECT id, line_number, product_id, sku, quantity, restocked, amount_minor, reason, operator, created_at
            FROM order_refunds WHERE order_id = ? ORDER BY id
            """, arguments: [id]).map { row in
            OrderRefund(id: row[0], orderID: id, lineNumber: row[1], productID: row[2], sku: row[3], quantity: row[4],
                        restocked: row[5], amount: Money(minorUnits: row[6], currency: order.total.currency),
                        reason: row[7], operatorName: row[8], createdAt: row[9])
        }
        return order
    }

    /// An order (without lines) from a row of `columns`.
    static func order(_ row: Row) throws -> Order {
        let statusText: String = row[2]
        guard let status = OrderStatus(rawValue: statusText) else {
            throw ShopError.storage("order \(row[0] as Int64) has an unknown status \"\(statusText)\"")
        }
        let currency = Currency(code: row[3], minorUnitDigits: row[4])
        return Order(id: row[0], userID: row[1], customer: row[9], status: status,
                     total: Money(minorUnits: row[5], currency: currency),
                     discountedTotal: Money(minorUnits: row[6], currency: currency),
                     refunded: Money(minorUnits: row[10], currency: currency),
                     createdAt: row[7], updatedAt: row[8], shipTo: shipTo(row, from: 11),
                     coupon: (row[19] as String?).map { OrderCoupon(code: $0, discount: Money(minorUnits: row[20], currency: currency)) })
    }

    /// The address of columns `first`… (name, line1, line2, city, state, postal_code, country,
    /// phone), nil when there is none (a LEFT JOIN that found nothing).
    static func shipTo(_ row: Row, from first: Int) -> PostalAddress? {
        guard let line1: String = row[first + 1] else { return nil }
        return PostalAddress(name: row[first] ?? "", line1: line1, line2: row[first + 2] ?? "", city: row[first + 3] ?? "",
                             state: row[first + 4] ?? "", postalCode: row[first + 5] ?? "", country: row[first + 6] ?? "",
                             phone: row[first + 7])
    }

    /// ` WHERE …` for `filter`. `user` is an id, username or email; an order of a deleted user is
    /// still found by the username it was placed under.
    static func whereClause(_ db: Database, _ filter: OrderFilter) throws -> (String, StatementArguments) {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        if let reference = filter.user {
            do {
                let user = try SQLiteUserLookup.find(db, reference)
                conditions.append("o.user_id = ?")
                arguments.append(user.id)
            } catch let error as ShopError {
                let trimmed = reference.trimmingASCIISpaces
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM orders WHERE customer = ? COLLATE NOCASE)",
                                        arguments: [trimmed]) == true else { throw error }
                conditions.append("o.customer = ? COLLATE NOCASE")
                arguments.append(trimmed)
            }
        }
        SQLConditions.add("o.status = ?", filter.status.map { $0.rawValue }, to: &conditions, &arguments)
        SQLConditions.add("o.created_at >= ?", filter.since, to: &conditions, &arguments)
        SQLConditions.add("o.created_at < date(?, '+1 day')", filter.until, to: &conditions, &arguments)
        SQLConditions.add("o.id IN (SELECT order_id FROM order_addresses WHERE country = ?)", filter.country, to: &conditions, &arguments)
        SQLConditions.add("o.id IN (SELECT order_id FROM order_addresses WHERE city = ? COLLATE NOCASE)",
                          filter.city?.trimmingASCIISpaces, to: &conditions, &arguments)
        let sql = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return (sql, StatementArguments(arguments))
    }
}
