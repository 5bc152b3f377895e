// swift-tools-version: 6.0
// shopsh: a native shell for running an online shop from the terminal.
//
// Dependencies point one way: plugins → ShopCommandKit → ShellKit → LineEditor, PluginHost →
// PluginProtocol → ShopCore; stores → ShopStoreKit → ShopCore; only the `shopsh` executable knows
// which store and which plugins exist (README, "Architecture", draws the graph).
import Foundation
import PackageDescription

/// The command plugins: every folder under `plugins/` that holds Swift sources is one (its tests,
/// if any, are in `Tests/<Name>Tests`). Adding a plugin is its folder and one line in
/// `Sources/shopsh/PluginList.swift`. `plugins/external` (example `shopsh-NAME` executables) and
/// `plugins/PROTOCOL.md` are not targets.
let pluginNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/plugins")) ?? [])
    .filter { name in
        let folder = Context.packageDirectory + "/plugins/" + name
        return !name.hasPrefix(".")
            && ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasSuffix(".swift") }
    }
    .sorted()

let pluginTargets: [Target] = pluginNames.map { name in
    .target(
        name: name,
        dependencies: ["ShopCore", "ShellKit", "ShopCommandKit", "ShopOutput",
                       .product(name: "ArgumentParser", package: "swift-argument-parser")],
        path: "plugins/\(name)"
    )
}

let pluginTests: [Target] = pluginNames.filter { name in
    FileManager.default.fileExists(atPath: Context.packageDirectory + "/Tests/\(name)Tests")
}.map { name in
    .testTarget(
        name: "\(name)Tests",
        dependencies: [.target(name: name), "ShopStoreSQLite", "ShellKit", "ShopCore", "ShopOutput", "TestSupport"],
        path: "Tests/\(name)Tests"
    )
}

/// libFuzzer targets, one folder each under `fuzz/`, only when `SHOPSH_FUZZ=1` (set by `fuzz/run`,
/// which builds them with `-sanitize=fuzzer,address` in `.build-fuzz`). A plain `swift build`
/// or `swift test` never sees them: their `LLVMFuzzerTestOneInput` needs libFuzzer's `main`.
/// `fuzz/FuzzSupport` holds the checks the targets share.
let fuzzTargets: [Target] = Context.environment["SHOPSH_FUZZ"] != "1" ? [] : [
    .target(name: "FuzzSupport", dependencies: ["ShopCore"], path: "fuzz/FuzzSupport"),
    .target(name: "FuzzDriver", path: "fuzz/FuzzDriver"),
] + [
    ("FuzzLineParser", ["ShellKit", "ShopCore", "FuzzSupport"]),
    ("FuzzMoney", ["ShopCore", "FuzzSupport"]),
    ("FuzzProductJSON", ["ShopCore", "FuzzSupport"]),
    ("FuzzProductCSV", ["ShopCore", "FuzzSupport"]),
    ("FuzzECBRates", ["ShopCore", "FuzzSupport"]),
].map { name, dependencies in
    .executableTarget(
        name: name,
        dependencies: (dependencies + ["FuzzDriver"]).map { .target(name: $0) },
        path: "fuzz/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

let package = Package(
    name: "shopsh",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "shopsh", targets: ["shopsh"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
    ],
    targets: [
        .target(name: "ShopCore"),
        // What every store shares: the demo shop's data (DemoData/, with its NOTICE) and password hashing.
        .target(
            name: "ShopStoreKit",
            dependencies: ["ShopCore",
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "_CryptoExtras", package: "swift-crypto")],
            resources: [.copy("DemoData")]
        ),
        .target(
            name: "ShopStoreSQLite",
            dependencies: ["ShopCore", "ShopStoreKit", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // Reaching a PostgreSQL server as libpq would (connection strings, service and password
        // files, TLS, host choice, the wire's ReadyForQuery): nothing of the shop.
        .target(
            name: "PostgresConnectionKit",
            dependencies: [.product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "PostgresConnectionKitTests", dependencies: ["PostgresConnectionKit"]),
        // The shop's rules as the PostgreSQL server holds them: the migrations' functions,
        // triggers and constraints (constant SQL, much of it generated from ShopCore) and the
        // codes its functions refuse with.
        .target(name: "PostgresShopSchema", dependencies: ["ShopCore", "ShopStoreKit"]),
        // The shared-server store (issue 12): every service on PostgreSQL through postgres-nio.
        .target(
            name: "ShopStorePostgres",
            dependencies: ["ShopCore", "ShopStoreKit", "PostgresConnectionKit", "PostgresShopSchema",
                           .product(name: "PostgresNIO", package: "postgres-nio"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "ShopOutput", dependencies: ["ShopCore"]),
        .systemLibrary(
            name: "CReadline",
            path: "Sources/CReadline",
            providers: [.apt(["libreadline-dev"])]
        ),
        // The line editor over GNU readline: prompt, history, Tab's candidates, Ctrl-C.
        .target(name: "LineEditor", dependencies: ["ShopCore", "ShopOutput", "CReadline"]),
        // The external plugins' protocol: the describe JSON and the NDJSON rows, no I/O.
        .target(name: "PluginProtocol", dependencies: ["ShopCore", "ShopOutput"]),
        // Finding, describing and running `shopsh-NAME` executables.
        .target(name: "PluginHost", dependencies: ["PluginProtocol", "ShopCore"]),
        // The shell's core: parse, run, built-ins, completion, terminal and output options.
        .target(
            name: "ShellKit",
            dependencies: ["ShopCore", "ShopOutput", "LineEditor", "PluginProtocol", "PluginHost",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // What the shop's command plugins share: customer arguments, money display, sales
        // report output, change previews.
        .target(
            name: "ShopCommandKit",
            dependencies: ["ShellKit", "LineEditor", "ShopCore", "ShopOutput",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "shopsh",
            dependencies: ["ShopCore", "ShopStoreKit", "ShopStoreSQLite", "ShopStorePostgres", "PostgresConnectionKit", "ShopOutput",
                           "ShellKit", "LineEditor",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
                + pluginNames.map { .target(name: $0) }
        ),
        .target(
            name: "TestSupport",
            dependencies: ["ShellKit", "ShopCore", "ShopOutput", "ShopStoreKit", "ShopStoreSQLite", "ShopStorePostgres",
                           "PostgresConnectionKit"],
            path: "Tests/TestSupport"
        ),
        // FuzzRegressions/: inputs saved from fuzz/ targets, read by the tests through #filePath.
        .testTarget(name: "ShopCoreTests",
                    dependencies: ["ShopCore", "StoreContract", .product(name: "PropertyBased", package: "swift-property-based")],
                    exclude: ["FuzzRegressions"]),
        .testTarget(name: "ShopOutputTests", dependencies: ["ShopOutput", "ShopCore"]),
        .testTarget(name: "LineEditorTests", dependencies: ["LineEditor", "ShopCore"]),
        .testTarget(name: "ShellKitTests", dependencies: ["ShellKit", "LineEditor", "PluginProtocol", "PluginHost", "ShopCommandKit",
                                                          "ShopCore", "ShopOutput"], exclude: ["FuzzRegressions"]),
        // The store contract: what every store must do, through the service protocols only (no
        // store, no GRDB); each store's tests run it with their own fixture.
        .target(name: "StoreContract", dependencies: ["ShopCore"], path: "Tests/StoreContract"),
        .testTarget(name: "ShopStoreSQLiteTests", dependencies: ["ShopStoreSQLite", "ShopStoreKit", "ShopCore", "StoreContract"]),
        // Runs against the server named by SHOPSH_TEST_POSTGRES (`make test` starts one: scripts/postgres-cluster).
        .testTarget(name: "ShopStorePostgresTests", dependencies: ["ShopStorePostgres", "ShopStoreSQLite", "ShopStoreKit", "ShopCore", "StoreContract",
                                                                  "TestSupport", "PostgresConnectionKit", "PostgresShopSchema"]),
        .testTarget(name: "shopshTests", dependencies: ["shopsh", "ShellKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["shopsh", "TestSupport", "ShopStoreKit", .product(name: "CSV", package: "CSV.swift")],
            exclude: ["Scenarios", "BadInput"]
        ),
    ] + pluginTargets + pluginTests + fuzzTargets
)
