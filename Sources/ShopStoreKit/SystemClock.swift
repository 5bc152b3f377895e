// SystemClock: the wall clock the program's stores read (tests give them a fixed ShopClock).

import Foundation
import ShopCore

extension ShopClock {
    /// The system's clock, in whole seconds.
    public static let system = ShopClock { Int64(Date().timeIntervalSince1970) }
}
