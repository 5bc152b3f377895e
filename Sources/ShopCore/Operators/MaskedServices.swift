// MaskedServices: the services as a viewer sees them: customers' emails, phones and addresses
// masked (PersonalDataMask) in users, addresses, baskets, completions and the audit log. On PostgreSQL the server's
// masking views already hide them; this layer makes every store show a viewer the same thing.

extension ShopServices {
    /// These services with personal data masked when `role` may not see it; unchanged otherwise.
    public func masked(for role: OperatorRole) -> ShopServices {
        guard role.seesMaskedPersonalData else { return self }
        var masked = self
        masked.users = MaskedUserService(base: users)
        masked.addresses = MaskedAddressService(base: addresses)
        masked.baskets = MaskedBasketService(base: baskets)
        masked.orders = MaskedOrderService(base: orders)
        masked.audit = MaskedAuditService(base: audit)
        masked.reviews = MaskedReviewService(base: reviews)
        masked.completions = completions.map { MaskedCompletionSource(base: $0) }
        return masked
    }
}

struct MaskedAddressService: AddressService {
    let base: any AddressService

    func addresses(_ user: String) async throws -> [CustomerAddress] { try await base.addresses(user).map(Self.mask) }
    func addAddress(_ user: String, _ address: PostalAddress, defaults: Set<AddressUse>) async throws -> CustomerAddress {
        Self.mask(try await base.addAddress(user, address, defaults: defaults))
    }
    func updateAddress(_ user: String, _ id: Int64, _ changes: AddressChanges) async throws -> CustomerAddress {
        Self.mask(try await base.updateAddress(user, id, changes))
    }
    func removeAddress(_ user: String, _ id: Int64) async throws -> CustomerAddress { Self.mask(try await base.removeAddress(user, id)) }
    func setDefaultAddress(_ user: String, _ id: Int64, for use: AddressUse) async throws -> CustomerAddress {
        Self.mask(try await base.setDefaultAddress(user, id, for: use))
    }

    static func mask(_ saved: CustomerAddress) -> CustomerAddress {
        var masked = saved
        masked.address = PersonalDataMask.address(saved.address)
        return masked
    }
}

struct MaskedUserService: UserService {
    let base: any UserService

    func listUsers(_ filter: UserFilter, page: Page, _ body: (User) throws -> Void) async throws {
        try await base.listUsers(filter, page: page) { user in try body(PersonalDataMask.user(user)) }
    }
    func user(_ reference: String) async throws -> User { PersonalDataMask.user(try await base.user(reference)) }
    func addUser(_ user: NewUser) async throws -> User { PersonalDataMask.user(try await base.addUser(user)) }
    func updateUser(_ reference: String, _ changes: UserChanges) async throws -> User {
        PersonalDataMask.user(try await base.updateUser(reference, changes))
    }
    func setUserStatus(_ reference: String, _ status: UserStatus) async throws -> User {
        PersonalDataMask.user(try await base.setUserStatus(reference, status))
    }
    func setPassword(_ reference: String, _ password: String) async throws { try await base.setPassword(reference, password) }
    func checkPassword(_ reference: String, _ password: String) async throws -> Bool {
        try await base.checkPassword(reference, password)
    }
    func deleteUser(_ reference: String) async throws -> User { PersonalDataMask.user(try await base.deleteUser(reference)) }
}

struct MaskedBasketService: BasketService {
    let base: any BasketService

    func basket(_ user: String) async throws -> Basket {
        var basket = try await base.basket(user)
        basket.user = PersonalDataMask.user(basket.user)
        return basket
    }
    func addToBasket(_ user: String, product: String, quantity: Int) async throws -> BasketLine {
        try await base.addToBasket(user, product: product, quantity: quantity)
    }
    func setBasketQuantity(_ user: String, product: String, quantity: Int) async throws -> BasketLine? {
        try await base.setBasketQuantity(user, product: product, quantity: quantity)
    }
    func removeFromBasket(_ user: String, product: String) async throws { try await base.removeFromBasket(user, product: product) }
    func clearBasket(_ user: String) async throws -> Int { try await base.clearBasket(user) }
    func checkout(_ user: String, shipTo: Int64?, withoutCoupon: Bool) async throws -> Order {
        PersonalDataMask.order(try await base.checkout(user, shipTo: shipTo, withoutCoupon: withoutCoupon))
    }
    /// Usernames are not masked (only emails and phones are).
    func listBaskets(_ query: BasketListQuery, _ body: (BasketSummary) throws -> Void) async throws { try await base.listBaskets(query, body) }
}

/// Orders with where they go masked (PersonalDataMask.address).
struct MaskedOrderService: OrderService {
    let base: any OrderService

    func listOrders(_ filter: OrderFilter, page: Page, _ body: (Order) throws -> Void) async throws {
        try await base.listOrders(filter, page: page) { order in try body(PersonalDataMask.order(order)) }
    }
    func order(_ id: Int64) async throws -> Order { PersonalDataMask.order(try await base.order(id)) }
    func setOrderStatus(_ id: Int64, _ status: OrderStatus) async throws -> Order {
        PersonalDataMask.order(try await base.setOrderStatus(id, status))
    }
    func returnUnits(_ request: ReturnRequest) async throws -> OrderRefund { try await base.returnUnits(request) }
    func refund(_ orderID: Int64, amount: Money, reason: String) async throws -> OrderRefund {
        try await base.refund(orderID, amount: amount, reason: reason)
    }
    func orderStats(_ query: OrderStatsQuery) async throws -> [OrderStatsRow] { try await base.orderStats(query) }
    func refundStats(_ query: OrderStatsQuery) async throws -> [OrderStatsRow] { try await base.refundStats(query) }
}

/// Reviews with the reviewer's email masked.
struct MaskedReviewService: ReviewService {
    let base: any ReviewService

    func listReviews(_ filter: ReviewFilter, page: Page, _ body: (Review) throws -> Void) async throws {
        try await base.listReviews(filter, page: page) { review in try body(Self.mask(review)) }
    }
    func review(_ id: Int64) async throws -> Review { Self.mask(try await base.review(id)) }
    func hideReview(_ id: Int64, reason: String) async throws -> Review { Self.mask(try await base.hideReview(id, reason: reason)) }
    func unhideReview(_ id: Int64) async throws -> Review { Self.mask(try await base.unhideReview(id)) }
    func deleteReview(_ id: Int64) async throws -> Review { Self.mask(try await base.deleteReview(id)) }

    static func mask(_ review: Review) -> Review {
        var masked = review
        masked.reviewerEmail = PersonalDataMask.email(review.reviewerEmail)
        return masked
    }
}

struct MaskedAuditService: AuditService {
    let base: any AuditService

    func listAudit(_ filter: AuditFilter, page: Page, _ body: (AuditEntry) throws -> Void) async throws {
        try await base.listAudit(filter, page: page) { entry in try body(entry.maskedForViewer) }
    }
    func auditEntry(_ id: Int64) async throws -> AuditEntry { try await base.auditEntry(id).maskedForViewer }
    func auditOperators() async throws -> [String] { try await base.auditOperators() }
}

/// Completes users by username only, with masked emails: a viewer's Tab must not reveal emails.
struct MaskedCompletionSource: CompletionSource {
    let base: any CompletionSource

    func users(prefix: String, limit: Int) async throws -> [UserMatch] {
        try await base.users(prefix: prefix, limit: limit).compactMap { match in
            guard match.username.lowercased().hasPrefix(prefix.lowercased()) else { return nil }
            return UserMatch(id: match.id, username: match.username, email: PersonalDataMask.email(match.email))
        }
    }
    func productIDs(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)] {
        try await base.productIDs(prefix: prefix, limit: limit)
    }
    func skus(prefix: String, limit: Int) async throws -> [String] { try await base.skus(prefix: prefix, limit: limit) }
    func barcodes(prefix: String, limit: Int) async throws -> [(barcode: String, title: String)] {
        try await base.barcodes(prefix: prefix, limit: limit)
    }
    func productTitles(prefix: String, limit: Int) async throws -> [(id: Int64, title: String)] {
        try await base.productTitles(prefix: prefix, limit: limit)
    }
    func orderIDs(prefix: String, limit: Int) async throws -> [Int64] { try await base.orderIDs(prefix: prefix, limit: limit) }
    func categories(prefix: String, limit: Int) async throws -> [String] { try await base.categories(prefix: prefix, limit: limit) }
    func currencyCodes(prefix: String, limit: Int) async throws -> [String] {
        try await base.currencyCodes(prefix: prefix, limit: limit)
    }
    func auditOperators(prefix: String, limit: Int) async throws -> [String] {
        try await base.auditOperators(prefix: prefix, limit: limit)
    }
    func couponCodes(prefix: String, limit: Int) async throws -> [String] {
        try await base.couponCodes(prefix: prefix, limit: limit)
    }
}
