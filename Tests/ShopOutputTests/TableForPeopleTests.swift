// TableForPeopleTests: the table's view for people: short headers, dates for timestamps, optional
// columns that drop out (adjacent ones together), free text cut before labels, ids, SKUs and money
// never cut, records when nothing else fits, and word-wrapped messages.

import ShopCore
import Testing
@testable import ShopOutput

@Suite struct TableForPeopleTests {
    static let columns = ["id", "sku", "title", "first_name", "last_name", "category", "price", "created_at"].map(Column.init)
    static let rows: [[Cell]] = [
        [.integer(1), .text("BEA-ESS-ESS-001"), .text("Essence Mascara Lash Princess, the long-lasting one"),
         .text("Emily"), .text("Johnson"), .text("beauty-and-personal-care"), .decimal(decimal("9.99")),
         .text("2026-04-13T10:20:30Z")],
        [.integer(194), .text("KIT-WOO-WOO-194"), .text("Wooden Rolling Pin"), .text("Michael"), .text("Williams"),
         .text("kitchen-accessories"), .decimal(decimal("1000000000.00")), .text("2026-11-22T23:59:59Z")],
    ]

    func options(width: Int?, optional: Set<String> = [], wide: Bool = false) -> RenderOptions {
        var options = RenderOptions(format: .table, wide: wide, terminalWidth: width)
        options.optionalFields = optional
        return options
    }

    @Test(arguments: [40, 60, 80, 120, 200])
    func noLineIsWiderThanTheTerminalAndFixedValuesAreWhole(width: Int) throws {
        let text = try renderList(Self.columns, Self.rows, options(width: width, optional: ["first_name", "last_name"]))
        for line in text.lines { #expect(DisplayWidth.of(line) <= width, "\(line)") }
        for whole in ["BEA-ESS-ESS-001", "KIT-WOO-WOO-194", "1000000000.00", "9.99", "194", "2026-11-22"] {
            #expect(text.contains(whole), "\(whole) at \(width)")
        }
    }

    @Test func headersAreShortAndTimestampsAreDates() throws {
        let text = try renderList(Self.columns, Self.rows, options(width: nil))
        #expect(text.lines[0].hasPrefix(" id  sku              title"))
        #expect(text.lines[0].contains("first name") && text.lines[0].hasSuffix("created"))
        #expect(text.lines[2].hasSuffix("2026-04-13"))
        #expect(!text.contains("T10:20:30Z"))
    }

    @Test func freeTextIsCutBeforeLabels() throws {
        let text = try renderList(Self.columns, Self.rows, options(width: 120))
        // The title gives way first; the category (a label) stays whole while that is enough.
        #expect(text.contains("beauty-and-personal-care"))
        #expect(!text.contains("Essence Mascara Lash Princess, the long-lasting one"))
        #expect(text.contains("Essence Mascara"))
    }

    @Test func adjacentOptionalColumnsGoTogether() throws {
        let text = try renderList(Self.columns, Self.rows, options(width: 100, optional: ["first_name", "last_name"]))
        #expect(!text.contains("first name") && !text.contains("last name"))
        #expect(!text.contains("Emily") && !text.contains("Johnson"))
        let roomy = try renderList(Self.columns, Self.rows, options(width: 200, optional: ["first_name", "last_name"]))
        #expect(roomy.contains("first name") && roomy.contains("last name"))
    }

    @Test func whenNothingFitsEveryRowIsARecord() throws {
        let text = try renderList(Self.columns, Self.rows, options(width: 30))
        #expect(text.lines.first == "-[ RECORD 1 ]")
        #expect(text.lines.contains("sku         KIT-WOO-WOO-194"))
        #expect(text.lines.contains("-[ RECORD 2 ]"))
        for line in text.lines { #expect(DisplayWidth.of(line) <= 30, "\(line)") }
    }

    @Test func wideShowsEverythingUncut() throws {
        let text = try renderList(Self.columns, Self.rows, options(width: 40, wide: true))
        #expect(text.contains("Essence Mascara Lash Princess, the long-lasting one"))
        #expect(!text.contains("-[ RECORD"))
    }

    @Test func aViewCanRenameItsHeaders() throws {
        var options = options(width: nil)
        options.headers = ["created_at": "placed"]
        let text = try renderList(Self.columns, Self.rows, options)
        #expect(text.lines[0].hasSuffix("placed"))
    }

    @Test func messagesWrapAtWordsAndNeverCutOne() {
        let text = "basket of emilys: total 13037.88 USD · discounted 11510.81 USD · 12 items in 4 lines"
        let wrapped = TextWrap.wrap(text, width: 40)
        #expect(wrapped.split(separator: "\n").allSatisfy { DisplayWidth.of(String($0)) <= 40 })
        #expect(wrapped.replacingOccurrences(of: "\n", with: " ") == text)
        #expect(TextWrap.wrap("a-very-long-word-that-cannot-fit here", width: 10) == "a-very-long-word-that-cannot-fit\nhere")
        #expect(TextWrap.wrap(text, width: 200) == text)
    }
}
