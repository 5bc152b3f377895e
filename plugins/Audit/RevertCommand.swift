// RevertCommand: `audit revert ID` and `audit revert --change-set N` — the inverse of recorded
// changes (AuditRevert), shown as a diff, asked at a terminal, applied in one transaction and
// audited as a change of its own. It refuses when the entity changed since, unless --force.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

extension AuditCommand {
    /// `audit revert ID` / `audit revert --change-set N`.
    struct Revert: ShellCommand {
        static let operation: ShopOperation? = .revertChange
        static let configuration = CommandConfiguration(
            abstract: "Undo a recorded change, or a whole change set.",
            discussion: """
                Product updates, stock changes and basket changes can be undone; a revert is refused in one line \
                for what cannot be (a password, a checkout: cancel the order instead, an order's \
                status, a rates import). The entity must still be as the change left it (--force \
                reverts anyway). The revert is shown first (entity, id, field, now, after the revert), \
                asked at a terminal (--yes skips), shown only with --dry-run, needs --yes in a script \
                for more than one change, and is applied in one transaction: the audit log records it \
                with this command. It needs the role of the changes it undoes. A change set's product \
                updates revert together; a basket change reverts one row at a time.
                """)

        @Argument(help: "The audit entry's id (see audit list).")
        var id: Int64?

        @Option(name: .customLong("change-set"), help: ArgumentHelp("Revert every row of this change set.", valueName: "N"))
        var changeSet: Int64?

        @Flag(help: "Revert even when the entity changed since.")
        var force = false

        @OptionGroup var preview: ChangePreviewOptions
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let audit = context.services.audit
            var entries: [AuditEntry] = []
            switch (id, changeSet) {
            case (let id?, nil): entries = [try await audit.auditEntry(id)]
            case (nil, let set?):
                try await audit.listAudit(AuditFilter(changeSet: set), page: Page()) { entries.append($0) }   // newest first
                guard !entries.isEmpty else { throw ShopError.notFound("no audit entries in change set \(set)") }
            default: throw ShopError.usage("audit revert takes an entry's ID or --change-set N")
            }
            let steps = try entries.map { entry throws(ShopError) in (entry, try AuditRevert.step(for: entry)) }
            for (_, step) in steps {
                if let refusal = context.session.identity.refusal(of: "audit revert", needs: step.operation.leastRole) { throw refusal }
            }
            let what = changeSet.map { "change set \($0)" } ?? "#\(entries[0].id)"
            let onlyProducts = steps.allSatisfy { if case .product = $0.1 { return true } else { return false } }
            if onlyProducts {
                try await revertProducts(steps, what: what, in: context)
            } else if steps.count == 1, case .basketLine(let userID, let productID, let recorded, let restore) = steps[0].1 {
                try await revertBasketLine(entries[0], userID: userID, productID: productID, recorded: recorded, restore: restore,
                                           in: context)
            } else {
                throw ShopError.invalidInput("\(what) holds basket changes with other rows: revert its rows one at a time (audit list --change-set)")
            }
        }

        private func revertProducts(_ steps: [(AuditEntry, AuditRevert.Step)], what: String, in context: CommandContext) async throws {
            let products = context.services.products
            var plans: [ProductChangePlan] = []
            for (entry, step) in steps {
                guard case .product(let id, let recorded, let restore) = step else { continue }
                guard !plans.contains(where: { $0.before.id == id }) else {
                    throw ShopError.invalidInput("\(what) changed product \(id) more than once: revert its rows one at a time, newest first")
                }
                let current = try await products.product(String(id))
                let plan = try AuditRevert.productPlan(current, recorded: recorded, restore: restore, row: entry.id, force: force)
                if !plan.changes.isEmpty { plans.append(plan) }
            }
            guard !plans.isEmpty else { return context.note("nothing to revert: \(what) is already undone") }
            let rows = plans.flatMap { plan in
                plan.fieldChanges.map { change -> [Cell] in
                    [.text("product"), .text(String(plan.before.id)), .text(change.field), .text(change.before), .text(change.after)]
                }
            }
            let summary = "\(rows.count) change\(rows.count == 1 ? "" : "s") to \(plans.count) product\(plans.count == 1 ? "" : "s")"
            let decision = try await context.proceed(with: "the revert of \(what): \(summary)", affecting: plans.count, things: "products",
                                                     preview) { try await show(rows, in: context) }
            guard decision.apply else { return }
            _ = try await products.applyProductChanges(plans)
            if !decision.shown { try await show(rows, in: context) }
            context.note("reverted \(what): \(summary)")
        }

        private func revertBasketLine(_ entry: AuditEntry, userID: Int64, productID: Int64, recorded: Int?, restore: Int?,
                                      in context: CommandContext) async throws {
            let baskets = context.services.baskets
            let basket = try await baskets.basket(String(userID))
            let current = basket.lines.first { $0.productID == productID }?.quantity
            try AuditRevert.checkBasketLine(current: current, recorded: recorded, restore: restore, user: basket.user.username, productID: productID,
                                            row: entry.id, force: force)
            guard current != restore else { return context.note("nothing to revert: #\(entry.id) is already undone") }
            func units(_ quantity: Int?) -> String { quantity.map(String.init) ?? "none" }
            let rows: [[Cell]] = [[.text("basket"), .text(basket.user.username), .text("product \(productID)"), .text(units(current)),
                                   .text(units(restore))]]
            let decision = try await context.proceed(with: "the revert of #\(entry.id)", affecting: 1, things: "basket lines", preview) {
                try await show(rows, in: context)
            }
            guard decision.apply else { return }
            if let restore {
                _ = try await baskets.setBasketQuantity(String(userID), product: String(productID), quantity: restore)
            } else {
                try await baskets.removeFromBasket(String(userID), product: String(productID))
            }
            if !decision.shown { try await show(rows, in: context) }
            context.note("reverted #\(entry.id): the basket of \(basket.user.username) holds \(units(restore)) of product \(productID)")
        }

        private func show(_ rows: [[Cell]], in context: CommandContext) async throws {
            let columns = ["entity", "id", "field", "now", "after_revert"].map(Column.init)
            try await context.list(columns: columns, options: output, page: Page(), emptyNote: "nothing to revert") { emit in
                for row in rows { try emit(row) }
            }
        }
    }
}
