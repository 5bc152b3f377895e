// RunScope: `--atomic` and `--dry-run`: one store transaction around a whole batch run.

import Foundation
import ShellKit
import ShopCore

/// Starts the store's run before a batch and decides at the end: `--atomic` keeps every change
/// only if every command succeeded; `--dry-run` always undoes them. Without either flag each
/// command is its own transaction and the batch uses the store's plain services.
final class RunScope {
    let atomic: Bool
    let dryRun: Bool
    private var run: (any StoreRun)?

    init(atomic: Bool, dryRun: Bool) {
        self.atomic = atomic
        self.dryRun = dryRun
    }

    private var isActive: Bool { atomic || dryRun }

    /// The services the batch runs on, or the exit status when the run could not start.
    enum Start {
        case success(ShopServices)
        case failure(Int32)
    }

    /// Starts the run on `store` (when `--atomic` or `--dry-run` asks for one).
    func begin(on store: any ShopStore) -> Start {
        guard isActive else { return .success(store.services) }
        let started = Blocking.run { () async -> Result<any StoreRun, ShopError> in
            do { return .success(try await store.beginRun()) } catch { return .failure(Self.shopError(error)) }
        }
        switch started {
        case .success(let run):
            self.run = run
            return .success(run.services)
        case .failure(let error):
            Main.printError(error.message)
            return .failure(1)
        }
    }

    /// Commits or rolls back according to the run's exit `status`, says what happened, and
    /// returns the status the process exits with. `pluginsOutside` are the external plugins that
    /// ran during the run: as separate programs, outside its transaction, so what they did (if
    /// they wrote despite declaring `"writes": false`) was not undone with it.
    /// `exitAsked`: the run ended with `exit N`, which is then what the note names.
    func end(_ status: Int32, pluginsOutside: [String] = [], exitAsked: Bool = false) -> Int32 {
        guard let run else { return status }
        let commit = !dryRun && status == 0
        let ended = Blocking.run { () async -> Result<Void, ShopError> in
            do { try await run.end(commit: commit); return .success(()) } catch { return .failure(Self.shopError(error)) }
        }
        if case .failure(let error) = ended {
            if case .keptWithoutAnswer(let message) = error {
                Main.printNote(message)
                return status
            }
            Main.printError("the run's changes could not be \(commit ? "kept" : "undone"): \(error.message)")
            return 1
        }
        let undone = pluginsOutside.isEmpty ? "every change of the run was undone"
            : "the run's own changes were undone; " + Self.outside(pluginsOutside)
        if dryRun {
            Main.printNote("dry run: " + (pluginsOutside.isEmpty ? "every change was undone" : undone))
        } else if !commit {
            Main.printNote("atomic run: " + (exitAsked ? "it ended with exit \(status)" : "a command failed") + ", so " + undone)
        }
        return status
    }

    /// `the external plugin lowstock ran outside it (…)`: what shopsh cannot say was undone.
    private static func outside(_ plugins: [String]) -> String {
        let one = plugins.count == 1
        return "the external plugin\(one ? "" : "s") \(plugins.joined(separator: ", ")) ran outside it "
            + "(\(one ? "its description says it does" : "their descriptions say they do") not write; "
            + "shopsh cannot undo what a plugin did)"
    }

    private static func shopError(_ error: any Error) -> ShopError {
        (error as? ShopError) ?? .storage("\(error)")
    }
}
