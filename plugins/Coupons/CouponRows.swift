// CouponRows: the one place coupons and their uses become output columns and cells.

import ShellKit
import ShopCore
import ShopOutput

enum CouponRows {
    static let columns = ["code", "value", "min_total", "currency", "starts", "expires", "max_uses", "per_customer", "uses", "left",
                          "state", "scope", "description", "created_at"].map(Column.init)

    static func cells(_ coupon: Coupon, today: CalendarDay) -> [Cell] {
        let count = { (value: Int?) in value.map { Cell.integer(Int64($0)) } ?? .null }
        return [.text(coupon.code), .text(coupon.value.described), coupon.minTotal.map { .decimal($0.amount) } ?? .null,
                .text(coupon.currency.code), coupon.starts.map { .text($0.description) } ?? .null,
                coupon.expires.map { .text($0.description) } ?? .null, count(coupon.maxUses), count(coupon.perCustomer),
                .integer(Int64(coupon.uses)), count(coupon.usesLeft), .text(coupon.state(on: today).rawValue),
                .text(coupon.scope.described), .text(coupon.description), .text(coupon.createdAt)]
    }

    /// At a terminal (80 columns): the code, what it gives, where it stands; the rest while it fits.
    static let tableView = TableView(["code", "value", "state", "uses", "left", "expires", "min_total", "scope", "description"],
                                     optional: ["min_total", "scope", "description"])

    static let useColumns = ["order_id", "customer", "status", "used_at", "discount", "currency"].map(Column.init)

    static func useCells(_ use: CouponUse) -> [Cell] {
        [.integer(use.orderID), .text(use.customer), .text(use.status.rawValue), .text(use.at), .decimal(use.discount.amount),
         .text(use.discount.currency.code)]
    }
}
