// ShopStore: what the program needs from any store — a SQLite file now, a PostgreSQL server
// next: its services, runs in one transaction, a name for the prompt, warnings, closing.

/// A shop's storage as the program sees it. The executable's store factory opens one from the
/// `--store` value; everything else holds `services` (or a run's) and never a concrete store.
public protocol ShopStore: AnyObject, Sendable {
    /// The services; each call is its own transaction.
    var services: ShopServices { get }
    /// What the prompt shows and the history file is named after: `shop` for `…/shop.sqlite`.
    var displayName: String { get }
    /// Where the store is, as the operator named it (a path; a URL without its password).
    var location: String { get }
    /// Who is at the shell, their role, and whether the session is read-only.
    var identity: OperatorIdentity { get }
    /// Lines for the operator on opening (e.g. that other users can read the file).
    var warnings: [String] { get }
    /// Starts a run: until it ends, every call of its services joins one transaction.
    func beginRun() async throws -> any StoreRun
    /// Writes a seed (`body` calls the seeder) in one transaction, into a store that holds no
    /// products and no users; returns nil, writing nothing, when it holds some.
    func seed<T>(_ body: (any ShopSeeder) throws -> T) async throws(ShopError) -> T?
    /// Ends the store's use at the end of the process (a file store checkpoints its journal).
    func close()
    /// Where the shell should run its commands' tasks, when not on its own thread: a store that
    /// talks to a server over an event loop offers that loop, so that a command and its queries
    /// run on one thread (no switch of threads per query). nil: the shell's calling thread.
    var preferredExecutor: (any TaskExecutor)? { get }
    /// Which server serves the session, for a store on a server; nil for a file.
    var placement: (any ServerPlacementSource)? { get }
}

extension ShopStore {
    public var preferredExecutor: (any TaskExecutor)? { nil }
    public var placement: (any ServerPlacementSource)? { nil }
}
