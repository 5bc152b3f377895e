// Addresses: `users address USER list|add|update|remove|default` — a customer's saved addresses
// (issue 35). Each change is one transaction in the store; bad input changes nothing; a viewer
// sees them masked (PersonalDataMask.address), in every format.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// What `users address USER …` does.
enum AddressAction: String, ChoiceArgument, Sendable {
    case list, add, update, remove, `default`
}

/// Which default an address becomes (`--default`, `users address USER default ID --for`).
enum AddressDefaultChoice: String, ChoiceArgument, Sendable {
    case shipping, billing, both

    var uses: Set<AddressUse> {
        switch self {
        case .shipping: [.shipping]
        case .billing: [.billing]
        case .both: [.shipping, .billing]
        }
    }
}

/// The one place where a saved address becomes output columns and cells.
enum AddressRows {
    static let columns = ["id", "user_id", "name", "line1", "line2", "city", "state", "postal_code", "country", "phone", "defaults"]
        .map(Column.init)

    /// What a table shows: enough to tell addresses apart on a call, the street lines cut first.
    static let tableView = TableView(["id", "name", "line1", "city", "postal_code", "country", "defaults"], optional: ["name"])

    static func cells(_ saved: CustomerAddress) -> [Cell] {
        let address = saved.address
        return [.integer(saved.id), .integer(saved.userID), .text(address.name), .text(address.line1), .text(address.line2),
                .text(address.city), .text(address.state), .text(address.postalCode), .text(address.country),
                address.phone.map(Cell.text) ?? .null,
                .text(AddressUse.allCases.filter(saved.defaults.contains).map(\.rawValue).joined(separator: ","))]
    }
}

extension UsersCommand {
    /// `users address USER list|add|update|remove|default [ID] [fields]`.
    struct Address: ShellCommand {
        static let configuration = CommandConfiguration(
            commandName: "address",
            abstract: "A customer's saved addresses: list, add, update, remove, default.",
            discussion: """
                users address USER list; users address USER add --line1 TEXT --city TEXT --country CC [--name] [--line2] [--state] \
                [--postal-code] [--phone] [--default shipping|billing|both]; users address USER update ID [fields]; \
                users address USER remove ID; users address USER default ID [--for shipping|billing|both]. \
                The first address a customer saves is their default for shipping and billing. COUNTRY is an ISO 3166-1 \
                alpha-2 code (US, DE, GB). Checkout copies the default shipping address into the order, which keeps it.
                """)

        /// Changing needs support; listing, any role.
        static let operation: ShopOperation? = .editAddress
        var invocationOperation: ShopOperation? { action == .list ? nil : .editAddress }

        @Argument(help: ArgumentHelp("The customer's id, username or email.", valueName: "user"), completion: .shop(.user))
        var user: String

        @Argument(help: ArgumentHelp("What to do: \(AddressAction.choices).", valueName: "action"),
                  completion: .list(AddressAction.allValueStrings))
        var action: AddressAction

        @Argument(help: ArgumentHelp("The address's id (update, remove, default).", valueName: "id"))
        var id: Int64?

        @Option(parsing: .unconditional, help: "Who the parcel is for (empty: the customer).")
        var name: String?
        @Option(parsing: .unconditional, help: "The first line: street and number.")
        var line1: String?
        @Option(parsing: .unconditional, help: "The second line (flat, floor; empty clears it).")
        var line2: String?
        @Option(parsing: .unconditional, help: "The city.")
        var city: String?
        @Option(parsing: .unconditional, help: "The state, region or county.")
        var state: String?
        @Option(name: .customLong("postal-code"), parsing: .unconditional, help: "The postal code.")
        var postalCode: String?
        @Option(parsing: .unconditional, help: "The country: an ISO 3166-1 alpha-2 code (US, DE, GB).")
        var country: String?
        @Option(parsing: .unconditional, help: "A phone number for the carrier (empty clears it).")
        var phone: String?

        @Option(name: .customLong("default"), help: ArgumentHelp("Make the new address the default: \(AddressDefaultChoice.choices).",
                                                                 valueName: "use"))
        var makeDefault: AddressDefaultChoice?

        @Option(name: .customLong("for"), help: ArgumentHelp("Which default (default action): \(AddressDefaultChoice.choices).",
                                                             valueName: "use"))
        var use: AddressDefaultChoice = .both

        @OptionGroup var output: OutputOptions

        var changes: AddressChanges {
            AddressChanges(name: name, line1: line1, line2: line2, city: city, state: state, postalCode: postalCode, country: country,
                           phone: phone.map { $0.trimmingASCIISpaces.isEmpty ? nil : $0 })
        }

        func run(in context: CommandContext) async throws {
            let addresses = context.services.addresses
            switch action {
            case .list:
                try refuseFields()
                let saved = try await addresses.addresses(user)
                try await context.list(columns: AddressRows.columns, tableView: AddressRows.tableView, options: output, page: Page(),
                                       emptyNote: "\(user) has no saved address (add one: users address \(user) add …)") { emit in
                    for address in saved { try emit(AddressRows.cells(address)) }
                }
            case .add:
                guard id == nil else { throw ShopError.usage("users address USER add takes no id") }
                guard let line1, let city, let country else {
                    let missing = [("--line1", self.line1), ("--city", self.city), ("--country", self.country)].filter { $0.1 == nil }.map(\.0)
                    throw ShopError.usage("users address USER add needs \(missing.joined(separator: ", "))")
                }
                let added = try await addresses.addAddress(user, PostalAddress(name: name ?? "", line1: line1, line2: line2 ?? "", city: city,
                                                                               state: state ?? "", postalCode: postalCode ?? "",
                                                                               country: country, phone: changes.phone ?? nil),
                                                           defaults: makeDefault?.uses ?? [])
                try context.record(columns: AddressRows.columns, row: AddressRows.cells(added), options: output)
                context.note("added address \(added.id) for \(user)")
            case .update:
                let id = try requiredID()
                guard !changes.isEmpty else {
                    throw ShopError.usage("nothing to update: give at least one of --name, --line1, --line2, --city, --state, --postal-code, --country, --phone")
                }
                let updated = try await addresses.updateAddress(user, id, changes)
                try context.record(columns: AddressRows.columns, row: AddressRows.cells(updated), options: output)
            case .remove:
                let id = try requiredID()
                try refuseFields()
                let removed = try await addresses.removeAddress(user, id)
                context.note("removed address \(removed.id) of \(user); orders keep the address they were placed with")
            case .default:
                let id = try requiredID()
                try refuseFields()
                var made = try await addresses.addresses(user).first { $0.id == id }
                for use in AddressUse.allCases where self.use.uses.contains(use) {
                    made = try await addresses.setDefaultAddress(user, id, for: use)
                }
                if let made { try context.record(columns: AddressRows.columns, row: AddressRows.cells(made), options: output) }
            }
        }

        private func requiredID() throws(ShopError) -> Int64 {
            guard let id else { throw ShopError.usage("users address USER \(action.rawValue) needs the address's id (see: users address \(user) list)") }
            return id
        }

        /// Fields given to an action that takes none are a mistake, never ignored.
        private func refuseFields() throws(ShopError) {
            guard changes.isEmpty, makeDefault == nil else {
                throw ShopError.usage("users address USER \(action.rawValue) takes no address fields")
            }
        }
    }
}
