// PasswordHasher: salted PBKDF2-HMAC-SHA256 password hashes (swift-crypto), parameters stored beside them.

import Crypto
import _CryptoExtras
import Foundation
import ShopCore

/// Hashes and verifies passwords. A stored hash reads
/// `pbkdf2-sha256$<iterations>$<salt, base64>$<key, base64>`, so the cost can rise later
/// without breaking old hashes; the demo shop's cheap hashes read `demo-pbkdf2-sha256$…`.
public enum PasswordHasher {
    /// The cost for passwords set by an operator: OWASP's recommendation for PBKDF2-HMAC-SHA256.
    public static let defaultIterations = 600_000
    /// The cost for the demo shop's 208 imported accounts, so that a first run stays quick.
    /// These hashes are marked `demo-` and replaced at the full cost on the next successful
    /// check or `users passwd`.
    public static let demoIterations = 4_096

    public static let scheme = "pbkdf2-sha256"
    public static let demoScheme = "demo-pbkdf2-sha256"

    public static func hash(_ password: String, iterations: Int = defaultIterations, demo: Bool = false) throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in salt.indices { salt[index] = UInt8.random(in: .min ... .max, using: &generator) }
        let key = try derive(password, salt: salt, iterations: iterations)
        return "\(demo ? demoScheme : scheme)$\(iterations)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    /// What checking a password against a stored hash found.
    public struct Verdict {
        public var matches: Bool
        /// Whether the hash should be replaced at today's cost (a demo hash, or fewer iterations).
        public var needsRehash: Bool
    }

    public static func verify(_ password: String, against stored: String) throws -> Verdict {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == scheme || parts[0] == demoScheme, let iterations = Int(parts[1]),
              (1...100_000_000).contains(iterations),
              let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3])) else {
            throw ShopError.storage("the stored password hash has an unknown format")
        }
        let key = try derive(password, salt: Array(salt), iterations: iterations)
        // Constant-time comparison.
        guard key.count == expected.count else { return Verdict(matches: false, needsRehash: false) }
        var difference: UInt8 = 0
        for (left, right) in zip(key, expected) { difference |= left ^ right }
        return Verdict(matches: difference == 0,
                       needsRehash: parts[0] == demoScheme || iterations < defaultIterations)
    }

    private static func derive(_ password: String, salt: [UInt8], iterations: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: salt, using: .sha256,
                                                    outputByteCount: 32, unsafeUncheckedRounds: iterations)
        return key.withUnsafeBytes { Array($0) }
    }
}
