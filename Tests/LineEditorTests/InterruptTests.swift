// InterruptTests: the Ctrl-C flag that commands poll can be cleared and checked.
// (A real SIGINT is sent in the end-to-end tmux tests, in a separate process: sending one to
// this test process would interrupt other tests' commands running at the same time.)

import ShopCore
import Testing
@testable import LineEditor

@Suite struct InterruptTests {
    @Test func installingTwiceIsHarmlessAndAClearedFlagDoesNotThrow() throws {
        Interrupt.install()
        Interrupt.install()
        Interrupt.clear()
        #expect(!Interrupt.isRequested)
        #expect(throws: Never.self) { try Interrupt.checkpoint() }
    }
}
