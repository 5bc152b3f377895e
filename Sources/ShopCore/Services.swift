// ShopServices: the six service protocols a store provides, bundled for the shell and plugins.

/// Everything a plugin may use of the shop. Plugins hold these protocols, never a store.
public struct ShopServices: Sendable {
    public var products: any ProductService

    public init(products: any ProductService) {
        self.products = products
    }
}
