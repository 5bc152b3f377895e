// WatchScreen: what `watch` draws on a terminal before each round: the clear-screen codes and
// the header line (the command on the left, the time in UTC on the right), as watch(1) does.

import Foundation
import ShopOutput

/// The screen furniture of ``WatchCommand``.
enum WatchScreen {
    /// Cursor home, then erase the screen.
    static let clear = "\u{1B}[H\u{1B}[2J"

    /// `Every 1s: orders list --limit 3`: the interval and the command as it could be typed
    /// again (words quoted where needed), secrets masked and control characters escaped.
    static func commandText(_ words: [String], seconds: Double) -> String {
        let line = words.map(LineParser.quotedIfNeeded).joined(separator: " ")
        return "Every \(secondsText(seconds))s: " + TerminalEscaping.escape(CommandSecrets.masked(line))
    }

    /// `2`, `0.5`, `1.25`: the interval without a useless `.0`.
    static func secondsText(_ seconds: Double) -> String {
        if seconds == seconds.rounded(), let whole = Int(exactly: seconds) { return String(whole) }
        return String(seconds)
    }

    /// `left` and the time (`2026-11-23 05:31:02 UTC`) on one line `width` columns wide: the
    /// time at the right edge; `left` cut with `…` when both do not fit; only `left` (cut to
    /// the width) when not even the time and a little of it fit.
    static func header(_ left: String, time: Date, width: Int) -> String {
        let stamp = timestamp(time)
        let stampWidth = DisplayWidth.of(stamp)
        let available = width - stampWidth - 2
        guard available >= 10 else { return cut(left, to: max(1, width)) }
        let shown = cut(left, to: available)
        let gap = width - DisplayWidth.of(shown) - stampWidth
        return shown + String(repeating: " ", count: max(2, gap)) + stamp
    }

    /// `2026-11-23 05:31:02 UTC`.
    static func timestamp(_ time: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: time)
        func two(_ value: Int?) -> String {
            let text = String(value ?? 0)
            return text.count < 2 ? "0" + text : text
        }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) UTC"
    }

    /// `text` cut to at most `width` display columns, ending in `…` when cut.
    static func cut(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        var out = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(String(character))
            if used + characterWidth > width - 1 { break }
            out.append(character)
            used += characterWidth
        }
        return out + "…"
    }
}
