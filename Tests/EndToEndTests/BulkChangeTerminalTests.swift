// BulkChangeTerminalTests: a bulk `products update` at an 80-column prompt, as an operator sees it
// in tmux — the changes first, each line within the terminal, then the question; `n` applies
// nothing, `y` applies them all. And the destructive commands' questions, which name what goes.

import Foundation
import Testing

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct BulkChangeTerminalTests {
    static func price(_ sandbox: ShopshSandbox, _ id: Int) async throws -> Double? {
        let product = try await sandbox.json("products show \(id) -o json") as? [String: Any]
        return (product?["price"] as? NSNumber)?.doubleValue
    }

    @Test func theChangesFitTheScreenThenTheQuestionAndNoChangesNothing() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")   // create the demo shop first
        let before = try await sandbox.ok("products list --all -o json")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: 80)
        try await terminal.send("products update --category smartphones --price -10%", "Enter")
        let asked = try await terminal.waitFor { $0.contains("apply 16 changes to 16 products? [y/N]") }
        let lines = asked.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "a line wider than 80 columns: \(lines.filter { $0.count > 80 })")
        // The changes come before the question: the header, then a row per smartphone.
        let question = try #require(lines.firstIndex { $0.contains("[y/N]") })
        let header = try #require(lines.firstIndex { $0.contains("field") && $0.contains("before") && $0.contains("after") })
        #expect(header < question)
        #expect(lines[header..<question].filter { $0.contains("SMA-") && $0.contains("price") }.count == 16)
        #expect(lines.contains { $0.contains("iPhone 5s") && $0.contains("199.99") && $0.contains("179.99") })
        try await terminal.send("n", "Enter")
        try await terminal.waitFor { $0.contains("nothing was applied") && terminal.promptIsBack($0) }
        await #expect(try sandbox.ok("products list --all -o json") == before)

        try await terminal.send("products update --category smartphones --price -10%", "Enter")
        // The question again, on the last line this time (the first one may still be on the screen).
        try await terminal.waitFor { screen in
            screen.split(separator: "\n").last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty })?
                .hasSuffix("apply 16 changes to 16 products? [y/N]") == true
        }
        try await terminal.send("y", "Enter")
        try await terminal.waitFor { $0.contains("applied 16 changes to 16 products") }
        await #expect(try Self.price(sandbox, 121) == 179.99)
    }

    @Test func destructiveCommandsNameWhatGoesAndNoKeepsIt() async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("products show 1")   // create the demo shop first
        let before = try await sandbox.ok("basket show emilys -o json")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: 120)
        // emilys's cart in DummyJSON: 4 products, 12 items; 2 favourites are added here.
        _ = try await sandbox.ok("favorites add emilys 1")
        _ = try await sandbox.ok("favorites add emilys 2")
        try await terminal.send("users delete emilys", "Enter")
        try await terminal.waitFor { $0.contains("4 basket lines, 2 favourites; orders are kept? [y/N]") }
        try await terminal.send("n", "Enter")
        try await terminal.waitFor { $0.contains("not deleted") && terminal.promptIsBack($0) }
        try await terminal.send("basket clear emilys", "Enter")
        try await terminal.waitFor { $0.contains("clear the basket of emilys: 4 lines, 12 items? [y/N]") }
        try await terminal.send("n", "Enter")
        try await terminal.waitFor { $0.contains("the basket of emilys was not cleared") && terminal.promptIsBack($0) }
        try await terminal.send("products delete 1", "Enter")
        try await terminal.waitFor { $0.contains("delete product 1 (BEA-ESS-ESS-001) Essence Mascara Lash Princess?") }
        try await terminal.send("n", "Enter")
        try await terminal.waitFor { $0.contains("product 1 was not deleted") && terminal.promptIsBack($0) }
        await #expect(try sandbox.ok("basket show emilys -o json") == before)
        await #expect(try sandbox.ok("products show 1 --fields sku").contains("BEA-ESS-ESS-001"))
        // --yes does not ask; a script is never asked (as before).
        try await terminal.send("basket clear emilys --yes", "Enter")
        try await terminal.waitFor { $0.contains("cleared the basket of emilys: 4 lines removed") }
        await #expect(try sandbox.run(["-c", "products delete 2"]).status == 0)
    }
}
