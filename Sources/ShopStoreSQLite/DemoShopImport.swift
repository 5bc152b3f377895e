// DemoShopImport: fills a new SQLite store with the demo shop (ShopStoreKit's DemoShopData).

import ShopCore
import ShopStoreKit

extension SQLiteStore {
    /// Imports the demo shop into this store, all in one transaction. Returns nil (and changes
    /// nothing) when the store already holds products or users, e.g. when another shopsh
    /// process created it a moment earlier.
    public func importDemoShop() throws(ShopError) -> DemoShopSummary? {
        let demo = try DemoShopData.load()
        do {
            return try seedNow { seeder in try demo.write(into: seeder) }
        } catch {
            throw Self.shopError(error)
        }
    }
}
