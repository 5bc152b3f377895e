// CouponService: the coupons as every store keeps them — only an admin adds or disables them
// (ShopOperation.manageCoupons), support attaches one to a basket (ShopOperation.attachCoupon);
// checkout (BasketService) applies it and counts its use.

/// Which coupons a listing shows.
public struct CouponFilter: Hashable, Sendable {
    /// Codes beginning with this (any case).
    public var prefix: String?

    public init(prefix: String? = nil) { self.prefix = prefix }
}

/// The coupons.
public protocol CouponService: Sendable {
    /// Adds coupons (`coupons add` one, `coupons generate` many) in one transaction, each checked
    /// by `CouponRules.check`; a code taken already (any case) refuses them all. Returns them as stored.
    func addCoupons(_ definitions: [CouponDefinition]) async throws -> [Coupon]
    /// Coupons by code, streaming.
    func listCoupons(_ filter: CouponFilter, page: Page, _ body: (Coupon) throws -> Void) async throws
    /// One coupon by code (any case).
    func coupon(_ code: String) async throws -> Coupon
    /// The orders that used a coupon, oldest first.
    func couponUses(_ code: String) async throws -> [CouponUse]
    /// Disables a coupon (it stays on the orders that used it); returns it.
    func disableCoupon(_ code: String) async throws -> Coupon
    /// Attaches coupon `code` to `user`'s basket (one per basket: another one there is refused;
    /// the same one again changes nothing), or takes it off when `code` is nil. Returns the
    /// coupon the basket carries now.
    func setBasketCoupon(_ user: String, code: String?) async throws -> BasketCoupon?
}

/// What every store says of a coupon it cannot find or a basket without one.
public enum CouponLookup {
    public static func notFound(_ code: String) -> ShopError {
        .notFound("no coupon \(code.quotedForMessage())")
    }

    public static func taken(_ code: String) -> ShopError {
        .conflict("coupon \(code) exists already")
    }

    public static func oneAtATime(_ user: String, holds code: String) -> ShopError {
        .conflict("one coupon per basket: \(user)'s holds \(code) (basket coupon \(user) --remove first)")
    }

    public static func noCoupon(_ user: String) -> ShopError {
        .notFound("\(user)'s basket has no coupon")
    }
}
