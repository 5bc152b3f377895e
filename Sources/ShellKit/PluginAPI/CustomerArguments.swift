// CustomerArguments: USER arguments that may be left out when `use USER` set a current customer.

import ShopCore

extension CommandContext {
    /// Splits positional words into the USER and the rest. `expecting` is how many words follow
    /// USER; when exactly that many are given, the current customer (`use USER`) is the USER.
    ///
    /// `basket add emilys 162` → ("emilys", ["162"]); after `use emilys`, `basket add 162` gives the same.
    public func customer(_ words: [String], expecting: Int, usage: String) throws(ShopError) -> (user: String, rest: [String]) {
        if words.count == expecting + 1 { return (words[0], Array(words.dropFirst())) }
        if words.count == expecting, let current = session.currentUser { return (current, words) }
        if words.count == expecting {
            throw .usage("\(usage): give USER (an id, username or email), or pick a customer first with: use USER")
        }
        throw .usage("\(usage): expected \(expecting == 0 ? "USER" : "USER and \(expecting) more argument\(expecting == 1 ? "" : "s")"), got \(words.count)")
    }
}
