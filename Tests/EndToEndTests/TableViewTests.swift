// TableViewTests: the views operators use most, at the prompt in real 80- and 120-column terminals
// (tmux): no row wraps, ids, SKUs and money are shown whole, and machine formats keep every field.

import Foundation
import Testing

@Suite(.serialized, .enabled(if: TerminalSession.available, "needs tmux (make test installs it)"))
struct TableViewTests {
    static let commands = ["basket show emilys", "products list --limit 12", "orders list", "users list --limit 12",
                           "favorites list emilys"]

    @Test(arguments: [80, 120])
    func theViewsOperatorsUseMostFitTheTerminal(width: Int) async throws {
        let sandbox = try await ShopshSandbox()
        _ = try await sandbox.ok("basket checkout jamesd")
        _ = try await sandbox.ok("favorites add emilys 113")
        _ = try await sandbox.ok("favorites add emilys 1")
        let terminal = TerminalSession(sandbox: sandbox)
        try await terminal.start(width: width, height: 120, pager: "cat")
        for (index, command) in Self.commands.enumerated() {
            try await terminal.send(command, "Enter")
            try await terminal.waitFor { $0.components(separatedBy: "\(terminal.prompt)>").count == index + 3 }
        }
        let screen = try await terminal.joinedScreen()
        for line in screen.split(separator: "\n") {
            #expect(line.count <= width, "a line wraps at \(width) columns: \(line)")
        }
        #expect(!screen.contains("-[ RECORD"))
        // Whole values: SKUs and ids of products, the basket's money, the order's total, emails' users.
        for whole in ["MOT-GEN-GEN-113", "BEA-ESS-ESS-001", "3999.99", "10547.97", "emilys", "michaelw"] {
            #expect(screen.contains(whole), "\(whole) at \(width) columns:\n\(screen)")
        }
        let orderTotal = try await sandbox.ok("orders list --limit 1 -o tsv --fields discounted_total --no-header").trimmingCharacters(in: .newlines)
        #expect(!orderTotal.isEmpty && screen.contains(orderTotal))
    }

    /// Piped output is tsv with the same fields as before tables changed; json keeps every field.
    @Test func machineFormatsKeepTheirFields() async throws {
        let sandbox = try await ShopshSandbox()
        let header = try await sandbox.ok("products list --limit 1").split(separator: "\n").first.map(String.init)
        #expect(header == "id\tsku\ttitle\tcategory\tbrand\tprice\tcurrency\tdiscount_percentage\tstock\trating\tbarcode\t"
                + "availability\tweight\twidth\theight\tdepth\twarranty\tshipping\treturn_policy\timages")
        let basket = try await #require(try sandbox.json("basket show emilys -o json") as? [String: Any])
        let line = try #require((basket["lines"] as? [[String: Any]])?.first)
        #expect(Set(line.keys) == ["product_id", "sku", "title", "unit_price", "discount_percentage", "quantity", "total",
                                   "discounted_total", "currency"])
        let users = try await sandbox.ok("users list --limit 1 -o csv").split(separator: "\r\n").first.map(String.init)
        #expect(users == "id,username,email,first_name,last_name,role,status")
    }
}
