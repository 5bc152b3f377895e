// DisplayWidthTests: terminal widths of CJK, emoji and combining marks, and cutting with "…".

import Testing
@testable import ShopOutput

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3),
        ("", 0),
        ("東京", 4),
        ("한국어", 6),
        ("\u{1100}\u{1161}\u{11A8}", 2),           // Hangul Jamo L V T: one syllable
        ("Ｒｅｄ", 6),                               // fullwidth Latin
        ("ｱｲ", 2),                                  // halfwidth katakana stay narrow
        ("👍", 2),
        ("👍🏽", 2),                                  // skin-tone modifier
        ("👨‍👩‍👧‍👦", 2),                                  // family: ZWJ sequence
        ("🇯🇵", 2),                                  // flag: regional indicator pair
        ("❤️", 2),                                  // text-default heart + U+FE0F
        ("1️⃣", 2),                                  // keycap
        ("©", 1),                                   // text presentation, no U+FE0F
        ("e\u{301}", 1),                            // e + combining acute
        ("\u{301}", 0),                             // a lone combining mark
        ("a\u{200B}b", 2),                          // zero width space
        ("Prix: 9,99 €", 12),
    ])
    func width(text: String, expected: Int) {
        #expect(DisplayWidth.of(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func truncateLeavesShortTextAlone() {
        #expect(DisplayWidth.truncate("hello", to: 5) == "hello")
        #expect(DisplayWidth.truncate("東京", to: 4) == "東京")
    }

    @Test func truncateCutsByDisplayWidthAndEndsInEllipsis() {
        #expect(DisplayWidth.truncate("hello world", to: 5) == "hell…")
        // 東京都 is 6 columns; with … that would be 7: the wide character that does not fit is dropped.
        #expect(DisplayWidth.truncate("東京都渋谷区", to: 6) == "東京…")
        #expect(DisplayWidth.truncate("東京都渋谷区", to: 7) == "東京都…")
        #expect(DisplayWidth.truncate("👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦", to: 5) == "👨‍👩‍👧‍👦👨‍👩‍👧‍👦…")
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
        #expect(DisplayWidth.truncate("abc", to: 1) == "…")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
    }

    @Test func truncatedTextNeverExceedsTheWidth() {
        let samples = ["東京都渋谷区神宮前", "👍a👍b👍c", "ｱｲｳｴｵ", "mixed 東 and 👍 and e\u{301}"]
        for sample in samples {
            for width in 1...12 {
                #expect(DisplayWidth.of(DisplayWidth.truncate(sample, to: width)) <= width)
            }
        }
    }
}
