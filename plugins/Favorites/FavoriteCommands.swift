// FavoriteCommands: `favorites list [USER]`, `add|remove|toggle [USER] PRODUCT` and `top`.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

extension FavoritesCommand {
    /// `favorites list [USER]`.
    struct List: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "List a customer's favourite products, oldest first.")

        @OptionGroup var words: CustomerArguments<NoMoreWords>

        @OptionGroup var paging: PagingOptions
        @OptionGroup var currency: CurrencyOption
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (user, _) = try words.resolve(in: context)
            let page = try context.page(paging)
            let money = try await context.moneyDisplay(currency)
            try await context.list(columns: FavoriteRows.columns(money), defaultFields: FavoriteRows.defaultFields(money),
                                   tableView: FavoriteRows.tableView.appending(money.extraColumns.map(\.key)), options: output,
                                   page: page, emptyNote: "\(user) has no favourites") { emit in
                try await context.services.favorites.listFavorites(user, page: page) { favorite in
                    try emit(try FavoriteRows.cells(favorite, money: money))
                }
            }
        }
    }
}

/// What add, remove and toggle need: the customer and product named, resolved once.
private struct FavoriteTarget {
    let user: User
    let product: Product

    init(_ words: CustomerArguments<ProductWord>, context: CommandContext) async throws {
        let (reference, rest) = try words.resolve(in: context)
        user = try await context.services.users.user(reference)
        product = try await context.services.products.product(rest[0])
    }

    var userID: String { String(user.id) }
    var productID: String { String(product.id) }
    /// `122 (iPhone 6)` (notes escape the title).
    var productLabel: String { "\(product.id) (\(product.title))" }
    /// `emilys's favourites`.
    var favourites: String { "\(user.username)'s favourites" }
}

extension FavoritesCommand {
    /// `favorites add [USER] PRODUCT`.
    struct Add: ShellCommand {
        static let operation: ShopOperation? = .addFavorite
        static let configuration = CommandConfiguration(abstract: "Mark a product as a customer's favourite (adding twice changes nothing).")

        @OptionGroup var words: CustomerArguments<ProductWord>

        func run(in context: CommandContext) async throws {
            let target = try await FavoriteTarget(words, context: context)
            if try await context.services.favorites.addFavorite(target.userID, product: target.productID) {
                context.note("added \(target.productLabel) to \(target.favourites)")
            } else {
                context.note("\(target.productLabel) is already in \(target.favourites)")
            }
        }
    }

    /// `favorites remove [USER] PRODUCT`.
    struct Remove: ShellCommand {
        static let operation: ShopOperation? = .removeFavorite
        static let configuration = CommandConfiguration(abstract: "Remove a product from a customer's favourites.")

        @OptionGroup var words: CustomerArguments<ProductWord>

        func run(in context: CommandContext) async throws {
            let target = try await FavoriteTarget(words, context: context)
            if try await context.services.favorites.removeFavorite(target.userID, product: target.productID) {
                context.note("removed \(target.productLabel) from \(target.favourites)")
            } else {
                context.note("\(target.productLabel) was not in \(target.favourites)")
            }
        }
    }

    /// `favorites toggle [USER] PRODUCT`.
    struct Toggle: ShellCommand {
        static let operation: ShopOperation? = .toggleFavorite
        static let configuration = CommandConfiguration(abstract: "Add a product to a customer's favourites, or remove it if it is there.")

        @OptionGroup var words: CustomerArguments<ProductWord>

        func run(in context: CommandContext) async throws {
            let target = try await FavoriteTarget(words, context: context)
            if try await context.services.favorites.toggleFavorite(target.userID, product: target.productID) {
                context.note("added \(target.productLabel) to \(target.favourites)")
            } else {
                context.note("removed \(target.productLabel) from \(target.favourites)")
            }
        }
    }

    /// `favorites top [--limit N]`.
    struct Top: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "The products favourited most, with how many customers favourited each.")

        @OptionGroup var paging: PagingOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let page = try context.page(paging)
            var wanted = Int.max
            if let limit = page.limit {
                let (sum, overflow) = page.offset.addingReportingOverflow(limit)
                if !overflow { wanted = sum }
            }
            let counts = try await context.services.favorites.topFavorites(limit: wanted)
            let rows = try FavoriteRows.sorted(counts.dropFirst(page.offset).map(FavoriteRows.cells), by: page.sort,
                                               columns: FavoriteRows.topColumns)
            try await context.list(columns: FavoriteRows.topColumns, tableView: FavoriteRows.topTableView, options: output, page: page,
                                   emptyNote: "no favourites yet") { emit in
                for row in rows { try emit(row) }
            }
        }
    }
}
