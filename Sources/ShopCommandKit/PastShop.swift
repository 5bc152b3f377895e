// PastShop: `--as-of TIME` — the option, and the products, baskets and users as they were at that
// moment, read through the services (so a viewer sees only what it may read, masked) and rebuilt
// by ShopHistory from the state now and the audit rows and stock movements written since.

import ArgumentParser
import ShellKit
import ShopCore

/// `--as-of TIME` on a command that shows the shop.
public struct AsOfOption: ParsableArguments, Sendable {
    @Option(name: .customLong("as-of"), parsing: .unconditional,
            help: ArgumentHelp("Show it as it was then, rebuilt from the audit log: an instant (2026-11-27T12:00:00Z), a day (its end) or a time ago (30m, 2h, 3d).",
                               valueName: "time"),
            completion: .shop(.time))
    public var asOf: String?

    public init() {}

    /// The moment asked for (nil without `--as-of`), checked against from when the log answers;
    /// a note on stderr says the view is of the past.
    public func moment(in context: CommandContext) async throws -> HistoryMoment? {
        guard let asOf else { return nil }
        let moment = try HistoryMoment.parse(asOf, now: context.services.clock.now())
        if let start = try await context.services.history.historyStart(), moment.description < start {
            throw moment.beforeHistory(since: start)
        }
        context.note(moment.note)
        return moment
    }
}

/// The shop as it was at `moment`.
public struct PastShop: Sendable {
    public let services: ShopServices
    public let moment: HistoryMoment

    public init(services: ShopServices, moment: HistoryMoment) {
        self.services = services
        self.moment = moment
    }

    /// Audit rows written after the moment (`afterMoment`) or ever, newest first.
    func rows(_ entity: AuditEntity?, id: String? = nil, afterMoment: Bool = true) async throws -> [AuditEntry] {
        var rows: [AuditEntry] = []
        try await services.audit.listAudit(AuditFilter(entity: entity, entityID: id, since: afterMoment ? moment.next : nil), page: .all) {
            rows.append($0)
        }
        return rows
    }

    // MARK: - Products

    /// Every product then that `filter` selects, by id (`--search` and `--sort` are not for the
    /// past: the caller refuses them).
    public func products(_ filter: ProductFilter) async throws -> [Product] {
        var current: [Product] = []
        let all = ProductFilter(withLongFields: filter.withLongFields, withReviewSummary: filter.withReviewSummary)
        try await services.products.listProducts(all, page: .all) { current.append($0) }
        let past = ShopHistory.products(current: current, rows: try await rows(.product),
                                        movements: try await services.history.stockMovements(after: moment.description))
        return past.filter(filter.matches)
    }

    /// One product then, by id, SKU or barcode as it was then.
    public func product(_ reference: String) async throws -> Product {
        let past = try await products(ProductFilter(withLongFields: true, withReviewSummary: true))
        let stored = Barcode.hasShape(reference) ? Barcode.stored(reference) : nil
        if let id = Int64(reference), let found = past.first(where: { $0.id == id }) { return found }
        if let found = past.first(where: { $0.sku == reference }) ?? past.first(where: { stored != nil && $0.barcode == stored }) {
            return found
        }
        throw ShopError.notFound("no product \(reference.quotedForMessage()) at \(moment)")
    }

    // MARK: - Users

    /// The user then (a user deleted since is found by id, or by the username or email they had).
    public func user(_ reference: String) async throws -> User {
        var current: User?
        do {
            current = try await services.users.user(reference)
        } catch ShopError.notFound(let message) {
            guard let id = try await deletedUserID(reference) else { throw ShopError.notFound(message) }
            current = nil
            return try await user(id: id, current: current, reference: reference)
        }
        guard let current else { throw ShopError.notFound("no user \(reference.quotedForMessage())") }
        return try await user(id: current.id, current: current, reference: reference)
    }

    private func user(id: Int64, current: User?, reference: String) async throws -> User {
        let all = try await rows(.user, id: String(id), afterMoment: false)
        let later = all.filter { $0.time > moment.description }
        let added = all.last { $0.action == "add" && $0.before == nil }?.time
        guard let user = ShopHistory.user(id: id, current: current, rows: later, createdAt: added ?? current?.createdAt) else {
            throw ShopError.notFound("user \(reference.quotedForMessage()) did not exist at \(moment)")
        }
        return user
    }

    /// The id of a deleted user named by `reference` (an id, or a username or email they had).
    private func deletedUserID(_ reference: String) async throws -> Int64? {
        var found: Int64?
        try await services.audit.listAudit(AuditFilter(entity: .user), page: .all) { row in
            guard found == nil, row.action == "delete", let before = row.before, let id = Int64(row.entityID) else { return }
            if reference == row.entityID || before["username"] == .text(reference)
                || before["email"].map({ $0.summary.lowercased() == reference.lowercased() }) == true {
                found = id
            }
        }
        return found
    }

    // MARK: - Baskets

    /// Customer `reference`'s basket then, at the prices of then.
    public func basket(_ reference: String) async throws -> Basket {
        let now = try await services.baskets.basket(reference)
        let userID = now.user.id
        let customer = try await user(String(userID))
        var touching = try await rows(.basket, id: String(userID), afterMoment: false)
        touching += try await rows(.order).filter { ShopHistory.isBasketRow($0, userID: userID) }
        touching += try await rows(.product).filter { $0.action == "delete" }
        touching.sort { $0.id > $1.id }
        let (lines, code) = ShopHistory.basket(userID: userID, current: now.lines, coupon: now.coupon?.coupon.terms.code,
                                               rows: touching, moment: moment,
                                               historyStart: try await services.history.historyStart() ?? "")
        let products = Dictionary(try await products(ProductFilter(withLongFields: false)).map { ($0.id, $0) }) { first, _ in first }
        let basketLines = lines.compactMap { line -> BasketLine? in
            guard let product = products[line.productID] else { return nil }
            return BasketLine(userID: userID, productID: product.id, sku: product.sku, title: product.title, unitPrice: product.price,
                              discount: product.discount, quantity: line.quantity, stock: product.stock, category: product.category)
        }
        return Basket(user: customer, lines: basketLines, coupon: try await coupon(code, userID: userID, username: customer.username))
    }

    /// The basket's coupon then, with its uses up to the moment.
    private func coupon(_ code: String?, userID: Int64, username: String) async throws -> BasketCoupon? {
        guard let code else { return nil }
        var coupon = try await services.coupons.coupon(code)
        let uses = try await services.coupons.couponUses(code).filter { $0.at <= moment.description }
        coupon.uses = uses.count
        if coupon.disabled, try await rows(.coupon, id: code).contains(where: { $0.action == "disable" }) { coupon.disabled = false }
        return BasketCoupon(coupon: coupon, customerUses: uses.filter { $0.customer == username }.count)
    }
}
