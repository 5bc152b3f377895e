// InterruptTests: Ctrl-C (SIGINT) sets the flag that commands poll instead of killing the
// process, and the flag can be cleared and checked.

import ShopCore
import Testing
@testable import ShellKit
#if canImport(Glibc)
import Glibc
#endif

@Suite struct InterruptTests {
    @Test func sigintSetsFlagInsteadOfKilling() throws {
        Interrupt.install()
        Interrupt.install()  // twice is harmless
        Interrupt.clear()
        #expect(!Interrupt.isRequested)
        #expect(throws: Never.self) { try Interrupt.checkpoint() }

        // Test threads block SIGINT, so send it to the process (the main thread takes it).
        #expect(kill(getpid(), SIGINT) == 0)
        var waited = 0
        while !Interrupt.isRequested && waited < 200 {
            usleep(10_000)
            waited += 1
        }
        #expect(Interrupt.isRequested)
        #expect(throws: ShopError.interrupted) { try Interrupt.checkpoint() }

        Interrupt.clear()
        #expect(!Interrupt.isRequested)
    }
}
