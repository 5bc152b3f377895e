// PostgresConnectionString+Keywords: the keywords libpq knows (which shopsh honours, ignores or refuses, and
// their environment variables) and the keyword=value form (`host=h1,h2 dbname=shop user='a b'`).

import Foundation

// MARK: - Keywords

extension PostgresConnectionString {
    /// What shopsh does with a libpq keyword.
    package enum KeywordUse {
        /// Read and honoured.
        case used
        /// Accepted and left out: harmless (some only with certain values; see `checked`).
        case ignored
        /// Refused: it would change security or meaning in a way shopsh cannot honour.
        case refused
    }

    /// Every libpq keyword (PostgreSQL 18) and what shopsh does with it.
    package static let keywordUses: [String: KeywordUse] = [
        "host": .used, "hostaddr": .used, "port": .used, "dbname": .used, "user": .used,
        "password": .used, "passfile": .used, "connect_timeout": .used, "sslmode": .used,
        "requiressl": .used, "sslrootcert": .used, "target_session_attrs": .used,
        "load_balance_hosts": .used, "service": .used, "servicefile": .used,
        "application_name": .used, "fallback_application_name": .used,
        "keepalives": .ignored, "keepalives_idle": .ignored, "keepalives_interval": .ignored,
        "keepalives_count": .ignored, "tcp_user_timeout": .ignored, "client_encoding": .ignored,
        "sslcompression": .ignored, "sslsni": .ignored, "gssencmode": .ignored,
        "channel_binding": .ignored, "sslnegotiation": .ignored, "sslcertmode": .ignored,
        "gsslib": .ignored, "gssdelegation": .ignored,
        "sslcert": .refused, "sslkey": .refused, "sslpassword": .refused, "sslcrl": .refused,
        "sslcrldir": .refused, "sslkeylogfile": .refused, "options": .refused, "requirepeer": .refused,
        "require_auth": .refused, "krbsrvname": .refused, "replication": .refused,
        "ssl_min_protocol_version": .refused, "ssl_max_protocol_version": .refused,
        "min_protocol_version": .refused, "max_protocol_version": .refused,
        "oauth_issuer": .refused, "oauth_client_id": .refused, "oauth_client_secret": .refused,
        "oauth_scope": .refused,
    ]

    /// The environment variable libpq reads for a keyword that neither the string nor the service
    /// file gives (`service` and `servicefile` are read before the others, so elsewhere).
    package static let environmentVariables: [String: String] = [
        "host": "PGHOST", "hostaddr": "PGHOSTADDR", "port": "PGPORT", "dbname": "PGDATABASE",
        "user": "PGUSER", "password": "PGPASSWORD", "passfile": "PGPASSFILE",
        "connect_timeout": "PGCONNECT_TIMEOUT", "sslmode": "PGSSLMODE", "sslrootcert": "PGSSLROOTCERT",
        "target_session_attrs": "PGTARGETSESSIONATTRS", "load_balance_hosts": "PGLOADBALANCEHOSTS",
        "application_name": "PGAPPNAME", "client_encoding": "PGCLIENTENCODING",
        "sslcompression": "PGSSLCOMPRESSION", "sslsni": "PGSSLSNI", "gssencmode": "PGGSSENCMODE",
        "channel_binding": "PGCHANNELBINDING", "sslnegotiation": "PGSSLNEGOTIATION",
        "sslcertmode": "PGSSLCERTMODE", "gsslib": "PGGSSLIB", "gssdelegation": "PGGSSDELEGATION",
        "sslcert": "PGSSLCERT", "sslkey": "PGSSLKEY", "sslcrl": "PGSSLCRL", "sslcrldir": "PGSSLCRLDIR",
        "options": "PGOPTIONS", "requirepeer": "PGREQUIREPEER", "require_auth": "PGREQUIREAUTH",
        "krbsrvname": "PGKRBSRVNAME", "ssl_min_protocol_version": "PGSSLMINPROTOCOLVERSION",
        "ssl_max_protocol_version": "PGSSLMAXPROTOCOLVERSION",
        "min_protocol_version": "PGMINPROTOCOLVERSION", "max_protocol_version": "PGMAXPROTOCOLVERSION",
    ]

    /// The keywords whose values are secrets: masked or removed wherever they are written.
    package static let secretKeywords: Set<String> = ["password", "sslpassword", "oauth_client_secret"]

    /// libpq's default port.
    package static let defaultPort = 5432

    /// libpq's default socket directory on Debian and Ubuntu (`DEFAULT_PGSOCKET_DIR`).
    package static let defaultSocketDirectory = "/var/run/postgresql"

    /// Whether `name` is a libpq keyword.
    package static func isKeyword(_ name: String) -> Bool {
        keywordUses[name] != nil
    }

    /// Whether `name` may stand in a service file's section (where libpq rejects `service`, and
    /// its old spellings are not read).
    package static func isServiceFileKeyword(_ name: String) -> Bool {
        isKeyword(name) && !["service", "servicefile", "requiressl"].contains(name)
    }

    /// A keyword and value as libpq stores them: the old `requiressl=1` is `sslmode=require`.
    package static func normalized(_ keyword: String, _ value: String) -> (String, String) {
        guard keyword == "requiressl" else { return (keyword, value) }
        return ("sslmode", value.hasPrefix("1") ? "require" : "prefer")
    }
}

// MARK: - Keyword = value settings

extension PostgresConnectionString {
    /// Reads `keyword = value` settings one at a time as libpq's conninfo_parse does: blanks
    /// around `=`; a value ends at a blank unless single-quoted; `\` escapes the next character
    /// (so `'it\'s'` and `a\ b`). Keeps where each setting lies, for redaction.
    package struct KeywordScanner {
        package struct Item {
            package var keyword: String
            package var value: String
            /// From the keyword to the end of the value.
            package var range: Range<String.Index>
            /// The value as written, quotes included.
            package var valueRange: Range<String.Index>
        }

        package enum Problem: Error {
            /// A word not followed by `=` (the scanner goes on after it).
            case missingEquals(word: String, range: Range<String.Index>)
            /// A quoted value that runs to the end.
            case unterminatedQuote(keyword: String, range: Range<String.Index>, valueStart: String.Index)
        }

        package let text: Substring
        package var position: String.Index

        package init(_ text: Substring) {
            self.text = text
            position = text.startIndex
        }

        /// The next setting; nil at the end.
        package mutating func next() throws(Problem) -> Item? {
            skipBlanks()
            guard position < text.endIndex else { return nil }
            let start = position
            let keyword = word()
            let wordEnd = position
            skipBlanks()
            guard current == "=" else { throw .missingEquals(word: keyword, range: start..<wordEnd) }
            advance()
            skipBlanks()
            let valueStart = position
            let value: String
            if current == "'" {
                advance()
                guard let quoted = quotedValue() else {
                    throw .unterminatedQuote(keyword: keyword, range: start..<text.endIndex, valueStart: valueStart)
                }
                value = quoted
            } else {
                value = plainValue()
            }
            return Item(keyword: keyword, value: value, range: start..<position, valueRange: valueStart..<position)
        }

        /// The first word if `=` follows it, without reading further.
        package mutating func keywordAhead() -> String? {
            skipBlanks()
            let keyword = word()
            skipBlanks()
            return current == "=" && !keyword.isEmpty ? keyword : nil
        }

        private var current: Character? { position < text.endIndex ? text[position] : nil }

        private mutating func advance() {
            position = text.index(after: position)
        }

        private mutating func skipBlanks() {
            while let character = current, character.isWhitespace { advance() }
        }

        /// Characters up to `=` or a blank.
        private mutating func word() -> String {
            var word = ""
            while let character = current, character != "=", !character.isWhitespace {
                word.append(character)
                advance()
            }
            return word
        }

        /// An unquoted value: up to a blank, `\` escaping the next character.
        private mutating func plainValue() -> String {
            var value = ""
            while let character = current, !character.isWhitespace {
                advance()
                if character == "\\" {
                    if let escaped = current { value.append(escaped); advance() }
                } else {
                    value.append(character)
                }
            }
            return value
        }

        /// A quoted value after its opening quote, up to the closing one; nil when there is none.
        private mutating func quotedValue() -> String? {
            var value = ""
            while let character = current {
                advance()
                switch character {
                case "'":
                    return value
                case "\\":
                    if let escaped = current { value.append(escaped); advance() }
                default:
                    value.append(character)
                }
            }
            return nil
        }
    }
}
