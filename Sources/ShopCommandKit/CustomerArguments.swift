// CustomerArguments: the positional words of a command that acts on a customer: an optional
// leading USER (left out after `use USER`), then the command's own words. Declared once per
// command as `@OptionGroup var words: CustomerArguments<ProductWord>`; help, Tab completion,
// the split and the usage line of its errors all come from that declaration.

import ArgumentParser
import ShopCore
import ShellKit

/// One positional word after USER: how usage lines name it, how help describes it, what Tab offers.
public struct PositionalWord: Sendable {
    public let name: String
    public let help: String
    public let completion: ShellKit.CompletionKind

    /// PRODUCT: an id or SKU.
    public static let product = PositionalWord(name: "PRODUCT", help: "the product's id or SKU", completion: .product)
    /// QTY: a quantity.
    public static let quantity = PositionalWord(name: "QTY", help: "the quantity", completion: .none)
    /// CODE: a coupon code.
    public static let coupon = PositionalWord(name: "CODE", help: "the coupon's code", completion: .coupon)
}

/// The words a customer command takes after USER.
public protocol CustomerCommandWords: Sendable {
    static var words: [PositionalWord] { get }
}

/// Nothing after USER (`basket show [USER]`).
public enum NoMoreWords: CustomerCommandWords {
    public static let words: [PositionalWord] = []
}

/// PRODUCT after USER (`basket add [USER] PRODUCT`).
public enum ProductWord: CustomerCommandWords {
    public static let words: [PositionalWord] = [.product]
}

/// CODE after USER (`basket coupon [USER] CODE`).
public enum CouponWord: CustomerCommandWords {
    public static let words: [PositionalWord] = [.coupon]
}

/// PRODUCT QTY after USER (`basket set [USER] PRODUCT QTY`).
public enum ProductAndQuantityWords: CustomerCommandWords {
    public static let words: [PositionalWord] = [.product, .quantity]
}

extension CustomerCommandWords {
    /// `[USER] PRODUCT QTY`.
    static var synopsis: String {
        (["[USER]"] + words.map(\.name)).joined(separator: " ")
    }

    /// The help line of the words: what USER is and what follows it.
    static var help: String {
        guard !words.isEmpty else { return "The customer (id, username or email); leave out after use USER." }
        let parts = ["the customer (optional after use USER)"] + words.map(\.help)
        let listed = parts.count == 2 ? parts.joined(separator: " and ")
                                      : parts.dropLast().joined(separator: ", ") + ", and " + (parts.last ?? "")
        return synopsis + ": " + listed + "."
    }

    /// The value name help shows: `user`, `user-and-product`, `user-product-qty`.
    static var valueName: String {
        let names = ["user"] + words.map { $0.name.lowercased() }
        return names.count == 2 ? names.joined(separator: "-and-") : names.joined(separator: "-")
    }
}

/// The words of a customer command: `[USER]` then `Words.words`, each once.
public struct CustomerArguments<Words: CustomerCommandWords>: ParsableArguments {
    @Argument(help: ArgumentHelp(Words.help, valueName: Words.valueName),
              completion: .shop([.customer] + Words.words.map(\.completion)))
    var typed: [String] = []

    public init() {}

    /// The customer and the words after it. When exactly `Words.words.count` words are typed,
    /// the current customer (`use USER`) is the USER.
    ///
    /// `basket add emilys 162` → ("emilys", ["162"]); after `use emilys`, `basket add 162` gives the same.
    public func resolve(in context: CommandContext) throws(ShopError) -> (user: String, rest: [String]) {
        let expecting = Words.words.count
        if typed.count == expecting + 1 { return (typed[0], Array(typed.dropFirst())) }
        if typed.count == expecting, let current = context.session.currentUser { return (current, typed) }
        let usage = ([context.commandPath] + [Words.synopsis]).joined(separator: " ")
        if typed.count == expecting {
            throw .usage("\(usage): give USER (an id, username or email), or pick a customer first with: use USER")
        }
        let expected = expecting == 0 ? "USER" : "USER and \(expecting) more argument\(expecting == 1 ? "" : "s")"
        throw .usage("\(usage): expected \(expected), got \(typed.count)")
    }

    /// The customer alone, when an option (`basket coupon [USER] --remove`) stands for the words
    /// after it: USER typed, or the current customer.
    public func resolveCustomerOnly(in context: CommandContext, because option: String) throws(ShopError) -> String {
        if typed.count == 1 { return typed[0] }
        if typed.isEmpty, let current = context.session.currentUser { return current }
        let usage = "\(context.commandPath) [USER] \(option)"
        throw .usage(typed.isEmpty ? "\(usage): give USER (an id, username or email), or pick a customer first with: use USER"
                                   : "\(usage): expected USER alone, got \(typed.count) words")
    }
}
