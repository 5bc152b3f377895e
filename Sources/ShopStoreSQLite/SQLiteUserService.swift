// SQLiteUserService: UserService on SQLite (STUB: being written).

import GRDB
import ShopCore

struct SQLiteUserService: UserService {
    let pool: DatabasePool

    func listUsers(_ filter: UserFilter, page: Page, _ body: (User) throws -> Void) async throws { throw ShopError.storage("SQLiteUserService: not implemented yet") }
    func user(_ reference: String) async throws -> User { throw ShopError.storage("SQLiteUserService: not implemented yet") }
    func addUser(_ user: NewUser) async throws -> User { throw ShopError.storage("SQLiteUserService: not implemented yet") }
    func updateUser(_ reference: String, _ changes: UserChanges) async throws -> User { throw ShopError.storage("SQLiteUserService: not implemented yet") }
    func setUserStatus(_ reference: String, _ status: UserStatus) async throws -> User { throw ShopError.storage("SQLiteUserService: not implemented yet") }
    func setPassword(_ reference: String, _ password: String) async throws { throw ShopError.storage("SQLiteUserService: not implemented yet") }
    func checkPassword(_ reference: String, _ password: String) async throws -> Bool { throw ShopError.storage("SQLiteUserService: not implemented yet") }
    func deleteUser(_ reference: String) async throws -> User { throw ShopError.storage("SQLiteUserService: not implemented yet") }
}
