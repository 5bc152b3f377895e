// RunScope: `--atomic` and `--dry-run`: one store transaction around a whole batch run.

import Foundation
import ShellKit
import ShopCore

/// Opens the run transaction before a batch and decides at the end: `--atomic` keeps every change
/// only if every command succeeded; `--dry-run` always undoes them. Without either flag each
/// command is its own transaction and this does nothing.
struct RunScope {
    let atomic: Bool
    let dryRun: Bool
    let transaction: (any RunTransaction)?

    private var isActive: Bool { atomic || dryRun }

    /// Opens the transaction; returns an exit status when that fails.
    func begin() -> Int32? {
        guard isActive else { return nil }
        guard let transaction else {
            Main.printError("this store cannot run a batch in one transaction")
            return 1
        }
        do {
            try Blocking.run { () async -> Result<Void, ShopError> in
                do { try await transaction.begin(); return .success(()) } catch { return .failure(Self.shopError(error)) }
            }.get()
            return nil
        } catch {
            Main.printError(error.message)
            return 1
        }
    }

    /// Commits or rolls back according to the run's exit `status`, says what happened, and
    /// returns the status the process exits with.
    func end(_ status: Int32) -> Int32 {
        guard isActive, let transaction else { return status }
        let commit = !dryRun && status == 0
        let ended = Blocking.run { () async -> Result<Void, ShopError> in
            do { try await transaction.end(commit: commit); return .success(()) } catch { return .failure(Self.shopError(error)) }
        }
        if case .failure(let error) = ended {
            Main.printError("the run's changes could not be \(commit ? "kept" : "undone"): \(error.message)")
            return 1
        }
        if dryRun {
            Main.printNote("dry run: every change was undone")
        } else if !commit {
            Main.printNote("atomic run: a command failed, so every change of the run was undone")
        }
        return status
    }

    private static func shopError(_ error: any Error) -> ShopError {
        (error as? ShopError) ?? .storage("\(error)")
    }
}
