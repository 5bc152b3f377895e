// PostgresRolesTests: the server enforces the shopsh roles (issue 13) — a viewer reads masked
// personal data and writes nothing, also through psql; support changes baskets (audited as
// itself) but not products; nobody but the owner alters the audit log; read-only sessions
// (--read-only, the server's default) refuse writes in one line; the masking views compute
// exactly PersonalDataMask.

import Foundation
import PostgresNIO
import ShopCore
import Testing
@testable import ShopStorePostgres
import PostgresShopSchema

@Suite(.enabled(if: PostgresTestServer.url != nil, PostgresTestServer.skipReason))
struct PostgresRolesTests {
    /// The basket of user 1 as psql sees it: `product|quantity` lines.
    func basketLines(_ shop: PostgresRoleShop) throws -> String {
        try shop.query("SELECT product_id || '|' || quantity FROM basket_lines WHERE user_id = 1 ORDER BY product_id")
    }

    @Test func theMaskingViewsComputePersonalDataMask() async throws {
        try await PostgresRoleShop.with { shop in
            var users: [User] = []
            try await shop.owner.services.users.listUsers(UserFilter(), page: Page()) { users.append($0) }
            #expect(users.count == 208)
            let expected = users.map { "\($0.id)|\(PersonalDataMask.email($0.email))|\($0.phone.map(PersonalDataMask.phone) ?? "")" }
            let viewer = try shop.psql(as: "viewer", "SELECT id || '|' || email || '|' || coalesce(phone, '') FROM users_masked ORDER BY id")
            #expect(viewer.status == 0, "\(viewer.errors)")
            #expect(viewer.output.split(separator: "\n").map(String.init) == expected)

            // Edge cases of the rule: no @, @ first, a first character beyond ASCII, short phones.
            let emails = ["plain", "@x.org", "émile@x.org", "a@b", "ab@@c", ""]
            let phones = ["", "12", "1234", "12345", "+1 (555) 010-9999", "٣٣٣٣٣٣", "x9y8z7w6v5"]
            let maskedEmails = try await shop.owner.textColumn("""
                SELECT \(unescaped: PostgresAuditSchema.maskedEmail("e")) FROM unnest(\(emails)::text[]) WITH ORDINALITY AS t(e, n) ORDER BY n
                """)
            #expect(maskedEmails == emails.map(PersonalDataMask.email))
            let maskedPhones = try await shop.owner.textColumn("""
                SELECT \(unescaped: PostgresAuditSchema.maskedPhone("p")) FROM unnest(\(phones)::text[]) WITH ORDINALITY AS t(p, n) ORDER BY n
                """)
            #expect(maskedPhones == phones.map(PersonalDataMask.phone))
        }
    }

    /// Issue 38 at psql: a viewer reads reviewers' emails only masked; support hides a review by its
    /// reason alone (the server names who and when) and can change nothing else; only an admin deletes.
    @Test func reviewsAtPsqlFollowTheRoles() async throws {
        try await PostgresRoleShop.with { shop in
            let raw = try shop.query("SELECT reviewer_email FROM reviews WHERE review_id = 1")
            #expect(raw.contains("@") && !raw.contains("***"), "\(raw)")
            let denied = try shop.psql(as: "viewer", "SELECT reviewer_email FROM reviews WHERE review_id = 1")
            #expect(denied.status != 0 && denied.errors.contains("permission denied"), "\(denied)")
            let anyColumn = try shop.psql(as: "viewer", "SELECT comment FROM reviews LIMIT 1")
            #expect(anyColumn.status != 0 && anyColumn.errors.contains("permission denied"), "\(anyColumn)")
            let masked = try shop.psql(as: "viewer", "SELECT reviewer_email FROM reviews_masked WHERE review_id = 1")
            #expect(masked.status == 0 && masked.output == PersonalDataMask.email(raw), "\(masked)")
            let viewer = try await shop.open(as: "viewer")
            defer { viewer.close() }
            #expect(try await viewer.services.reviews.review(1).reviewerEmail == PersonalDataMask.email(raw))

            // support: the reason only; who and when are the server's.
            for sql in ["UPDATE reviews SET rating = 5 WHERE review_id = 1",
                        "UPDATE reviews SET hidden_reason = 'spam', hidden_by = 'somebody else' WHERE review_id = 1",
                        "UPDATE reviews SET hidden_at = now() - interval '1 year' WHERE review_id = 1",
                        "DELETE FROM reviews WHERE review_id = 2",
                        "INSERT INTO reviews (product_id, rating, reviewer_name, reviewer_email) VALUES (1, 5, 'me', 'me@example.com')"] {
                let refused = try shop.psql(as: "support", sql)
                #expect(refused.status != 0 && refused.errors.contains("permission denied"), "\(sql): \(refused)")
            }
            let hide = try shop.psql(as: "support", "UPDATE reviews SET hidden_reason = 'abusive language' WHERE review_id = 1")
            #expect(hide.status == 0, "\(hide)")
            let moderated = try shop.query("SELECT hidden_by, hidden_at IS NOT NULL FROM reviews WHERE review_id = 1")
            #expect(moderated == "\(try require(shop.logins["support"]))|t", "\(moderated)")
            let blank = try shop.psql(as: "support", "UPDATE reviews SET hidden_reason = '   ' WHERE review_id = 3")
            #expect(blank.status != 0 && blank.errors.contains("violates check constraint"), "\(blank)")
            let deleted = try shop.psql(as: "admin", "DELETE FROM reviews WHERE review_id = 2")
            #expect(deleted.status == 0, "\(deleted)")
            // Both changes are in the audit log under their products, as shopsh writes them.
            let audited = try shop.query("SELECT action FROM audit_log WHERE entity = 'product' AND action LIKE 'review %' ORDER BY id")
            #expect(audited == "review hide\nreview delete", "\(audited)")
        }
    }

    @Test func aViewerReadsMaskedDataAndTheServerRefusesItsWrites() async throws {
        try await PostgresRoleShop.with { shop in
            // psql as the viewer: no raw email, no write.
            let rawEmail = try shop.psql(as: "viewer", "SELECT email FROM users LIMIT 1")
            #expect(rawEmail.status != 0 && rawEmail.errors.contains("permission denied"), "\(rawEmail)")
            let update = try shop.psql(as: "viewer", "UPDATE basket_lines SET quantity = 1")
            #expect(update.status != 0 && update.errors.contains("permission denied"), "\(update)")
            let masked = try shop.psql(as: "viewer", "SELECT email FROM users_masked WHERE username = 'emilys'")
            #expect(masked.output == PersonalDataMask.email("emily.johnson@x.dummyjson.com"))

            // A change the viewer will read masked in the audit log.
            _ = try await shop.owner.services.users.updateUser("emilys", UserChanges(phone: "+81 965-431-0000"))

            let viewer = try await shop.open(as: "viewer")
            defer { viewer.close() }
            #expect(viewer.identity == OperatorIdentity(name: try require(shop.logins["viewer"]), role: .viewer,
                                                         readOnlyReason: "the viewer role"))
            #expect(viewer.warnings.isEmpty)
            let emily = try await viewer.services.users.user("emilys")
            #expect(emily.email == "e***@x.dummyjson.com" && emily.phone == "+** ***-***-0000")
            #expect(try await viewer.services.baskets.basket("1").user.email == "e***@x.dummyjson.com")
            // An email cannot be looked up through masked data.
            await #expect { try await viewer.services.users.user("emily.johnson@x.dummyjson.com") } throws: { error in
                if case ShopError.notFound = error { return true }
                return false
            }
            let completed = try await viewer.services.completions?.users(prefix: "emi", limit: 10) ?? []
            #expect(!completed.isEmpty && completed.allSatisfy { $0.email.contains("***") })

            let before = try basketLines(shop)
            do {
                _ = try await viewer.services.baskets.addToBasket("emilys", product: "1", quantity: 1)
                Issue.record("a viewer's write went through")
            } catch let error as ShopError {
                #expect(error.message.contains("shopsh_support") && error.message.contains("nothing was changed"), "\(error)")
                #expect(!error.message.contains("\n") && !error.message.contains("INSERT"))
            }
            #expect(try basketLines(shop) == before)

            var entries: [AuditEntry] = []
            try await viewer.services.audit.listAudit(AuditFilter(entity: .user), page: Page()) { entries.append($0) }
            #expect(entries.count == 1)
            #expect(entries.first?.before?["phone"] == .text("+** ***-***-3024"))
            #expect(entries.first?.after?["phone"] == .text("+** ***-***-0000"))
        }
    }

    /// Migration 19's summaries were readable by admins only: a viewer's or support's `orders stats
    /// --by product`, `users top` and `basket list` were refused by the server.
    @Test func everyRoleReadsTheReportsAndBasketListings() async throws {
        try await PostgresRoleShop.with { shop in
            _ = try await shop.owner.services.baskets.addToBasket("emilys", product: "1", quantity: 2)
            _ = try await shop.owner.services.baskets.checkout("emilys")
            _ = try await shop.owner.services.baskets.addToBasket("emilys", product: "2", quantity: 1)
            var ownersBaskets: [BasketSummary] = []
            try await shop.owner.services.baskets.listBaskets(BasketListQuery(minTotal: 1)) { ownersBaskets.append($0) }
            for role in ["viewer", "support", "admin"] {
                let store = try await shop.open(as: role)
                defer { store.close() }
                for grouping in OrderStatsGrouping.allCases {
                    let rows = try await store.services.orders.orderStats(OrderStatsQuery(grouping: grouping))
                    #expect(!rows.isEmpty || grouping == .coupon, "\(role), --by \(grouping)")
                }
                var baskets: [BasketSummary] = []
                try await store.services.baskets.listBaskets(BasketListQuery(minTotal: 1)) { baskets.append($0) }
                #expect(baskets.count == ownersBaskets.count && baskets.first { $0.username == "emilys" }?.lines == 1, "\(role)")
                for table in ["sales_day_products", "sales_day_customers", "basket_summaries", "sales_days"] {
                    #expect(try shop.psql(as: role, "SELECT count(*) > 0 FROM \(table)").output == "t", "\(role) \(table)")
                }
            }
        }
    }

    /// Every table of the schema is named by the grants as a shop table (read by the roles) or the
    /// server's own; a viewer reads every shop table but the personal ones.
    @Test func everyTableIsGrantedOrTheServersOwn() async throws {
        let named = Set(PostgresRoles.shopTableList).union(PostgresRoles.serverTables)
        #expect(named == Set(PostgresSchema.tableNames), "unnamed: \(Set(PostgresSchema.tableNames).subtracting(named))")
        try await PostgresRoleShop.with { shop in
            for table in PostgresSchema.tableNames {
                let readable = try shop.psql(as: "viewer", "SELECT 1 FROM \(table) LIMIT 0")
                let expected = !PostgresRoles.personalTables.contains(table) && !PostgresRoles.serverTables.contains(table)
                #expect((readable.status == 0) == expected, "viewer reading \(table): \(readable)")
            }
        }
    }

    @Test func supportChangesBasketsAsItselfButNotProducts() async throws {
        try await PostgresRoleShop.with { shop in
            let support = try await shop.open(as: "support")
            defer { support.close() }
            let login = try require(shop.logins["support"])
            #expect(support.identity == OperatorIdentity(name: login, role: .support))
            let context = AuditContext(command: "basket set emilys 113 2", operatorIdentity: support.identity)
            let line = try await AuditContext.$current.withValue(context) {
                try await support.services.baskets.setBasketQuantity("emilys", product: "113", quantity: 2)
            }
            #expect(line?.quantity == 2)
            var entries: [AuditEntry] = []
            try await shop.owner.services.audit.listAudit(AuditFilter(entity: .basket), page: Page()) { entries.append($0) }
            let entry = try #require(entries.first)
            #expect(entries.count == 1)
            #expect(entry.operatorName == login && entry.role == "support" && entry.command == "basket set emilys 113 2")
            #expect(entry.entityID == "1" && entry.action == "set")
            #expect(entry.summary == "product: 113, quantity: 3 → 2")

            // A new line takes the customer's lock through the owner's function; checkout, cancel, favourites.
            _ = try await support.services.baskets.addToBasket("emilys", product: "1", quantity: 1)
            let order = try await support.services.baskets.checkout("emilys")
            _ = try await support.services.orders.setOrderStatus(order.id, .cancelled)
            #expect(try await support.services.favorites.toggleFavorite("emilys", product: "1"))

            let title = try shop.query("SELECT title FROM products WHERE id = 1")
            do {
                _ = try await support.services.products.updateProduct("1", ProductChanges(title: "Renamed"))
                Issue.record("support updated a product")
            } catch let error as ShopError {
                #expect(error.message.contains("shopsh_admin") && error.message.contains(login) && !error.message.contains("\n"), "\(error)")
            }
            #expect(try shop.query("SELECT title FROM products WHERE id = 1") == title)
            let psqlUpdate = try shop.psql(as: "support", "UPDATE products SET title = 'x' WHERE id = 1")
            #expect(psqlUpdate.status != 0 && psqlUpdate.errors.contains("permission denied"))
            // Checking a password reads the hash: only admins may.
            await #expect(throws: ShopError.self) { _ = try await support.services.users.checkPassword("emilys", "emilyspass") }
            let hash = try shop.psql(as: "support", "SELECT password_hash FROM users LIMIT 1")
            #expect(hash.status != 0 && hash.errors.contains("permission denied"))
            #expect(try shop.psql(as: "support", "SELECT count(*) FROM users").output == "208")
        }
    }

    @Test func nobodyButTheOwnerAltersTheAuditLog() async throws {
        try await PostgresRoleShop.with { shop in
            let admin = try await shop.open(as: "admin")
            defer { admin.close() }
            _ = try await admin.services.products.adjustStock("1", .add(1))
            #expect(try shop.query("SELECT operator || '|' || role FROM audit_log") == "\(try require(shop.logins["admin"]))|admin")
            for role in ["admin", "support", "viewer"] {
                for sql in ["DELETE FROM audit_log", "UPDATE audit_log SET command = 'x'", "TRUNCATE audit_log",
                            "INSERT INTO audit_log (operator, entity, entity_id, action) VALUES ('someone', 'x', '1', 'y')",
                            "INSERT INTO audit_log (role, entity, entity_id, action) VALUES ('admin', 'x', '1', 'y')",
                            "INSERT INTO audit_log (entity, entity_id, action) VALUES ('note', '1', 'x')"] {
                    let result = try shop.psql(as: role, sql)
                    #expect(result.status != 0 && result.errors.contains("permission denied"), "\(role): \(sql): \(result)")
                }
            }
            // Only the server writes the log: the admin's change above is its one row.
            #expect(try shop.query("SELECT count(*) FROM audit_log") == "1")
        }
    }

    @Test func readOnlySessionsRefuseWritesInOneLineAndRead() async throws {
        try await PostgresRoleShop.with { shop in
            let before = try basketLines(shop)
            // --read-only as the owner.
            let owner = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: shop.schema, readOnly: true)
            defer { owner.close() }
            #expect(owner.identity.role == .admin && owner.identity.readOnlyReason == "--read-only")
            #expect(try await owner.services.products.product("1").id == 1)
            do {
                _ = try await owner.services.baskets.addToBasket("emilys", product: "1", quantity: 1)
                Issue.record("a read-only session wrote")
            } catch let error as ShopError {
                #expect(error.message.contains("read-only (--read-only)") && !error.message.contains("\n"), "\(error)")
            }
            // The server's default_transaction_read_only (as on a replica set up so): an admin login.
            let admin = try require(shop.logins["admin"])
            try await shop.owner.execute(PostgresQuery(unsafeSQL: "ALTER ROLE \(admin) SET default_transaction_read_only = on"))
            let defaulted = try await shop.open(as: "admin")
            defer { defaulted.close() }
            #expect(defaulted.identity.readOnlyReason == "the server's default_transaction_read_only")
            #expect(try await defaulted.services.baskets.basket("emilys").lines.count == 4)
            do {
                _ = try await defaulted.services.products.adjustStock("1", .add(1))
                Issue.record("a read-only session wrote")
            } catch let error as ShopError {
                #expect(error.message.contains("read-only") && error.message.contains("nothing was changed"), "\(error)")
            }
            #expect(try basketLines(shop) == before)
            #expect(try shop.query("SELECT count(*) FROM audit_log") == "0")

            // A login with no shopsh role is a viewer, with a warning naming the roles.
            let none = try await shop.open(as: "none")
            defer { none.close() }
            #expect(none.identity.role == .viewer && none.identity.isReadOnly)
            #expect(none.warnings.count == 1 && none.warnings[0].contains("shopsh_viewer, shopsh_support, shopsh_admin"))
        }
    }

    @Test func aReadOnlySessionNeverMigrates() async throws {
        let schema = try await PostgresTestServer.makeSchema()
        do {
            _ = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: schema, readOnly: true)
            Issue.record("a read-only session opened a database without a shop")
        } catch {
            #expect("\(error)".contains("read-only (--read-only)") && "\(error)".contains("holds no shop"), "\(error)")
        }
        let tables = try await PostgresTestServer.withAdminClient { client, logger in
            var count = 0
            for try await value in try await client.query(
                "SELECT count(*)::int FROM information_schema.tables WHERE table_schema = \(schema)", logger: logger
            ).decode(Int.self) { count = value }
            return count
        }
        #expect(tables == 0)
    }

    @Test func anUpgradedStoreLosesTheGrantsTheServersRulesTakeAway() async throws {
        let schema = try await PostgresTestServer.makeSchema()
        let store = try await PostgresStore.open(try PostgresTestServer.connectionURL(), searchPath: schema, migrate: false)
        defer { store.close() }
        try await PostgresSchema.migrate(store.database, through: 3)
        // The roles (other tests may be making them at the same moment) and what `roles setup` granted at version 3.
        for attempt in 1...5 {
            do {
                try await store.execute(PostgresQuery(unsafeSQL: try require(PostgresRoles.statements.first)))
                break
            } catch where attempt < 5 {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        for grant in ["GRANT INSERT ON orders, order_lines TO shopsh_support", "GRANT UPDATE (status, updated_at) ON orders TO shopsh_support",
                      "GRANT INSERT (command, entity, entity_id, action, before, after) ON audit_log TO shopsh_support",
                      "GRANT INSERT, UPDATE, DELETE ON orders, order_lines TO shopsh_admin"] {
            try await store.execute(PostgresQuery(unsafeSQL: grant))
        }
        let privileges = """
            SELECT concat_ws(' ', has_table_privilege('shopsh_support', 'orders', 'INSERT')::text,
                                  has_any_column_privilege('shopsh_support', 'orders', 'UPDATE')::text,
                                  has_any_column_privilege('shopsh_support', 'audit_log', 'INSERT')::text,
                                  has_table_privilege('shopsh_admin', 'order_lines', 'DELETE')::text)
            """
        #expect(try await store.textColumn(PostgresQuery(unsafeSQL: privileges)) == ["true true true true"])
        #expect(try await PostgresSchema.migrate(store.database) == Array(4...PostgresSchema.version))
        #expect(try await store.textColumn(PostgresQuery(unsafeSQL: privileges)) == ["false false false false"])
        // Checkout takes where the order goes since migration 14 and goes with or without its coupon
        // since 15; the old functions are the owner's alone.
        #expect(try await store.textColumn("""
            SELECT has_function_privilege('shopsh_support', 'shopsh_checkout(bigint, bigint, boolean)', 'EXECUTE')::text || ' '
                   || has_function_privilege('shopsh_support', 'shopsh_checkout_basket(bigint)', 'EXECUTE')::text || ' '
                   || has_function_privilege('shopsh_support', 'shopsh_checkout_to_address(bigint, bigint)', 'EXECUTE')::text
            """) == ["true false false"])
    }

    @Test func settingUpTwiceAndAtOnceIsTheSame() async throws {
        try await PostgresRoleShop.with { shop in
            let grants = "SELECT grantee || ' ' || table_name || ' ' || privilege_type FROM information_schema.role_table_grants WHERE table_schema = '\(shop.schema)' AND grantee LIKE 'shopsh\\_%' ORDER BY 1"
            let first = try shop.query(grants)
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<3 { group.addTask { try await PostgresRoles.setUp(shop.owner) } }
                for try await said in group { #expect(said.hasPrefix("roles: shopsh_viewer, shopsh_support, shopsh_admin ready")) }
            }
            #expect(try shop.query(grants) == first)
            #expect(first.contains("shopsh_admin products DELETE") && !first.contains("audit_log DELETE")
                    && !first.contains("shopsh_viewer users "))
            // A login that may not create roles is told who may, in one line.
            let support = try await shop.open(as: "support")
            defer { support.close() }
            await #expect(throws: ShopError.self) { _ = try await PostgresRoles.setUp(support) }
        }
    }
}
