// PasswordHasher: salted PBKDF2-HMAC-SHA256 password hashes (swift-crypto), parameters stored beside them.

import Crypto
import _CryptoExtras
import Foundation
import ShopCore

/// Hashes and verifies passwords. A stored hash reads
/// `pbkdf2-sha256$<iterations>$<salt, base64>$<key, base64>`, so the cost can rise later
/// without breaking old hashes.
enum PasswordHasher {
    /// The cost for passwords set by an operator.
    static let defaultIterations = 210_000
    /// The cost for the demo shop's 208 imported accounts, so first run stays quick; the
    /// parameters are stored with each hash and `users passwd` re-hashes at the full cost.
    static let demoIterations = 4_096

    static func hash(_ password: String, iterations: Int = defaultIterations) throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: .min ... .max, using: &generator) }
        let key = try derive(password, salt: salt, iterations: iterations)
        return "pbkdf2-sha256$\(iterations)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    static func verify(_ password: String, against stored: String) throws -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let iterations = Int(parts[1]), iterations > 0,
              let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3])) else {
            throw ShopError.storage("the stored password hash has an unknown format")
        }
        let key = try derive(password, salt: Array(salt), iterations: iterations)
        // Constant-time comparison.
        guard key.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(key, expected) { difference |= left ^ right }
        return difference == 0
    }

    private static func derive(_ password: String, salt: [UInt8], iterations: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: salt, using: .sha256,
                                                    outputByteCount: 32, unsafeUncheckedRounds: iterations)
        return key.withUnsafeBytes { Array($0) }
    }
}
