// PostgresServerChoiceTests: which server target_session_attrs accepts (PostgreSQL 14+ semantics),
// prefer-standby's second pass, and what a read-only session asks for when the string said nothing
// or said read-write (as `pg_autoctl show uri` does). No server needed.

import Testing

@testable import PostgresConnectionKit

@Suite struct PostgresServerChoiceTests {
    typealias State = PostgresServerChoice.ServerState
    let primary = State(inRecovery: false, readOnly: false)
    let standby = State(inRecovery: true, readOnly: true)
    let readOnlyPrimary = State(inRecovery: false, readOnly: true)

    func choice(_ text: String, readOnly: Bool = false) throws -> PostgresServerChoice {
        PostgresServerChoice(try PostgresConnectionString(text, environment: [:], osUser: "ann"), readOnly: readOnly)
    }

    @Test func eachAttributeAcceptsWhatLibpqAccepts() throws {
        let url = "postgres://ann@h1:5432,h2:5433/shop?target_session_attrs="
        let expected: [(String, accepts: [Bool])] = [   // primary, standby, read-only primary
            ("any", [true, true, true]),
            ("read-write", [true, false, false]),
            ("read-only", [false, true, true]),
            ("primary", [true, false, true]),
            ("standby", [false, true, false]),
        ]
        for (attribute, accepts) in expected {
            let choice = try choice(url + attribute)
            let got = [primary, standby, readOnlyPrimary].map { choice.mismatch($0, strict: true) == nil }
            #expect(got == accepts, "\(attribute)")
            #expect(!choice.hasSecondPass)
        }
    }

    @Test func preferStandbyTakesAPrimaryOnlyInItsSecondPass() throws {
        let choice = try choice("postgres://ann@h1,h2/shop?target_session_attrs=prefer-standby")
        #expect(choice.hasSecondPass)
        #expect(choice.mismatch(standby, strict: true) == nil)
        #expect(choice.mismatch(primary, strict: true) != nil)
        #expect(choice.mismatch(primary, strict: false) == nil)
    }

    @Test func aReadOnlySessionPrefersAStandbyUnlessTheStringAskedForTheServerItWants() throws {
        #expect(try choice("postgres://ann@h1,h2/shop", readOnly: true).attributes == .preferStandby)
        #expect(try choice("postgres://ann@h1,h2/shop?target_session_attrs=read-write", readOnly: true).attributes == .preferStandby)
        #expect(try choice("postgres://ann@h1,h2/shop?target_session_attrs=primary", readOnly: true).attributes == .primary)
        #expect(try choice("postgres://ann@h1,h2/shop?target_session_attrs=any", readOnly: true).attributes == .any)
        #expect(try choice("postgres://ann@h1,h2/shop?target_session_attrs=read-write").attributes == .readWrite)
        #expect(try choice("postgres://ann@h1,h2/shop").attributes == .any)
    }

    @Test func hostsKeepTheirOrderUnlessBalanced() throws {
        let names = try choice("postgres://ann@h1,h2,h3/shop").hosts.map(\.name)
        #expect(names == ["h1", "h2", "h3"])
        var seen: Set<[String]> = []
        for _ in 0..<50 {
            seen.insert(try choice("postgres://ann@h1,h2,h3/shop?load_balance_hosts=random").hosts.map(\.name))
        }
        #expect(seen.count > 1)
        #expect(seen.allSatisfy { Set($0) == ["h1", "h2", "h3"] })
    }
}
