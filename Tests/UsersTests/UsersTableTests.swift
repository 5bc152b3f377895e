// UsersTableTests: `users list` as a table for people at 40, 80, 120 and 200 columns.

import Testing
import TestSupport
import Users

@Suite struct UsersTableTests {
    @Test func usersListIsReadableAtEveryWidth() async throws {
        let problems = try await tableProblems(plugins: [usersPlugin], command: "users list --limit 30",
                                               uncutFields: ["id", "username", "role", "status"])
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
