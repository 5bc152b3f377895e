// StoreModes: `shopsh init` (a new store: the demo shop or an empty one) and `shopsh roles setup`
// (the PostgreSQL group roles and their grants), two of the binary's own modes.

import ArgumentParser
import ShopCore
import ShopCommandKit

/// `shopsh init [--empty] [--store PATH]`.
struct InitMode: ShopshMode {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a store: the demo shop, or an empty one with --empty.",
        discussion: """
            --store says where: a file, or postgres://USER@HOST:PORT/DB (default: $SHOPSH_STORE or \
            $XDG_DATA_HOME/shopsh/shop.sqlite).
            """)

    @Flag(help: "Create the store without the demo shop.")
    var empty = false

    /// `--store`, the binary's own option (`shopsh init --store PATH`): where to create it.
    @ParentCommand var shopsh: ShopshCommand
    var store: String? { shopsh.options.store }

    func run(environment: [String: String]) -> Int32 {
        do {
            let value = StoreFactory.value(explicit: store, environment: environment)
            guard let done = try StoreFactory.create(value, empty: empty, environment: environment) else {
                let place = value.map(StoreFactory.shown) ?? StoreFactory.defaultPath(environment: environment)
                Main.printError("a store already exists at \(place); remove it first or pick another --store")
                return 1
            }
            Main.printNote(done)
            return 0
        } catch {
            Main.printError(error.message)
            return error.isUsageError ? 2 : 1
        }
    }
}

/// `shopsh roles setup [--store URL]`.
struct RolesMode: ShopshMode {
    static let configuration = CommandConfiguration(
        commandName: "roles",
        abstract: "Create the PostgreSQL roles shopsh_viewer, shopsh_support and shopsh_admin and (re)apply their grants.",
        discussion: "--store names the store: postgres://USER@HOST:PORT/DB (default: $SHOPSH_STORE).")

    /// What `roles` does: `setup` is its one action.
    enum Action: String, ChoiceArgument {
        case setup
    }

    @Argument(help: ArgumentHelp("What to do: \(Action.choices).", valueName: "action"))
    var action: Action

    /// `--store`, the binary's own option (`shopsh roles setup --store URL`).
    @ParentCommand var shopsh: ShopshCommand
    var store: String? { shopsh.options.store }

    func run(environment: [String: String]) -> Int32 {
        do {
            Main.printNote(try StoreFactory.setUpRoles(StoreFactory.value(explicit: store, environment: environment),
                                                  environment: environment))
            return 0
        } catch {
            Main.printError(error.message)
            return error.isUsageError ? 2 : 1
        }
    }
}
