// DevCommand: `shopsh dev generate --products N --users M --seed S --store PATH` (hidden):
// a large, deterministic shop for benchmarks; `dev complete-bench` and `dev search-bench` time
// Tab and product search in process (a shell's cost per request, without start-up).

import ArgumentParser
import Dispatch
import Foundation
import ShellKit
import ShopCore

/// `shopsh dev …` (hidden): tools for the people who build shopsh.
struct DevMode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev", abstract: "Tools for the people who build shopsh.", shouldDisplay: false,
        subcommands: [Generate.self, CompleteBench.self, SearchBench.self])

    struct Generate: DevFunctionMode {
        static let configuration = CommandConfiguration(
            abstract: "Create a new store filled with a large generated shop (for benchmarks).")

        @Option(help: "How many products.")
        var products = 1_000_000

        @Option(help: "How many users (baskets and favourites follow in proportion).")
        var users = 200_000

        @Option(help: "About how many orders, over the year before today (default: one per five users).")
        var orders: Int?

        @Option(help: "The random seed: the same seed gives the same shop.")
        var seed: UInt64 = 1

        /// `--store`, the binary's own option: the new store (a file, or an empty PostgreSQL database).
        @ParentCommand var shopsh: ShopshCommand

        static let runs = DevMode.generate
    }

    /// `shopsh dev complete-bench --store PATH [--count N]`: times the completion engine in
    /// process (what one Tab costs at the prompt) for product-id and email prefixes and title words.
    struct CompleteBench: DevFunctionMode {
        static let configuration = CommandConfiguration(
            abstract: "Time the completion engine in process for product ids, emails and title words.")

        @ParentCommand var shopsh: ShopshCommand
        @Option var count = 500

        static let runs = DevMode.completeBench
    }

    /// `shopsh dev search-bench --store PATH [--count N] QUERY…`: times `products search QUERY
    /// --limit 20` in process, each query on its own (the service call a shell makes).
    struct SearchBench: StoreMode {
        static let configuration = CommandConfiguration(
            abstract: "Time product search in process for each query (the first 20 results).")

        @ParentCommand var shopsh: ShopshCommand
        @Option var count = 200
        @Argument(help: "The queries, one argument each.") var queries: [String]

        func run(environment: [String: String]) -> Int32 {
            guard let store = StoreFactory.openIfPresent(store, environment: [:]) else {
                Main.printError("cannot open \(StoreFactory.shown(store))")
                return 1
            }
            let products = store.services.products
            DevMode.time(queries.map { query in (query, {
                try await products.searchProducts(query, filter: ProductFilter(), page: Page(limit: 20)) { _ in }
            }) }, count: count)
            return 0
        }
    }

    /// Times each case `count` times after its first request and 100 warm-up requests (their
    /// pages come into the store's cache, as they would in a shell open a while) and prints its
    /// median and p99 in ms.
    static func time(_ cases: [(name: String, request: @Sendable () async throws -> Void)], count: Int) {
        for (name, request) in cases {
            func timed() -> Double {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = Blocking.run { try? await request() }
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
            }
            let first = timed()
            var slowestWarmUp = first
            for _ in 0..<min(100, count) { slowestWarmUp = max(slowestWarmUp, timed()) }
            var times = (0..<max(1, count)).map { _ in timed() }
            times.sort()
            let median = times[times.count / 2], p99 = times[min(times.count - 1, times.count * 99 / 100)]
            let figures = [median, p99, first, slowestWarmUp].map { String(format: "%.2f", $0) }
            print("\(name): median \(figures[0]) ms, p99 \(figures[1]) ms over \(times.count) requests (first request \(figures[2]) ms, slowest of the 100 warm-up requests \(figures[3]) ms)")
        }
    }

    static func generate(_ options: Generate) -> Int32 {
        if case .sqlite(let path) = StoreFactory.target(options.store), FileManager.default.fileExists(atPath: path) {
            Main.printError("\(options.store) already exists; generate into a new file")
            return 1
        }
        let started = Date()
        do {
            let shop = try StoreFactory.generate(at: options.store, products: options.products, users: options.users,
                                                 orders: options.orders, seed: options.seed) { Main.printNote("generated \($0)") }
            let seconds = Date().timeIntervalSince(started)
            Main.printNote("generated \(StoreFactory.shown(options.store)): \(shop.products) products, \(shop.users) users, \(shop.basketLines) basket lines, \(shop.favorites) favourites, \(shop.orders) orders in \(String(format: "%.1f", seconds)) s")
            return 0
        } catch {
            Main.printError(error.message)
            return 1
        }
    }
}

extension DevMode {
    static func completeBench(_ options: CompleteBench) -> Int32 {
        guard let store = StoreFactory.openIfPresent(options.store, environment: [:]) else {
            Main.printError("cannot open \(StoreFactory.shown(options.store))")
            return 1
        }
        let engine = CompletionEngine(plugins: allPlugins, source: store.services.completions)
        let names = ["emily", "michael", "sophia", "jose", "zoe", "soren", "chloe", "lukasz", "ana", "yuki", "omar", "ingrid"]
        // Starts of `dev generate`'s title words (common and rare), and a word no title holds.
        let titleWords = ["la", "lam", "kett", "tea", "oak", "cop", "vint", "ste", "mar", "schü", "crê", "qqz"]
        let cases: [(String, @Sendable () -> [String])] = [
            ("product id prefix", { ["products", "show", String(Int.random(in: 1...99_999))] }),
            ("email prefix", { ["basket", "show", (names.randomElement() ?? "emily") + "."] }),
            ("product title words", { ["products", "show", titleWords.randomElement() ?? "lam"] }),
        ]
        DevMode.time(cases.map { name, makeWords in (name, {
            let words = makeWords()
            _ = await engine.candidates(before: Array(words.dropLast()), prefix: words.last ?? "")
        }) }, count: options.count)
        return 0
    }
}

/// A dev mode that needs `--store` (the binary's own option, read through the parent command).
protocol StoreMode: ShopshMode {
    var shopsh: ShopshCommand { get }
}

/// A dev mode whose work is one of DevMode's functions (`runs`).
protocol DevFunctionMode: StoreMode {
    static var runs: (Self) -> Int32 { get }
}

extension DevFunctionMode {
    func run(environment: [String: String]) -> Int32 { Self.runs(self) }
}

extension StoreMode {
    /// The store `--store` names.
    var store: String { shopsh.options.store ?? "" }

    func validate() throws {
        if shopsh.options.store == nil { throw ValidationError("Missing expected argument '--store <store>'") }
    }
}
