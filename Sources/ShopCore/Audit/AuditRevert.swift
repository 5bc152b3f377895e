// AuditRevert: what undoing an audit row takes — the inverse of a product update or of a basket
// line's change, checked against the entity as it is now (someone may have changed it since) —
// and, for everything else, one line saying why it cannot be undone.

/// Undoing audited changes (`audit revert`).
public enum AuditRevert {
    /// What undoing one audit row does.
    public enum Step: Sendable, Equatable {
        /// Product `id` gets `restore` back; the row left it as `recorded`.
        case product(id: Int64, recorded: AuditFields, restore: AuditFields)
        /// Customer `userID`'s line of `productID` goes back to `restore` units (nil: no line); the
        /// row left it at `recorded`.
        case basketLine(userID: Int64, productID: Int64, recorded: Int?, restore: Int?)

        /// The operation the undo performs (its least role is the role the revert needs).
        public var operation: ShopOperation {
            switch self {
            case .product: return .updateProduct
            case .basketLine: return .setBasketQuantity
            }
        }
    }

    /// The product fields an undo can set back.
    static let restorableProductFields: Set<String> = ["sku", "title", "description", "category", "brand", "price", "discount", "stock",
                                                       "barcode", "details"]

    /// What undoing `entry` takes, or why it cannot be undone (one line naming the row).
    public static func step(for entry: AuditEntry) throws(ShopError) -> Step {
        let row = "#\(entry.id)"
        switch (entry.entity, entry.action) {
        case ("product", "update"), ("product", "stock"):
            guard let id = Int64(entry.entityID), let before = entry.before, let after = entry.after else { break }
            if let field = after.fieldNames.first(where: { !restorableProductFields.contains($0) }) {
                throw .invalidInput("\(row) changed product \(id)'s \(field), which a revert cannot set back")
            }
            return .product(id: id, recorded: after, restore: before)
        case ("basket", "coupon add"), ("basket", "coupon remove"):
            throw .invalidInput("\(row) changed a basket's coupon, which a revert does not: use basket coupon \(entry.entityID) CODE or --remove")
        case ("coupon", _):
            throw .invalidInput("\(row) added or disabled coupon \(entry.entityID), which a revert does not: coupons are never taken back once handed out")
        case ("basket", _):
            guard let userID = Int64(entry.entityID),
                  case .integer(let productID)? = (entry.after ?? entry.before)?["product"] else { break }
            func quantity(_ fields: AuditFields?) -> Int? {
                if case .integer(let units)? = fields?["quantity"] { return Int(exactly: units) }
                return nil
            }
            return .basketLine(userID: userID, productID: productID, recorded: quantity(entry.after), restore: quantity(entry.before))
        case ("user", "passwd"), ("user", "rehash"):
            throw .invalidInput("\(row) set a password, which a revert cannot give back: set a new one with users passwd")
        case ("order", "checkout"):
            throw .invalidInput("\(row) is a checkout: cancel the order instead (orders cancel \(entry.entityID))")
        case (_, "note add"), (_, "note delete"):
            throw .invalidInput("\(row) added or deleted a note, which a revert does not: add a note again, or have an admin delete it (orders note, users note)")
        case ("order", "return"), ("order", "refund"):
            throw .invalidInput("\(row) sent money back to a customer, which cannot be unsent: nothing was changed")
        case ("order", _):
            throw .invalidInput("\(row) moved order \(entry.entityID) along the status machine, which never moves an order back: set its status with orders status")
        case ("currency", _):
            throw .invalidInput("\(row) imported exchange rates, which a revert does not take out: import the rates you want again")
        default:
            break
        }
        throw .invalidInput("\(row) (\(entry.entity) \(entry.action)) cannot be reverted yet: only product updates, stock changes and basket changes can")
    }

    /// The plan that gives product `current` its `restore` fields back. Unless `force`, each field
    /// must still be as the row left it (`recorded`); a conflict shows both otherwise.
    public static func productPlan(_ current: Product, recorded: AuditFields, restore: AuditFields, row: Int64,
                                   force: Bool) throws(ShopError) -> ProductChangePlan {
        let now = AuditChange.fields(current)
        // Already as before the row (undone, or set back since): nothing to do, and no conflict.
        if restore.fieldNames.allSatisfy({ now[$0] == restore[$0] }) {
            return ProductChangePlan(before: current, changes: ProductChanges())
        }
        if !force, let field = recorded.fieldNames.first(where: { now[$0] != recorded[$0] }) {
            throw .conflict("product \(current.id) (\(current.sku)) changed since #\(row): its \(field) is \((now[field] ?? .null).summary), #\(row) left \((recorded[field] ?? .null).summary); nothing was changed (--force reverts anyway)")
        }
        var restored = current
        if let field = ShopHistory.apply(restore, to: &restored).first {
            throw .invalidInput("#\(row) recorded product \(current.id)'s \(field) as \((restore[field] ?? .null).summary), which a revert cannot set back")
        }
        // Only the fields the row names, and of those only what differs from now.
        let names = Set(restore.fieldNames)
        func named<T>(_ field: String, _ value: T) -> T? { names.contains(field) ? value : nil }
        let edit = ProductEdit(sku: named("sku", restored.sku), title: named("title", restored.title),
                               description: named("description", restored.description), category: named("category", restored.category),
                               brand: named("brand", restored.brand ?? ""), price: named("price", PriceEdit.set(restored.price)),
                               discount: named("discount", DiscountEdit.set(restored.discount)),
                               stock: named("stock", StockChange.set(restored.stock)), barcode: named("barcode", restored.barcode ?? ""),
                               details: named("details", ProductDetailEdit(replacingWith: restored.details)) ?? ProductDetailEdit())
        return ProductChangePlan(before: current, changes: try edit.changes(for: current))
    }

    /// Checks that customer's line is as the row left it (`recorded`, nil: no line), unless `force`.
    public static func checkBasketLine(current: Int?, recorded: Int?, restore: Int?, user: String, productID: Int64, row: Int64,
                                       force: Bool) throws(ShopError) {
        // Already as before the row (undone, or set back since): the caller says so; no conflict.
        guard !force, current != recorded, current != restore else { return }
        func units(_ quantity: Int?) -> String { quantity.map { "\($0)" } ?? "no line" }
        throw .conflict("the basket of \(user) changed since #\(row): it holds \(units(current)) of product \(productID), #\(row) left \(units(recorded)); nothing was changed (--force reverts anyway)")
    }
}
