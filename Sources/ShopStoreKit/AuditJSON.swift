// AuditJSON: how every store keeps an audit row's changed fields: one compact JSON object with
// sorted keys (SQLite TEXT, PostgreSQL JSONB), and how it reads them back.

import Foundation
import ShopCore

extension AuditFields {
    /// The fields as one compact JSON object with sorted keys.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var object: [String: StoredAuditValue] = [:]
        for name in fieldNames where object[name] == nil { object[name] = self[name].map(StoredAuditValue.init) }
        guard let data = try? encoder.encode(object) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads what `jsonText` wrote; nil for anything that is not a JSON object of such values.
    public init?(jsonText: String) {
        guard let object = try? JSONDecoder().decode([String: StoredAuditValue].self, from: Data(jsonText.utf8)) else { return nil }
        self.init(object.keys.sorted().map { ($0, object[$0]?.value ?? .null) })
    }
}

/// An `AuditValue` as JSON: null, a boolean, a whole number, text, or a list of texts.
private struct StoredAuditValue: Codable {
    var value: AuditValue

    init(_ value: AuditValue) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let number = try? container.decode(Int64.self) {
            value = .integer(number)
        } else if let text = try? container.decode(String.self) {
            value = .text(text)
        } else {
            value = .list(try container.decode([String].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch value {
        case .null: try container.encodeNil()
        case .integer(let number): try container.encode(number)
        case .text(let text): try container.encode(text)
        case .bool(let flag): try container.encode(flag)
        case .list(let items): try container.encode(items)
        }
    }
}
