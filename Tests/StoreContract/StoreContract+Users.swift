// StoreContract+Users: the users' contract — adding, finding by id, username or email (any
// case), uniqueness, updates, status, passwords, deletion that keeps orders, and listings.

import ShopCore
import Testing

extension StoreContract {
    /// Customers and staff (`UserService`).
    public static func users(_ fixture: some StoreFixture) async {
        await run("users", fixture, [
            Case("add and show by id, username and email in any case", addAndShow),
            Case("unknown users are notFound", unknownUsers),
            Case("a taken username or email is refused in any case", duplicatesRefused),
            Case("bad users are refused", badUsersRefused),
            Case("update changes each field alone", updateEachUserField),
            Case("bad updates are refused", badUserUpdatesRefused),
            Case("disable and enable", disableAndEnable),
            Case("passwords are set and checked", passwords),
            Case("delete keeps the user's orders", deleteKeepsUserOrders),
            Case("list filters, sort and paging", listUsersFiltersSortAndPaging),
        ])
    }

    static func addAndShow(_ shop: ShopServices) async throws {
        let added = try await shop.users.addUser(NewUser(username: "alice", email: "Alice@Example.com", firstName: "Alice",
                                                         lastName: "Liddell", phone: "+44 20 7946 0000", role: .moderator))
        let other = try await ContractData.addUser(shop, "bob")
        #expect(added.id > 0 && other.id > 0 && added.id != other.id)
        #expect(added.username == "alice" && added.email == "Alice@Example.com" && added.firstName == "Alice"
                && added.lastName == "Liddell" && added.phone == "+44 20 7946 0000" && added.role == .moderator
                && added.status == .active)
        #expect(ContractData.isTimestamp(added.createdAt), "createdAt \(added.createdAt)")
        #expect(other.createdAt >= added.createdAt)
        for reference in [String(added.id), "alice", "ALICE", "Alice@Example.com", "alice@example.com", "ALICE@EXAMPLE.COM"] {
            #expect(try await shop.users.user(reference) == added, "reference \(reference)")
        }
    }

    static func unknownUsers(_ shop: ShopServices) async throws {
        let alice = try await ContractData.addUser(shop, "alice")
        for reference in [String(alice.id + 1), "alicia", "bob@example.com", "", "0"] {
            try await expectRefused(.notFound, shop) { try await shop.users.user(reference) }
        }
        try await expectRefused(.notFound, shop) { try await shop.users.updateUser("nobody", UserChanges(firstName: "X")) }
        try await expectRefused(.notFound, shop) { try await shop.users.setUserStatus("nobody", .disabled) }
        try await expectRefused(.notFound, shop) { try await shop.users.deleteUser("nobody") }
        try await expectRefused(.notFound, shop) { try await shop.users.setPassword("nobody", "long enough") }
        try await expectRefused(.notFound, shop) { try await shop.users.checkPassword("nobody", "long enough") }
    }

    static func duplicatesRefused(_ shop: ShopServices) async throws {
        _ = try await shop.users.addUser(NewUser(username: "alice", email: "alice@example.com"))
        try await expectRefused(.conflict, shop) { try await shop.users.addUser(NewUser(username: "alice", email: "a2@example.com")) }
        try await expectRefused(.conflict, shop) { try await shop.users.addUser(NewUser(username: "ALICE", email: "a3@example.com")) }
        try await expectRefused(.conflict, shop) { try await shop.users.addUser(NewUser(username: "alice2", email: "alice@example.com")) }
        try await expectRefused(.conflict, shop) { try await shop.users.addUser(NewUser(username: "alice3", email: "ALICE@example.COM")) }
        try await ContractData.addUser(shop, "bob")
        try await expectRefused(.conflict, shop) { try await shop.users.updateUser("bob", UserChanges(username: "Alice")) }
        try await expectRefused(.conflict, shop) { try await shop.users.updateUser("bob", UserChanges(email: "alice@EXAMPLE.com")) }
    }

    static func badUsersRefused(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "keep")
        let bad = [
            NewUser(username: "", email: "e1@example.com"),
            NewUser(username: "12345", email: "e2@example.com"),   // reads as a user id
            NewUser(username: "has space", email: "e3@example.com"),
            NewUser(username: "fine", email: "not-an-email"),
            NewUser(username: "fine", email: ""),
            NewUser(username: "fine", email: "fine@example.com", phone: "call me"),
        ]
        for user in bad {
            try await expectRefused(.invalidInput, shop) { try await shop.users.addUser(user) }
        }
    }

    static func updateEachUserField(_ shop: ShopServices) async throws {
        var expected = try await ContractData.addUser(shop, "carol")
        let steps: [(UserChanges, (inout User) -> Void)] = [
            (UserChanges(username: "caroline"), { $0.username = "caroline" }),
            (UserChanges(email: "caroline@example.org"), { $0.email = "caroline@example.org" }),
            (UserChanges(firstName: "Caroline"), { $0.firstName = "Caroline" }),
            (UserChanges(lastName: "Herschel"), { $0.lastName = "Herschel" }),
            (UserChanges(phone: "+1 555 0100"), { $0.phone = "+1 555 0100" }),
            (UserChanges(role: .admin), { $0.role = .admin }),
            (UserChanges(firstName: "Lina", role: .user), { $0.firstName = "Lina"; $0.role = .user }),
        ]
        for (changes, apply) in steps {
            apply(&expected)
            #expect(try await shop.users.updateUser(String(expected.id), changes) == expected, "after \(changes)")
            #expect(try await shop.users.user(String(expected.id)) == expected, "after \(changes)")
        }
        #expect(try await shop.users.user("caroline@example.org").id == expected.id)
        await #expect(throws: ShopError.self) { try await shop.users.user("carol") }
        // A user may take their own username in another case.
        #expect(try await shop.users.updateUser("caroline", UserChanges(email: "CAROLINE@example.org")).email == "CAROLINE@example.org")
    }

    static func badUserUpdatesRefused(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "dave")
        try await expectRefused(.nothingToDo, shop) { try await shop.users.updateUser("dave", UserChanges()) }
        try await expectRefused(.invalidInput, shop) { try await shop.users.updateUser("dave", UserChanges(email: "nope")) }
        try await expectRefused(.invalidInput, shop) { try await shop.users.updateUser("dave", UserChanges(username: "")) }
        try await expectRefused(.invalidInput, shop) {
            try await shop.users.updateUser("dave", UserChanges(email: "nope", firstName: "Fine"))
        }
    }

    static func disableAndEnable(_ shop: ShopServices) async throws {
        let erin = try await ContractData.addUser(shop, "erin")
        var disabled = erin
        disabled.status = .disabled
        #expect(try await shop.users.setUserStatus("erin", .disabled) == disabled)
        #expect(try await shop.users.user("erin").status == .disabled)
        #expect(try await shop.users.setUserStatus("erin", .disabled) == disabled)   // again: no change, no error
        #expect(try await shop.users.setUserStatus("erin@example.com", .active) == erin)
        #expect(try await shop.users.user(String(erin.id)) == erin)
    }

    /// Hashing is deliberately slow, so this case hashes only three times.
    static func passwords(_ shop: ShopServices) async throws {
        try await ContractData.addUser(shop, "frank")
        #expect(try await shop.users.checkPassword("frank", "anything at all") == false)   // none set: nothing matches
        try await expectRefused(.invalidInput, shop) { try await shop.users.setPassword("frank", "short") }
        try await shop.users.setPassword("frank", "correct horse")
        #expect(try await shop.users.checkPassword("FRANK", "correct horse"))
        #expect(try await shop.users.checkPassword("frank", "correct horsE") == false)
    }

    static func deleteKeepsUserOrders(_ shop: ShopServices) async throws {
        let gina = try await ContractData.addUser(shop, "gina")
        try await ContractData.addUser(shop, "hank")
        try await ContractData.addProduct(shop, sku: "P-1", stock: 10)
        try await ContractData.addProduct(shop, sku: "P-2", stock: 10)
        let order = try await ContractData.placeOrder(shop, "gina", [("P-1", 2)])
        _ = try await shop.baskets.addToBasket("gina", product: "P-2", quantity: 3)
        _ = try await shop.favorites.addFavorite("gina", product: "P-1")
        _ = try await shop.favorites.addFavorite("hank", product: "P-1")

        #expect(try await shop.users.deleteUser("Gina@Example.com") == gina)
        try await expectRefused(.notFound, shop) { try await shop.users.user("gina") }
        try await expectRefused(.notFound, shop) { try await shop.users.user(String(gina.id)) }
        let kept = try await shop.orders.order(order.id)
        var expected = order
        expected.userID = nil
        expected.updatedAt = kept.updatedAt
        #expect(kept == expected)   // the user id is gone, the customer's name and the lines stay
        #expect(kept.customer == "gina")
        #expect(try await shop.favorites.topFavorites(limit: 10).map(\.count) == [1])   // only hank's
        #expect(try await ContractData.listOrders(shop).map(\.id) == [order.id])
        // Deleting the basket gave nothing back to the shelf (it was never taken), and the order's stock stays taken.
        #expect(try await shop.products.product("P-1").stock == 8)
        #expect(try await shop.products.product("P-2").stock == 10)
        // The username and email are free again; the new user does not inherit the orders.
        let newGina = try await ContractData.addUser(shop, "gina")
        #expect(newGina.id != gina.id)
        #expect(try await shop.baskets.basket("gina").lines.isEmpty)
        #expect(try await shop.favorites.favorites("gina").isEmpty)
        #expect(try await ContractData.listOrders(shop, OrderFilter(user: String(newGina.id))).isEmpty)
    }

    static func listUsersFiltersSortAndPaging(_ shop: ShopServices) async throws {
        let specs: [(String, String, String, UserRole)] = [
            ("ann", "Ann", "Zed", .admin), ("ben", "Ben", "Young", .user), ("cat_1", "Cat", "Xu", .user),
            ("dan", "Dan", "Wolf", .moderator), ("eve", "Eve", "Vance", .user), ("fay", "Fay", "Ussher", .user),
        ]
        var all: [User] = []
        for (name, first, last, role) in specs {
            all.append(try await shop.users.addUser(NewUser(username: name, email: "\(name)@example.com", firstName: first,
                                                            lastName: last, role: role)))
        }
        _ = try await shop.users.setUserStatus("eve", .disabled)
        _ = try await shop.users.setUserStatus("ben", .disabled)
        let sortByName = Page(sort: [SortKey(field: "username")])
        let filters: [(UserFilter, [String])] = [
            (UserFilter(), ["ann", "ben", "cat_1", "dan", "eve", "fay"]),
            (UserFilter(role: .user), ["ben", "cat_1", "eve", "fay"]),
            (UserFilter(role: .admin), ["ann"]),
            (UserFilter(status: .disabled), ["ben", "eve"]),
            (UserFilter(role: .user, status: .active), ["cat_1", "fay"]),
            (UserFilter(search: "WOLF"), ["dan"]),            // last name, any case
            (UserFilter(search: "ev"), ["eve"]),              // username
            (UserFilter(search: "fay@example"), ["fay"]),     // email
            (UserFilter(search: "_"), ["cat_1"]),             // literally
            (UserFilter(search: "%"), []),
            (UserFilter(search: "zzz"), []),
        ]
        for (filter, expected) in filters {
            #expect(try await ContractData.listUsers(shop, filter, sortByName).map(\.username) == expected, "filter \(filter)")
        }
        let byEmailDescending = try await ContractData.listUsers(shop, UserFilter(), Page(sort: [SortKey(field: "email", descending: true)]))
        #expect(byEmailDescending.map(\.username) == ["fay", "eve", "dan", "cat_1", "ben", "ann"])
        let byLastName = try await ContractData.listUsers(shop, UserFilter(), Page(sort: [SortKey(field: "last_name")]))
        #expect(byLastName.map(\.username) == ["fay", "eve", "dan", "cat_1", "ben", "ann"])
        let byID = try await ContractData.listUsers(shop, UserFilter(), Page(sort: [SortKey(field: "id", descending: true)]))
        #expect(byID.map(\.id) == all.map(\.id).sorted(by: >))
        let page = try await ContractData.listUsers(shop, UserFilter(), Page(sort: [SortKey(field: "username")], limit: 2, offset: 2))
        #expect(page.map(\.username) == ["cat_1", "dan"])
        try await expectRefused(.invalidInput, shop) {
            try await ContractData.listUsers(shop, UserFilter(), Page(sort: [SortKey(field: "password_hash")]))
        }
    }
}
