// TestStores: the stores the plugin tests run on — a SQLite file, or (with SHOPSH_TEST_STORE=postgres,
// as `make test`'s second pass sets it) a fresh schema on the PostgreSQL server in SHOPSH_TEST_POSTGRES —
// and raw SQL through each store's own command-line client, for checks behind the services' back.

import Foundation
import ShopCore
import ShopStorePostgres
import ShopStoreSQLite
import PostgresConnectionKit

/// A store made for one test, and how to run SQL on it with the store's own client.
public struct TestStore: Sendable {
    public var store: any ShopStore
    /// Runs SQL with `sqlite3` or `psql` and returns its output (`|` between values, a line a row).
    public var sql: @Sendable (String) throws -> String
}

/// Makes the stores the plugin tests run on: a new store in `folder`, its services stamped by `clock`.
public struct TestStoreFactory: Sendable {
    /// `sqlite` or `postgres`.
    public var name: String
    public var make: @Sendable (_ folder: URL, _ clock: ShopClock) async throws -> TestStore

    public init(name: String, make: @escaping @Sendable (_ folder: URL, _ clock: ShopClock) async throws -> TestStore) {
        self.name = name
        self.make = make
    }

    /// The store this test run is about: PostgreSQL when `SHOPSH_TEST_STORE=postgres`, else SQLite.
    public static var current: TestStoreFactory {
        ProcessInfo.processInfo.environment["SHOPSH_TEST_STORE"] == "postgres" ? .postgres : .sqlite
    }

    /// A SQLite file in the folder.
    public static let sqlite = TestStoreFactory(name: "sqlite") { folder, clock in
        let path = folder.appendingPathComponent("shop.sqlite").path
        let store = try SQLiteStore(path: path, create: true, clock: clock)
        return TestStore(store: store) { sql in try CommandLineClient.run(["sqlite3", path, sql]) }
    }

    /// A new schema on the server in `SHOPSH_TEST_POSTGRES`. SQLite's `group_concat` is defined in
    /// it (as an aggregate over `string_agg`'s rule), so the tests' checks read the same on both.
    public static let postgres = TestStoreFactory(name: "postgres") { _, clock in
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["SHOPSH_TEST_POSTGRES"], !url.isEmpty else {
            throw HarnessError.failed("SHOPSH_TEST_STORE=postgres", "SHOPSH_TEST_POSTGRES is not set")
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        _ = try CommandLineClient.psql(url, schema: nil, """
            CREATE SCHEMA \(schema);
            CREATE FUNCTION \(schema).group_concat_step(state text, value text, separator text) RETURNS text
                LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT state || separator || value $$;
            CREATE AGGREGATE \(schema).group_concat(text, text) (SFUNC = \(schema).group_concat_step, STYPE = text);
            CREATE FUNCTION \(schema).group_concat_step(state text, value text) RETURNS text
                LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT state || ',' || value $$;
            CREATE AGGREGATE \(schema).group_concat(text) (SFUNC = \(schema).group_concat_step, STYPE = text);
            """)
        let store = try await PostgresStore.open(try PostgresStore.settings(url, environment: environment),
                                                 searchPath: schema, clock: clock)
        return TestStore(store: store) { sql in try CommandLineClient.psql(url, schema: schema, sql) }
    }
}

/// Runs the stores' own command-line clients.
public enum CommandLineClient {
    /// `psql` on `url` (in `schema` when given), unaligned and tuples only, stopping at the first error.
    public static func psql(_ url: String, schema: String?, _ sql: String) throws -> String {
        // SQLite-only statements the checks use (foreign keys are always on in PostgreSQL).
        let portable = sql.replacingOccurrences(of: "PRAGMA foreign_keys = ON;", with: "")
        var environment = ProcessInfo.processInfo.environment
        if let schema { environment["PGOPTIONS"] = "-c search_path=\(schema)" }
        return try run(["psql", url, "-AtqX", "-v", "ON_ERROR_STOP=1", "-c", portable], environment: environment)
    }

    /// Runs `arguments` (found on PATH) and returns its stdout, trimmed; a failure is an error with its stderr.
    public static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let result = try outcome(arguments, environment: environment)
        guard result.status == 0 else { throw HarnessError.failed(arguments.prefix(2).joined(separator: " "), result.errors) }
        return result.output
    }

    /// Runs `arguments` (found on PATH) and returns how it ended: its status, stdout (trimmed) and stderr.
    public static func outcome(_ arguments: [String], environment: [String: String]? = nil) throws
        -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        // Closed here, not whenever Foundation lets the Process go: a suite that runs thousands of
        // children would otherwise hold their pipes open (see ShopshSandbox.run).
        defer { for pipe in [output, errors] { try? pipe.fileHandleForReading.close() } }
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                String(decoding: errorData, as: UTF8.self))
    }
}
