// DevCommand: `shopsh dev generate --products N --users M --seed S --store PATH` (hidden):
// a large, deterministic shop for benchmarks.

import ArgumentParser
import Foundation
import ShopStoreSQLite

/// `shopsh dev …`: tools for the people who build shopsh.
enum DevCommand {
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "shopsh dev generate",
            abstract: "Create a new store filled with a large generated shop (for benchmarks).")

        @Option(help: "How many products.")
        var products = 1_000_000

        @Option(help: "How many users (baskets, favourites and orders follow in proportion).")
        var users = 200_000

        @Option(help: "The random seed: the same seed gives the same shop.")
        var seed: UInt64 = 1

        @Option(help: "The new store file.")
        var store: String
    }

    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        guard arguments.first == "generate" else {
            Main.printError("usage: shopsh dev generate --products N --users M --seed S --store PATH")
            return 2
        }
        let options: Generate
        switch Main.parse(Generate.self, Array(arguments.dropFirst())) {
        case .parsed(let parsed): options = parsed
        case .exit(let status): return status
        }
        guard !FileManager.default.fileExists(atPath: options.store) else {
            Main.printError("\(options.store) already exists; generate into a new file")
            return 1
        }
        let started = Date()
        do {
            let store = try SQLiteStore(path: options.store, create: true)
            let shop = try store.generateLargeShop(products: options.products, users: options.users, seed: options.seed) {
                Main.printNote("generated \($0)")
            }
            let seconds = Date().timeIntervalSince(started)
            Main.printNote("generated \(options.store): \(shop.products) products, \(shop.users) users, \(shop.basketLines) basket lines, \(shop.favorites) favourites, \(shop.orders) orders in \(String(format: "%.1f", seconds)) s")
            return 0
        } catch {
            Main.printError(error.message)
            return 1
        }
    }
}
