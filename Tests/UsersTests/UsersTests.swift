// UsersTests: the users plugin through the shell on a real, temporary demo store (208 users):
// lookups, validation, passwords (never printed, never stored in plain text) and deletion.

import Foundation
import ShellKit
import ShopCore
import ShopOutput
import ShopStoreSQLite
import Testing
import TestSupport
import Users

/// The users plugin on a new demo shop.
func usersShell() async throws -> ShellHarness { try await ShellHarness(plugins: [usersPlugin], demo: true) }

extension ShellHarness {
    /// Writes `text` to a file in the harness's folder and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func userCount() async throws -> Int {
        let rows = try #require(try await json("users list --all -o json") as? [[String: Any]])
        return rows.count
    }

    /// The audit rows about user `id` (a password set or rehashed is one), newest first.
    func userAudit(_ id: Int64) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        try await services.audit.listAudit(AuditFilter(entity: .user, entityID: String(id)), page: .all) { entries.append($0) }
        return entries
    }

    /// Whether `body` is refused with `notFound` (what a deleted user's data reads as).
    func isNotFound<T>(_ body: () async throws -> T) async -> Bool {
        do { _ = try await body(); return false } catch let error as ShopError {
            if case .notFound = error { return true }
            return false
        } catch { return false }
    }
}

@Suite struct UsersLookupTests {
    @Test func findsByIdUsernameAndEmailIgnoringCase() async throws {
        let shop = try await usersShell()
        for reference in ["1", "emilys", "EmilyS", "emily.johnson@x.dummyjson.com", "Emily.Johnson@X.DummyJSON.com"] {
            let user = try #require(try await shop.json("users show '\(reference)' -o json") as? [String: Any],
                                    "users show \(reference)")
            #expect(user["id"] as? Int == 1, "users show \(reference)")
            #expect(user["username"] as? String == "emilys")
        }
    }

    @Test func unknownUserSuggestsCloseMatches() async throws {
        let shop = try await usersShell()
        let (outcome, output) = await shop.run("users show emilsy")
        #expect(outcome == .failure)
        #expect(output.isEmpty)
        #expect(shop.stderr.contains("no user with id, username or email \"emilsy\""))
        #expect(shop.stderr.contains("did you mean emilys"))
    }

    @Test func listFiltersSortsAndPages() async throws {
        let shop = try await usersShell()
        let admins = try #require(try await shop.json("users list --role admin --all -o json") as? [[String: Any]])
        #expect(!admins.isEmpty)
        #expect(admins.allSatisfy { $0["role"] as? String == "admin" })
        #expect(admins.first?["phone"] == nil)   // not a default field

        let found = try #require(try await shop.json("users list --search 'emily johnson' -o json") as? [[String: Any]])
        #expect(found.compactMap { $0["username"] as? String } == ["emilys"])
        let byEmail = try #require(try await shop.json("users list --search X.DUMMYJSON --limit 5 -o json") as? [[String: Any]])
        #expect(byEmail.count == 5)

        let sorted = try #require(try await shop.json("users list --sort username:desc --limit 3 --offset 1 --fields id,username -o json") as? [[String: Any]])
        let names = sorted.compactMap { $0["username"] as? String }
        #expect(names.count == 3)
        #expect(names == names.sorted(by: >))
        #expect(sorted.first?.keys.sorted() == ["id", "username"])

        #expect(await shop.run("users list --role owner").0 == .usageError)
        #expect(shop.stderr.contains("The value 'owner' is invalid for '--role <role>'. Please provide one of 'admin', 'moderator' or 'user'."))
        #expect(await shop.run("users list --sort password_hash").0 == .failure)
        #expect(try await shop.userCount() == 208)
    }

    @Test func showUsesTheCurrentCustomer() async throws {
        let shop = try await usersShell()
        #expect(await shop.run("users show").0 == .usageError)
        #expect(await shop.run("use michaelw").0 == .success)
        let user = try #require(try await shop.json("users show -o json") as? [String: Any])
        #expect(user["username"] as? String == "michaelw")
    }
}

@Suite struct UsersEditTests {
    @Test func addRefusesDuplicatesAndInvalidInput() async throws {
        let shop = try await usersShell()
        let added = try #require(try await shop.json(
            "users add --username Alice.W --email alice@example.com --first-name Alice --last-name Walker --phone '+1 555-0100' --role moderator -o json") as? [String: Any])
        #expect(added["username"] as? String == "alice.w")
        #expect(added["role"] as? String == "moderator")
        #expect(added["status"] as? String == "active")
        #expect(try await shop.userCount() == 209)

        for line in ["users add --username ALICE.W --email other@example.com",          // username taken (case)
                     "users add --username alice2 --email ALICE@Example.com",            // email taken (case)
                     "users add --username emilys --email new@example.com",             // demo username
                     "users add --username bob --email bob",                              // not an address
                     "users add --username bob --email 'bob@@example.com'",
                     "users add --username bob --email 'bob smith@example.com'",
                     "users add --username bob --email bob@localhost",
                     "users add --username 'b' --email b@example.com",                    // too short
                     "users add --username 'bob smith' --email b@example.com",
                     "users add --username 4711 --email b@example.com",                   // looks like an id
                     "users add --username bob --email b@example.com --phone call-me"] {
            let (outcome, output) = await shop.run(line)
            #expect(outcome == .failure, "\(line) was accepted")
            #expect(output.isEmpty, "\(line) printed \(output)")
        }
        // A role that is no such word is a usage error (2), as any value of the wrong shape (issue 32).
        #expect(await shop.run("users add --username bob --email b@example.com --role owner").0 == .usageError)
        #expect(await shop.run("users add --email b@example.com").0 == .usageError)
        #expect(shop.stderr.contains("username alice.w is taken"))
        #expect(shop.stderr.contains("email ALICE@Example.com already belongs to user alice.w"))
        #expect(shop.stderr.contains("invalid email \"bob\""))
        #expect(try await shop.userCount() == 209)
    }

    @Test func updateChangesOnlyWhatIsGiven() async throws {
        let shop = try await usersShell()
        let updated = try #require(try await shop.json(
            "users update emilys --email emily@example.org --last-name Johnson-Smith --phone '' -o json") as? [String: Any])
        #expect(updated["email"] as? String == "emily@example.org")
        #expect(updated["last_name"] as? String == "Johnson-Smith")
        #expect(updated["first_name"] as? String == "Emily")
        #expect(updated["phone"] is NSNull)
        #expect(try await shop.services.users.user("emily@example.org").id == 1)

        // Taken or invalid values are refused and change nothing.
        #expect(await shop.run("users update emilys --username michaelw").0 == .failure)
        #expect(await shop.run("users update emilys --username emilys2 --email nope").0 == .failure)
        #expect(try await shop.services.users.user("1").username == "emilys")
        #expect(await shop.run("users update emilys").0 == .usageError)
        #expect(await shop.run("users update nobody-here --role admin").0 == .failure)
        // Keeping one's own username (in another case) is not a conflict.
        #expect(await shop.run("users update emilys --username EMILYS --role user").0 == .success)
        #expect(try await shop.services.users.user("1").role == .user)
    }

    @Test func disableAndEnable() async throws {
        let shop = try await usersShell()
        #expect(await shop.run("users disable emilys").0 == .success)
        #expect(try await shop.services.users.user("emilys").status == .disabled)
        let disabled = try #require(try await shop.json("users list --status disabled -o json") as? [[String: Any]])
        #expect(disabled.compactMap { $0["username"] as? String } == ["emilys"])
        #expect(await shop.run("users disable emilys").0 == .success)   // already disabled: says so
        #expect(shop.stderr.contains("already disabled"))
        #expect(await shop.run("users enable 1").0 == .success)
        #expect(try await shop.services.users.user("emilys").status == .active)
        #expect(try #require(try await shop.json("users list --status disabled -o json") as? [Any]).isEmpty)
    }
}

@Suite struct UsersPasswordTests {
    @Test func passwdFromFileThenCheck() async throws {
        let shop = try await usersShell()
        let good = try shop.file("good", "Correct-Horse-42\n")
        let wrong = try shop.file("wrong", "Correct-Horse-43\r\n")
        #expect(await shop.run("users passwd emilys --password-file \(good)").0 == .success)

        let match = await shop.run("users check-password EMILYS --password-file \(good)")
        #expect(match.outcome == .success)
        #expect(match.stdout == "match\n")

        let noMatch = await shop.run("users check-password emilys --password-file \(wrong)")
        #expect(noMatch.outcome == .failure)
        #expect(noMatch.stdout == "no match\n")

        let json = await shop.run("users check-password emilys --password-file \(good) -o json")
        #expect(json.stdout == "{\"user\":\"emilys\",\"match\":true}\n")

        // Another user's password is unaffected; the demo password still works.
        let demo = try shop.file("demo", "michaelwpass\n")
        #expect(await shop.run("users check-password michaelw --password-file \(demo)").stdout == "match\n")
        #expect(await shop.run("users check-password emilys --password-file \(demo)").0 == .failure)
    }

    @Test func passwdRefusesBadPasswordsAndMissingTerminal() async throws {
        let shop = try await usersShell()
        // The demo password is set, and no password change is recorded (the hash itself is never shown:
        // an unchanged password is the demo password still matching, after no `passwd` was recorded).
        #expect(try await shop.userAudit(1).isEmpty)
        #expect(await shop.run("users passwd emilys").0 == .usageError)        // not a terminal, no file
        #expect(shop.stderr.contains("--password-file"))
        #expect(await shop.run("users check-password emilys").0 == .usageError)
        let short = try shop.file("short", "abc12\n")
        #expect(await shop.run("users passwd emilys --password-file \(short)").0 == .failure)
        #expect(shop.stderr.contains("at least 6 characters"))
        let empty = try shop.file("empty", "\nsecond-line\n")
        #expect(await shop.run("users passwd emilys --password-file \(empty)").0 == .failure)
        #expect(await shop.run("users passwd emilys --password-file \(shop.folder.path)/missing").0 == .failure)
        #expect(await shop.run("users passwd nobody-here --password-file \(short)").0 == .failure)
        #expect(try await shop.userAudit(1).isEmpty)
        // The password is never accepted as an argument.
        #expect(await shop.run("users passwd emilys --password secret99").0 == .usageError)
        #expect(await shop.run("users passwd emilys secret99").0 == .usageError)
        #expect(try await shop.userAudit(1).isEmpty)
        #expect(try await shop.services.users.checkPassword("emilys", "emilyspass"))
        #expect(try await shop.services.users.checkPassword("emilys", "secret99") == false)
    }

    @Test func theHashIsNeverPrinted() async throws {
        let shop = try await usersShell()
        let password = try shop.file("pw", "Never-Printed-77\n")
        #expect(await shop.run("users passwd emilys --password-file \(password)").0 == .success)
        // The stored hash, read with the store's own client: no service returns it (a User has no
        // password field), and this test is about it never leaving the store.
        let hash = try shop.sql("SELECT password_hash FROM users WHERE id = 1")
        #expect(hash.hasPrefix("pbkdf2-sha256$600000$"))
        let parts = hash.split(separator: "$").map(String.init)
        #expect(parts.count == 4)

        var printed = ""
        for format in ["json", "ndjson", "csv", "tsv", "table"] {
            for command in ["users show emilys", "users list --all", "users list --search emily",
                            "users update emilys --first-name Emily", "users show emilys --wide"] {
                let (outcome, output) = await shop.run("\(command) -o \(format)")
                #expect(outcome == .success, "\(command) -o \(format)")
                #expect(!output.isEmpty)
                printed += output
            }
        }
        // Asking for the hash as a field does not show it either.
        printed += await shop.run("users show emilys -o json --fields id,password_hash").stdout
        printed += await shop.run("users list -o csv --fields password,password_hash").stdout
        let everything = printed + shop.stderr
        #expect(!everything.contains(hash))
        #expect(!everything.contains(parts[2]))   // the salt
        #expect(!everything.contains(parts[3]))   // the key
        #expect(!everything.contains("pbkdf2"))
        #expect(!everything.contains("Never-Printed-77"))
        #expect(!everything.lowercased().contains("password_hash\""))
    }

    @Test func thePlainPasswordIsNotInTheStoreFile() async throws {
        let shop = try await usersShell()
        let secret = "Plain-Text-Canary-9137"
        let file = try shop.file("pw", secret + "\n")
        #expect(await shop.run("users passwd emilys --password-file \(file)").0 == .success)
        #expect(await shop.run("users check-password emilys --password-file \(file)").0 == .success)
        try FileManager.default.removeItem(atPath: file)
        // What the store holds, read with its own client: no service shows a password hash.
        let hash = try shop.sql("SELECT password_hash FROM users WHERE id = 1")
        #expect(hash.hasPrefix("pbkdf2-sha256$600000$") && !hash.contains(secret))
        #expect(try shop.sql("SELECT count(*) FROM users WHERE password_hash LIKE '%\(secret)%'") == "0")
        guard shop.storeKind == "sqlite" else { return }
        // The database and its WAL and shared-memory files.
        let names = try FileManager.default.contentsOfDirectory(atPath: shop.folder.path)
            .filter { $0.hasPrefix("shop.sqlite") }
        #expect(names.contains("shop.sqlite"))
        let needle = Data(secret.utf8)
        for name in names {
            let bytes = try Data(contentsOf: shop.folder.appendingPathComponent(name))
            #expect(bytes.range(of: needle) == nil, "the password is in \(name)")
        }
        #expect(!shop.stderr.contains(secret))
    }
}

@Suite struct UsersDeleteTests {
    @Test func deleteNeedsYesWhenNotOnATerminal() async throws {
        let shop = try await usersShell()
        let (outcome, output) = await shop.run("users delete emilys")
        #expect(outcome == .usageError)
        #expect(output.isEmpty)
        #expect(shop.stderr.contains("--yes"))
        #expect(try await shop.services.users.user("emilys").id == 1)
        #expect(await shop.run("users delete nobody-here --yes").0 == .failure)
        #expect(try await shop.userCount() == 208)
    }

    @Test func deleteKeepsOrdersAndRemovesBasketAndFavourites() async throws {
        let shop = try await usersShell()
        let services = shop.services
        // An order each for emilys (her demo basket) and michaelw (one product), then a new basket for emilys.
        let emilysOrder = try await services.baskets.checkout("emilys")
        _ = try await services.baskets.clearBasket("michaelw")
        _ = try await services.baskets.addToBasket("michaelw", product: "1", quantity: 1)
        let michaelsOrder = try await services.baskets.checkout("michaelw")
        #expect(emilysOrder.userID == 1 && !emilysOrder.lines.isEmpty && michaelsOrder.userID == 2)
        _ = try await services.baskets.addToBasket("emilys", product: "2", quantity: 3)
        #expect(try await services.favorites.addFavorite("emilys", product: "122"))
        #expect(try await services.favorites.addFavorite("emilys", product: "1"))
        #expect(try await services.favorites.addFavorite("michaelw", product: "122"))
        #expect(try await services.baskets.basket("1").lines.count > 0)
        #expect(try await services.favoriteTotal() == 3)

        #expect(await shop.run("users delete emily.johnson@x.dummyjson.com --yes").0 == .success)
        #expect(shop.stderr.contains("deleted user emilys (Emily Johnson)"))
        #expect(await shop.run("users show emilys").0 == .failure)
        #expect(await shop.isNotFound { try await services.users.user("1") })
        // The basket and the favourites went with the user: the basket cannot be read, and only
        // michaelw's favourite is still counted.
        #expect(await shop.isNotFound { try await services.baskets.basket("1") })
        #expect(await shop.isNotFound { try await services.favorites.favorites("1") })
        #expect(try await services.favoriteTotal() == 1)
        #expect(try await services.favorites.topFavorites(limit: 10).map { "\($0.product.id):\($0.count)" } == ["122:1"])
        // The order stays, without its user but with the customer's name and its lines.
        let kept = try await services.orders.order(emilysOrder.id)
        #expect(kept.userID == nil && kept.customer == emilysOrder.customer && kept.customer == "emilys")
        #expect(kept.lines == emilysOrder.lines)
        // Nobody else lost anything.
        #expect(try await services.orders.order(michaelsOrder.id).userID == 2)
        #expect(try await services.favorites.favorites("michaelw").map(\.product.id) == [122])
        #expect(try await shop.userCount() == 207)
    }
}
