// UserRows: the one place where a user becomes output columns and cells. There is no password
// or hash column: `User` does not carry one, so no format can print it.

import ShopCore
import ShopOutput

enum UserRows {
    /// Every field a user listing can show (`--fields` picks among them).
    static let columns = ["id", "username", "email", "first_name", "last_name", "phone", "role", "status", "created_at"]
        .map(Column.init)

    /// What a table of users shows for people: who they are and whether they may log in; names while they fit.
    static let tableView = TableView(["id", "username", "email", "first_name", "last_name", "role", "status"],
                                     optional: ["first_name", "last_name"])

    /// What `users list` shows without `--fields`.
    static let listingFields = ["id", "username", "email", "first_name", "last_name", "role", "status"]

    static func cells(_ user: User) -> [Cell] {
        [.integer(user.id), .text(user.username), .text(user.email), .text(user.firstName), .text(user.lastName),
         user.phone.map(Cell.text) ?? .null, .text(user.role.rawValue), .text(user.status.rawValue),
         .text(user.createdAt)]
    }

    /// `emilys (Emily Johnson)`, or the username alone when the user has no name.
    static func label(_ user: User) -> String {
        let name = [user.firstName, user.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? user.username : "\(user.username) (\(name))"
    }
}
