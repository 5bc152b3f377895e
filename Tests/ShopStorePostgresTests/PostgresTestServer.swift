// PostgresTestServer: the server the PostgreSQL tests use — the URL in SHOPSH_TEST_POSTGRES, which
// `make test` sets (scripts/postgres-cluster starts a throwaway cluster) — and a fresh schema per
// case, so that cases never see each other's rows.

import Foundation
import Logging
import PostgresNIO
import ShopCore
import Testing
@testable import ShopStorePostgres
import PostgresConnectionKit

/// The test server, if one was named.
enum PostgresTestServer {
    /// `SHOPSH_TEST_POSTGRES`, when set and not empty.
    static let url: String? = {
        guard let value = ProcessInfo.processInfo.environment["SHOPSH_TEST_POSTGRES"], !value.isEmpty else { return nil }
        return value
    }()

    /// Whether the tests run under CI (`CI=true`), where a missing server is a failure.
    static let underCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Why the server tests skip (shown by the test runner).
    static let skipReason: Comment = "SHOPSH_TEST_POSTGRES is not set (make test starts a server with scripts/postgres-cluster)"

    /// The parsed URL; throws when unset or malformed.
    static func connectionURL() throws -> PostgresConnectionString {
        guard let url else { throw ShopError.storage("SHOPSH_TEST_POSTGRES is not set") }
        return try PostgresConnectionString(url, environment: ProcessInfo.processInfo.environment)
    }

    /// Creates a new, empty schema and returns its name (`t_` and 32 hex digits: an identifier
    /// made here, so it can be part of the DDL; no value from outside is).
    static func makeSchema() async throws -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await withAdminClient { client, logger in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(name)"), logger: logger)
        }
        return name
    }

    /// Runs `body` with a client on the test database's default schema.
    @discardableResult
    static func withAdminClient<T: Sendable>(_ body: @Sendable (PostgresClient, Logger) async throws -> T) async throws -> T {
        let url = try connectionURL()
        let configuration = PostgresClient.Configuration(host: url.hosts[0].name, port: url.hosts[0].port, username: url.user,
                                                         password: url.password, database: url.database, tls: .disable)
        let logger = Logger(label: "shopsh.tests.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client, logger)
        }
    }
}
