// FavoriteRows: the one place where a favourite (a product and when it was added) or a
// favourite count becomes output columns and cells, and where rows are sorted in memory.

import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

enum FavoriteRows {
    /// Every field `favorites list` can show (`--fields` picks among them).
    static let columnNames = ["product_id", "sku", "title", "category", "brand", "price", "currency",
                              "discount_percentage", "discounted_price", "stock", "rating", "added_at"]

    /// What a table of favourites shows for people.
    static let tableView = TableView(["product_id", "sku", "title", "category", "price", "currency", "stock", "added_at"],
                                     optional: ["category", "stock"])

    /// What `favorites top` shows in a table.
    static let topTableView = TableView(["product_id", "sku", "title", "category", "brand", "favorite_count"],
                                        optional: ["category", "brand"])

    /// What `favorites list` shows without `--fields`.
    static let listingFields = ["product_id", "sku", "title", "category", "price", "currency", "stock", "added_at"]

    static func columns(_ money: MoneyDisplay) -> [Column] {
        columnNames.map(Column.init) + money.extraColumns
    }

    static func defaultFields(_ money: MoneyDisplay) -> [String] {
        listingFields + money.extraColumns.map(\.key)
    }

    static func cells(_ favorite: FavoriteProduct, money: MoneyDisplay) throws(ShopError) -> [Cell] {
        let product = favorite.product
        return [.integer(product.id), .text(product.sku), .text(product.title), .text(product.category),
                product.brand.map(Cell.text) ?? .null, try money.cell(product.price), .text(money.code(product.price)),
                .decimal(product.discount.decimal), try money.cell(product.discountedPrice),
                .integer(Int64(product.stock)), .decimal(product.rating.decimal), .text(favorite.addedAt)]
            + money.extraCells
    }

    /// The fields of `favorites top`.
    static let topColumns = ["product_id", "sku", "title", "category", "brand", "favorite_count"].map(Column.init)

    static func cells(_ count: FavoriteCount) -> [Cell] {
        let product = count.product
        return [.integer(product.id), .text(product.sku), .text(product.title), .text(product.category),
                product.brand.map(Cell.text) ?? .null, .integer(Int64(count.count))]
    }

    /// Sorts rows by `keys` (field names of `columns`); the sort is stable, so ties keep their order.
    static func sorted(_ rows: [[Cell]], by keys: [SortKey], columns: [Column]) throws(ShopError) -> [[Cell]] {
        guard !keys.isEmpty else { return rows }
        var indexed: [(key: SortKey, index: Int)] = []
        for key in keys {
            guard let index = columns.firstIndex(where: { $0.key == key.field }) else {
                throw .invalidInput("cannot sort by \"\(key.field)\"; sortable fields: \(columns.map(\.key).sorted().joined(separator: ", "))")
            }
            indexed.append((key, index))
        }
        return rows.enumerated().sorted { left, right in
            for (key, index) in indexed {
                let order = compare(left.element[index], right.element[index])
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// -1, 0 or 1; nulls first, numbers by value, text case-insensitively.
    private static func compare(_ left: Cell, _ right: Cell) -> Int {
        func sign<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch (left, right) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case let (.integer(a), .integer(b)): return sign(a, b)
        case let (.decimal(a), .decimal(b)): return sign(a, b)
        case let (.text(a), .text(b)):
            let order = sign(a.lowercased(), b.lowercased())
            return order != 0 ? order : sign(a, b)
        default: return 0
        }
    }
}
