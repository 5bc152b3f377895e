// AuditChange: what a store records about one change: which entity, which action, and the
// changed fields before and after. The builders here are the one place that decides what an
// audit row of each kind of change says; stores only add who, when and the command.


/// The kinds of things an audit row is about.
public enum AuditEntity: String, CaseIterable, Sendable {
    case basket, product, user, order, favourite, currency, coupon
}

/// One value of an audited field: what JSON can hold, exactly (money as text with its currency).
public enum AuditValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case text(String)
    case bool(Bool)
    case list([String])

    /// The value as a person reads it in a summary (`3`, `9.99 USD`, `red, blue`).
    public var summary: String {
        switch self {
        case .null: return "null"
        case .integer(let value): return String(value)
        case .text(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .list(let items): return "[" + items.joined(separator: ", ") + "]"
        }
    }
}

/// Named field values, in a fixed order: one side (before or after) of an audited change.
public struct AuditFields: Hashable, Sendable {
    public var fields: [(name: String, value: AuditValue)] {
        get { names.indices.map { (names[$0], values[$0]) } }
        set { names = newValue.map(\.name); values = newValue.map(\.value) }
    }
    private var names: [String]
    private var values: [AuditValue]

    public init(_ fields: [(String, AuditValue)]) {
        names = fields.map(\.0)
        values = fields.map(\.1)
    }

    /// The names, in order.
    public var fieldNames: [String] { names }

    public subscript(name: String) -> AuditValue? {
        names.firstIndex(of: name).map { values[$0] }
    }

    public var isEmpty: Bool { names.isEmpty }

    /// The fields that differ between `before` and `after` (the others are left out of both).
    public static func changes(before: AuditFields, after: AuditFields) -> (before: AuditFields, after: AuditFields) {
        var old: [(String, AuditValue)] = []
        var new: [(String, AuditValue)] = []
        for name in before.names + after.names.filter({ !before.names.contains($0) }) where before[name] != after[name] {
            old.append((name, before[name] ?? .null))
            new.append((name, after[name] ?? .null))
        }
        return (AuditFields(old), AuditFields(new))
    }
}

/// One change as a store records it (the store adds the time, the operator and the command).
public struct AuditChange: Hashable, Sendable {
    public var entity: AuditEntity
    /// The entity's id as text: a product, user or order id; for a basket or favourites, the
    /// customer's user id; for currency rates, the currency code or `rates`.
    public var entityID: String
    /// What happened: `add`, `set`, `remove`, `update`, `delete`, `checkout`, `status`, `import`, …
    public var action: String
    /// The changed fields before (nil when the entity did not exist).
    public var before: AuditFields?
    /// The changed fields after (nil when the entity no longer exists).
    public var after: AuditFields?

    public init(entity: AuditEntity, entityID: String, action: String, before: AuditFields?, after: AuditFields?) {
        self.entity = entity
        self.entityID = entityID
        self.action = action
        self.before = before
        self.after = after
    }

    /// Whether the entity is as it was (a quantity set to what it was, an update to the same
    /// values): stores record no row for it.
    public var changesNothing: Bool { before != nil && before == after }

    /// A change between two full images of an entity: only the fields that differ are kept.
    static func diff(_ entity: AuditEntity, id: String, action: String, before: AuditFields?, after: AuditFields?) -> AuditChange {
        guard let before, let after else { return AuditChange(entity: entity, entityID: id, action: action, before: before, after: after) }
        let changed = AuditFields.changes(before: before, after: after)
        return AuditChange(entity: entity, entityID: id, action: action, before: changed.before, after: changed.after)
    }

    // MARK: - The changes of each kind

    /// A basket line of customer `userID` went from `before` to `after` units of `productID`
    /// (nil: no line).
    public static func basketLine(userID: Int64, productID: Int64, action: String, before: Int?, after: Int?) -> AuditChange {
        func side(_ quantity: Int?) -> AuditFields? {
            quantity.map { AuditFields([("product", .integer(productID)), ("quantity", .integer(Int64($0)))]) }
        }
        return AuditChange(entity: .basket, entityID: String(userID), action: action, before: side(before), after: side(after))
    }

    /// Customer `userID` added (`isFavourite`) or removed `productID` from their favourites.
    public static func favourite(userID: Int64, productID: Int64, isFavourite: Bool) -> AuditChange {
        func side(_ value: Bool) -> AuditFields { AuditFields([("product", .integer(productID)), ("favourite", .bool(value))]) }
        return AuditChange(entity: .favourite, entityID: String(userID), action: isFavourite ? "add" : "remove",
                           before: side(!isFavourite), after: side(isFavourite))
    }

    /// A product added (`before` nil), changed, or deleted (`after` nil).
    public static func product(_ action: String, before: Product?, after: Product?) -> AuditChange {
        let id = (after ?? before).map { String($0.id) } ?? ""
        guard let before, let after else {
            return AuditChange(entity: .product, entityID: id, action: action, before: before.map { fields($0) },
                               after: after.map { fields($0) })
        }
        // Only a field whose values differ is written out to compare (a bulk change of 100,000
        // prices wrote every field of 200,000 products only to drop all but one).
        var old: [(String, AuditValue)] = []
        var new: [(String, AuditValue)] = []
        for field in productFields where field.differs(before, after) {
            let was = field.value(before), now = field.value(after)
            if was != now {
                old.append((field.name, was))
                new.append((field.name, now))
            }
        }
        return AuditChange(entity: .product, entityID: id, action: action, before: AuditFields(old), after: AuditFields(new))
    }

    /// A user added (`before` nil), changed, or deleted (`after` nil).
    public static func user(_ action: String, before: User?, after: User?) -> AuditChange {
        let id = (after ?? before).map { String($0.id) } ?? ""
        return diff(.user, id: id, action: action, before: before.map(fields), after: after.map(fields))
    }

    /// Customer `userID`'s address added (`before` nil), changed, made a default, or removed
    /// (`after` nil); the action is `address add`, `address update`, `address default` or
    /// `address remove`. A viewer sees it masked as `PersonalDataMask.address` masks.
    public static func address(_ action: String, userID: Int64, before: CustomerAddress?, after: CustomerAddress?) -> AuditChange {
        diff(.user, id: String(userID), action: "address " + action, before: before.map(fields), after: after.map(fields))
    }

    static func fields(_ saved: CustomerAddress) -> AuditFields {
        let address = saved.address
        return AuditFields([
            ("address", .integer(saved.id)), ("name", .text(address.name)), ("line1", .text(address.line1)), ("line2", .text(address.line2)),
            ("city", .text(address.city)), ("state", .text(address.state)), ("postal_code", .text(address.postalCode)),
            ("country", .text(address.country)), ("phone", address.phone.map(AuditValue.text) ?? .null),
            ("defaults", .list(AddressUse.allCases.filter(saved.defaults.contains).map(\.rawValue))),
        ])
    }

    /// A note added to an order or a customer (`note add`: `before` nil) or deleted (`note delete`).
    public static func note(_ note: Note, deleted: Bool) -> AuditChange {
        let (entity, id): (AuditEntity, Int64) = switch note.subject {
        case .order(let order): (.order, order)
        case .user(let user): (.user, user)
        }
        let fields = AuditFields([("note", .integer(note.id)), ("author", .text(note.author)), ("text", .text(note.text))])
        return AuditChange(entity: entity, entityID: String(id), action: deleted ? "note delete" : "note add",
                           before: deleted ? fields : nil, after: deleted ? nil : fields)
    }

    /// A review of a product hidden, shown again or deleted (`after` nil): under its product,
    /// both sides whole (which review, its rating, why it is hidden).
    public static func review(_ action: String, before: Review, after: Review?) -> AuditChange {
        func fields(_ review: Review) -> AuditFields {
            AuditFields([("review", .integer(review.id)), ("rating", .integer(Int64(review.rating))),
                         ("hidden_reason", review.hiddenReason.map { .text($0) } ?? .null)])
        }
        return AuditChange(entity: .product, entityID: String(before.productID), action: "review " + action,
                           before: fields(before), after: after.map(fields))
    }

    /// User `userID`'s password was set (`passwd`), or its hash made stronger at a successful check
    /// (`rehash`): the audit says so and never holds the password or its hash.
    public static func password(userID: Int64, action: String = "passwd") -> AuditChange {
        AuditChange(entity: .user, entityID: String(userID), action: action,
                    before: AuditFields([("password", .text("***"))]), after: AuditFields([("password", .text("*** (new)"))]))
    }

    /// Order `id`'s status changed.
    public static func orderStatus(id: Int64, before: OrderStatus, after: OrderStatus) -> AuditChange {
        AuditChange(entity: .order, entityID: String(id), action: after == .cancelled ? "cancel" : "status",
                    before: AuditFields([("status", .text(before.rawValue))]), after: AuditFields([("status", .text(after.rawValue))]))
    }

    /// Order `order` gave money back: units returned (`return`) or a goodwill refund (`refund`);
    /// `status` is the order's status after it. The PostgreSQL functions write the same fields
    /// (PostgresRefundSchema).
    public static func refund(_ refund: OrderRefund, order: Order, status: OrderStatus) -> AuditChange {
        let currency = order.total.currency
        let after = Money(minorUnits: order.refunded.minorUnits &+ refund.amount.minorUnits, currency: currency)
        var fields: [(String, AuditValue)] = [("refunded", .text(after.description)), ("status", .text(status.rawValue)),
                                              ("amount", .text(refund.amount.description))]
        if let line = refund.lineNumber {
            fields += [("line", .integer(Int64(line))), ("units", .integer(Int64(refund.quantity))), ("restocked", .bool(refund.restocked))]
        }
        fields.append(("reason", .text(refund.reason)))
        return AuditChange(entity: .order, entityID: String(order.id), action: refund.lineNumber == nil ? "refund" : "return",
                           before: AuditFields([("refunded", .text(order.refunded.description)), ("status", .text(order.status.rawValue))]),
                           after: AuditFields(fields))
    }

    /// A basket became `order` at checkout.
    public static func checkout(_ order: Order) -> AuditChange {
        var after: [(String, AuditValue)] = [("status", .text(order.status.rawValue)), ("total", .text(order.discountedTotal.description))]
        if let userID = order.userID { after.insert(("user", .integer(userID)), at: 0) }
        after.append(("lines", .list(order.lines.map { "\($0.productID.map(String.init) ?? $0.sku) × \($0.quantity)" })))
        if let coupon = order.coupon { after.append(("coupon", .text(coupon.code))) }
        return AuditChange(entity: .order, entityID: String(order.id), action: "checkout", before: nil, after: AuditFields(after))
    }

    /// A coupon was added (`coupons add`, one row per code of `coupons generate`).
    public static func couponAdded(_ coupon: Coupon) -> AuditChange {
        let money = { (value: Money?) in value.map { AuditValue.text($0.description) } ?? .null }
        let day = { (value: CalendarDay?) in value.map { AuditValue.text($0.description) } ?? .null }
        let count = { (value: Int?) in value.map { AuditValue.integer(Int64($0)) } ?? .null }
        let fields = AuditFields([("value", .text(coupon.value.described)), ("min_total", money(coupon.minTotal)),
                                  ("starts", day(coupon.starts)), ("expires", day(coupon.expires)),
                                  ("max_uses", count(coupon.maxUses)), ("per_customer", count(coupon.perCustomer)),
                                  ("scope", .text(coupon.scope.described)), ("description", .text(coupon.description))])
        return AuditChange(entity: .coupon, entityID: coupon.code, action: "add", before: nil, after: fields)
    }

    /// A coupon was disabled.
    public static func couponDisabled(_ code: String) -> AuditChange {
        AuditChange(entity: .coupon, entityID: code, action: "disable",
                    before: AuditFields([("disabled", .bool(false))]), after: AuditFields([("disabled", .bool(true))]))
    }

    /// A coupon was attached to user `userID`'s basket, or taken off it.
    public static func basketCoupon(userID: Int64, code: String, added: Bool) -> AuditChange {
        let fields = AuditFields([("coupon", .text(code))])
        return AuditChange(entity: .basket, entityID: String(userID), action: added ? "coupon add" : "coupon remove",
                           before: added ? nil : fields, after: added ? fields : nil)
    }

    /// Exchange rates stored by an import: one row for the whole import.
    public static func rates(_ rates: [CurrencyRate], stored: Int) -> AuditChange {
        let days = rates.map(\.date)
        let currencies = Set(rates.map(\.currency)).sorted()
        var after: [(String, AuditValue)] = [("rates", .integer(Int64(stored)))]
        if let first = days.min(), let last = days.max() { after += [("from", .text(first)), ("to", .text(last))] }
        after.append(("currencies", .list(currencies)))
        return AuditChange(entity: .currency, entityID: currencies.count == 1 ? currencies[0] : "rates", action: "import",
                           before: nil, after: AuditFields(after))
    }

    /// A product's audited fields, all of them.
    static func fields(_ product: Product) -> AuditFields {
        AuditFields(productFields.map { ($0.name, $0.value(product)) })
    }

    /// One audited field of a product: its name, whether two products differ in it (cheaper
    /// than writing both out), and its value as the audit shows it.
    struct ProductField: Sendable {
        let name: String
        let differs: @Sendable (Product, Product) -> Bool
        let value: @Sendable (Product) -> AuditValue

        init<Value: Equatable>(_ name: String, _ property: @escaping @Sendable (Product) -> Value,
                               _ value: @escaping @Sendable (Value) -> AuditValue) {
            self.name = name
            differs = { property($0) != property($1) }
            self.value = { value(property($0)) }
        }
    }

    /// A product's audited fields, in order (PostgreSQL's audit shows the same: PostgresBulkAuditSchema).
    static let productFields: [ProductField] = [
        ProductField("sku", { $0.sku }) { .text($0) },
        ProductField("title", { $0.title }) { .text($0) },
        ProductField("description", { $0.description }) { .text($0) },
        ProductField("category", { $0.category }) { .text($0) },
        ProductField("brand", { $0.brand }) { $0.map { .text($0) } ?? .null },
        ProductField("price", { $0.price }) { .text($0.description) },
        ProductField("discount", { $0.discount }) { .text($0.description) },
        ProductField("stock", { $0.stock }) { .integer(Int64($0)) },
        ProductField("rating", { $0.rating }) { .text($0.description) },
        ProductField("tags", { $0.tags }) { .list($0) },
        ProductField("minimum_order_quantity", { $0.minimumOrderQuantity }) { .integer(Int64($0)) },
        ProductField("barcode", { $0.barcode }) { $0.map { .text($0) } ?? .null },
        ProductField("details", { $0.details }) { .text($0.storedJSON) },
    ]

    static func fields(_ user: User) -> AuditFields {
        AuditFields([
            ("username", .text(user.username)), ("email", .text(user.email)), ("first_name", .text(user.firstName)),
            ("last_name", .text(user.lastName)), ("phone", user.phone.map { .text($0) } ?? .null),
            ("role", .text(user.role.rawValue)), ("status", .text(user.status.rawValue)),
        ])
    }
}
