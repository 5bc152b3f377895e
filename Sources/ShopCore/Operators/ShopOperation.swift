// ShopOperation: the one table of roles — every change to the shop (and the one read that not
// every role may make) with the least role that may do it. The shell's refusal before a command
// runs, the PostgreSQL store's wording of the server's refusal, and the server's GRANTs
// (PostgresRoles) all read this table; nothing else says which role does what.

/// An operation on the shop, and the least role that may perform it.
public enum ShopOperation: String, CaseIterable, Sendable {
    case addToBasket, setBasketQuantity, removeFromBasket, clearBasket, checkout
    case addFavorite, removeFavorite, toggleFavorite
    case setOrderStatus
    /// Shipping an order's units and marking its parcels delivered (`orders ship`, `orders deliver`).
    case shipOrder
    /// Returning units of an order and refunding money (`orders return`, `orders refund`).
    case refundOrder
    /// Adding, changing, removing a customer's saved address or making it a default (`users address`).
    case editAddress
    /// Adding a note on an order or a customer (`orders note`, `users note`); deleting one is an admin's.
    case addNote, deleteNote
    /// Attaching a coupon to a basket or taking it off (`basket coupon`).
    case attachCoupon
    /// Hiding a review (with a reason) or showing it again (`reviews hide`, `reviews unhide`);
    /// deleting one is an admin's.
    case hideReview, deleteReview
    /// Adding and disabling coupons (`coupons add`, `coupons generate`, `coupons disable`).
    case manageCoupons
    case addProduct, updateProduct, deleteProduct, adjustStock, importProducts
    case importRates
    case addUser, updateUser, setUserStatus, setPassword, deleteUser
    /// Reading a password hash to compare (`users check-password`), and storing a stronger one.
    case checkPassword
    /// Creating or upgrading a store's schema, and filling a new store (`init`, `dev generate`).
    case migrateSchema, seedStore
    /// Undoing audited changes (`audit revert`): the least role of any change it undoes; each
    /// change it makes is one of the operations above, which needs its own role too.
    case revertChange

    /// The least role that may perform the operation (roles above it may too).
    public var leastRole: OperatorRole {
        switch self {
        case .addToBasket, .setBasketQuantity, .removeFromBasket, .clearBasket, .checkout,
             .addFavorite, .removeFavorite, .toggleFavorite, .setOrderStatus, .shipOrder, .refundOrder, .editAddress, .addNote, .attachCoupon,
             .hideReview, .revertChange:
            return .support
        case .addProduct, .updateProduct, .deleteProduct, .adjustStock, .importProducts, .importRates,
             .addUser, .updateUser, .setUserStatus, .setPassword, .deleteUser, .checkPassword,
             .migrateSchema, .seedStore, .deleteNote, .manageCoupons, .deleteReview:
            return .admin
        }
    }

    /// What the operation is doing, as an error line says it: `adding to a basket: …`.
    public var doing: String {
        switch self {
        case .addToBasket: return "adding to a basket"
        case .setBasketQuantity: return "setting a basket quantity"
        case .removeFromBasket: return "removing from a basket"
        case .clearBasket: return "clearing a basket"
        case .checkout: return "checking out"
        case .addFavorite: return "adding a favourite"
        case .removeFavorite: return "removing a favourite"
        case .toggleFavorite: return "toggling a favourite"
        case .setOrderStatus: return "changing an order's status"
        case .shipOrder: return "shipping an order"
        case .refundOrder: return "refunding an order"
        case .editAddress: return "changing an address"
        case .addNote: return "adding a note"
        case .deleteNote: return "deleting a note"
        case .attachCoupon: return "changing a basket's coupon"
        case .manageCoupons: return "changing coupons"
        case .hideReview: return "moderating a review"
        case .deleteReview: return "deleting a review"
        case .addProduct: return "adding a product"
        case .updateProduct: return "updating a product"
        case .deleteProduct: return "deleting a product"
        case .adjustStock: return "adjusting stock"
        case .importProducts: return "importing products"
        case .importRates: return "storing rates"
        case .addUser: return "adding a user"
        case .updateUser: return "updating a user"
        case .setUserStatus: return "setting a user's status"
        case .setPassword: return "setting a password"
        case .deleteUser: return "deleting a user"
        case .checkPassword: return "checking a password"
        case .migrateSchema: return "migrating the schema"
        case .seedStore: return "writing the seed"
        case .revertChange: return "reverting a change"
        }
    }
}
