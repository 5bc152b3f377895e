// MessageQuoting: quotes text taken from a file or a command line for a one-line error message,
// so a message never carries raw control characters (a newline, an escape sequence) from its input.

extension String {
    /// The text in double quotes, escaped and shortened for an error message.
    ///
    /// `"`, `\`, LF, CR and TAB become `\"`, `\\`, `\n`, `\r`, `\t`; other control and format
    /// characters (C0, DEL, C1, bidi overrides, zero-width marks, U+2028/2029) become `\u{…}`. Text longer
    /// than `limit` characters is cut and ends in `…`, so a huge field stays a short message.
    public func quotedForMessage(limit: Int = 40) -> String {
        var out = "\""
        var count = 0
        for scalar in unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator:
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
