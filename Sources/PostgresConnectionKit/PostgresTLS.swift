// PostgresTLS: libpq's `sslmode` as postgres-nio's TLS setting. `disable` and `allow` connect in
// plain text (allow's retry with TLS is not offered); `prefer` and `require` encrypt without
// checking the server's certificate (require refuses a server without TLS) — unless a root
// certificate is there (`sslrootcert`, or `~/.postgresql/root.crt`), which makes `require` check
// the chain as `verify-ca` does; `verify-ca` checks the chain against the root certificate,
// `verify-full` the host name too. `sslrootcert=system` uses the system's trust roots.

import Foundation
import PostgresNIO

package enum PostgresTLS {
    /// The TLS setting for a connection made with `settings`.
    package static func configuration(_ settings: PostgresConnectionString,
                              environment: [String: String]) throws(PostgresKitError) -> PostgresConnection.Configuration.TLS {
        do {
            switch settings.tls {
            case .disable, .allow:
                return .disable
            case .prefer:
                return .prefer(try NIOSSLContext(configuration: client(verifying: .none, roots: nil)))
            case .require:
                guard let roots = try rootCertificates(settings, environment: environment, required: false) else {
                    return .require(try NIOSSLContext(configuration: client(verifying: .none, roots: nil)))
                }
                return .require(try NIOSSLContext(configuration: client(verifying: .noHostnameVerification, roots: roots)))
            case .verifyCA:
                let roots = try rootCertificates(settings, environment: environment, required: true)
                return .require(try NIOSSLContext(configuration: client(verifying: .noHostnameVerification, roots: roots)))
            case .verifyFull:
                let roots = try rootCertificates(settings, environment: environment, required: true)
                return .require(try NIOSSLContext(configuration: client(verifying: .fullVerification, roots: roots)))
            }
        } catch let error as PostgresKitError {
            throw error
        } catch {
            throw .storage("cannot set up TLS (sslmode=\(settings.tls.rawValue)): \(error)")
        }
    }

    /// A client configuration that checks the server's certificate as `verifying` says.
    private static func client(verifying: CertificateVerification, roots: NIOSSLTrustRoots?) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = verifying
        if let roots { configuration.trustRoots = roots }
        return configuration
    }

    /// The roots a server's certificate is checked against: `sslrootcert` (`system`: the system's),
    /// else `~/.postgresql/root.crt` when it exists. When `required` and there is none: libpq's refusal.
    private static func rootCertificates(_ settings: PostgresConnectionString, environment: [String: String],
                                         required: Bool) throws(PostgresKitError) -> NIOSSLTrustRoots? {
        if settings.sslRootCert == "system" { return .default }
        let path = settings.sslRootCert ?? defaultRootCertificatePath(environment: environment)
        if let path, FileManager.default.isReadableFile(atPath: path) { return .file(path) }
        guard required else { return nil }
        let named = path.map { "the root certificate file \($0) does not exist" } ?? "no root certificate file is named"
        throw .usage("sslmode=\(settings.tls.rawValue) checks the server's certificate, but \(named): give one with sslrootcert=FILE, use sslrootcert=system for the system's trust roots, or choose sslmode=require")
    }

    /// libpq's default: `~/.postgresql/root.crt`.
    private static func defaultRootCertificatePath(environment: [String: String]) -> String? {
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.postgresql/root.crt"
    }
}
