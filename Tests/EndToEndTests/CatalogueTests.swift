// CatalogueTests: reviews, barcodes and product details through the built binary (issue 38) —
// the demo's reviews listed, counted and averaged as the bundled DummyJSON file has them; a hidden
// review left out of a product's count and mean, and back in when shown again; only an admin
// deletes; every demo barcode (most with a wrong EAN-13 check digit) finds its product, while a
// made-up code with a wrong check digit is refused in one line; details set and cleared by
// `products update`; an exported catalogue imports into an empty shop unchanged; a viewer reads
// reviewers' emails masked in every format. Every expected value is computed here from
// Sources/ShopStoreKit/DemoData/products.json. On SQLite, and on PostgreSQL in the second pass;
// support and viewer logins at a PostgreSQL server in CatalogueServerRulesTests (first pass).

import CSV
import Foundation
import Testing
import TestSupport

// MARK: - The bundled demo data

/// The demo shop's products as the bundled DummyJSON file has them.
struct DemoCatalogue {
    struct Review {
        var rating: Int
        var comment: String
        var date: String
        var name: String
        var email: String
    }

    struct Product {
        var id: Int
        var sku: String
        var rating: Decimal
        var barcode: String
        var images: [String]          // the thumbnail first, then the images
        var weight: Decimal?
        var width: Decimal?
        var height: Decimal?
        var depth: Decimal?
        var warranty: String?
        var shipping: String?
        var returnPolicy: String?
        var availability: String?
        var reviews: [Review]
    }

    let products: [Product]

    var reviews: [Review] { products.flatMap(\.reviews) }

    func product(_ id: Int) async throws -> Product { try #require(products.first { $0.id == id }, "no product \(id) in the data") }

    /// Reads products.json, found from this source file as the other tests find the demo data.
    static func load() async throws -> DemoCatalogue {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ShopStoreKit/DemoData/products.json")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [[String: Any]])
        let products = try records.map { record -> Product in
            let dimensions = record["dimensions"] as? [String: Any] ?? [:]
            let reviews = try (record["reviews"] as? [[String: Any]] ?? []).map { review in
                Review(rating: try #require(review["rating"] as? Int), comment: try #require(review["comment"] as? String),
                       date: try #require(review["date"] as? String), name: try #require(review["reviewerName"] as? String),
                       email: try #require(review["reviewerEmail"] as? String))
            }
            return Product(id: try #require(record["id"] as? Int), sku: try #require(record["sku"] as? String),
                           rating: try #require(Figures.decimal(record["rating"])),
                           barcode: try #require((record["meta"] as? [String: Any])?["barcode"] as? String),
                           images: [record["thumbnail"] as? String].compactMap { $0 } + (record["images"] as? [String] ?? []),
                           weight: Figures.decimal(record["weight"]), width: Figures.decimal(dimensions["width"]),
                           height: Figures.decimal(dimensions["height"]), depth: Figures.decimal(dimensions["depth"]),
                           warranty: record["warrantyInformation"] as? String, shipping: record["shippingInformation"] as? String,
                           returnPolicy: record["returnPolicy"] as? String, availability: record["availabilityStatus"] as? String,
                           reviews: reviews)
        }
        try #require(products.count == 194, "the demo data has 194 products")
        return DemoCatalogue(products: products)
    }
}

// MARK: - Small helpers

/// Figures as the tests compute them: exact decimals, hundredths, EAN-13 check digits, masks, days.
enum Figures {
    /// A JSON number as an exact decimal (nil for anything else, JSON null included).
    static func decimal(_ value: Any?) -> Decimal? {
        guard let number = value as? NSNumber else { return nil }
        return Decimal(string: number.stringValue)
    }

    /// A JSON number as a whole count of hundredths (nil when it is not a number or has more decimals).
    static func hundredths(_ value: Any?) -> Int? {
        guard var scaled = decimal(value).map({ $0 * 100 }) else { return nil }
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .plain)
        return whole == scaled ? NSDecimalNumber(decimal: whole).intValue : nil
    }

    /// The mean of `ratings` in hundredths, rounded half away from zero (ratings are positive); nil for none.
    static func meanHundredths(_ ratings: [Int]) -> Int? {
        guard !ratings.isEmpty else { return nil }
        return (200 * ratings.reduce(0, +) + ratings.count) / (2 * ratings.count)
    }

    /// The EAN-13 check digit of a code's first 12 digits: weights 1, 3, 1, 3, … and (10 - sum % 10) % 10.
    static func checkDigit(_ first12: String) -> Int {
        let sum = first12.prefix(12).compactMap(\.wholeNumberValue).enumerated()
            .reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return (10 - sum % 10) % 10
    }

    /// Whether a 13-digit code (or a 12-digit UPC-A, as an EAN-13 with a leading 0) has its check digit right.
    static func hasRightCheckDigit(_ code: String) -> Bool {
        let full = code.count == 12 ? "0" + code : code
        guard full.count == 13, full.allSatisfy({ $0.isASCII && $0.isNumber }), let last = full.last?.wholeNumberValue else { return false }
        return checkDigit(full) == last
    }

    /// `email` masked as a viewer reads it (README: `e***@x.dummyjson.com`): its first character, `***`, then from the `@`.
    static func masked(_ email: String) -> String {
        guard let at = email.firstIndex(of: "@"), at != email.startIndex else { return "***" }
        return String(email.prefix(1)) + "***" + String(email[at...])
    }

    /// Where two texts first differ, with a little context, for a failure message.
    static func firstDifference(_ one: String, _ other: String) -> String {
        let (a, b) = (Array(one.utf8), Array(other.utf8))
        let at = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[min(bytes.count, max(0, at - 80))..<min(bytes.count, at + 80)], as: UTF8.self)
        }
        return "at byte \(at) of \(a.count)/\(b.count): «\(around(a))» vs «\(around(b))»"
    }

    /// The day `days` after `day` (YYYY-MM-DD, UTC).
    static func day(_ day: String, plus days: Int) async throws -> String {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd"
        let date = try #require(format.date(from: day), "not a day: \(day)")
        return format.string(from: date.addingTimeInterval(Double(days) * 86_400))
    }
}

/// Runs one command line as some operator and returns how it ended.
typealias ShopshRun = (String) async throws -> ShopshSandbox.Result

extension ShopshSandbox.Result {
    /// Refused: a non-zero exit, exactly one line on stderr, nothing on stdout.
    var refusedInOneLine: Bool {
        status != 0 && stderr.split(separator: "\n").count == 1 && stdout.isEmpty
    }

    /// A successful run's stdout as one JSON object.
    func object(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        #expect(status == 0, "\(stderr)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: stdoutData) as? [String: Any], "\(stderr)", sourceLocation: sourceLocation)
    }

    /// A successful run's stdout as a JSON array of objects.
    func objects(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[String: Any]] {
        #expect(status == 0, "\(stderr)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: stdoutData) as? [[String: Any]], "\(stderr)", sourceLocation: sourceLocation)
    }
}

// MARK: - Checks shared by the suites

/// Hiding and unhiding, for any operator who may (the run's own on SQLite and the server's owner;
/// a support login at a server).
enum ReviewModeration {
    /// The product as `run` shows it.
    static func product(_ run: ShopshRun, _ id: Int) async throws -> [String: Any] {
        try await run("products show \(id) -o json").object()
    }

    /// The store's id of `review` of `product` (matched on its rating, comment, name and email).
    static func reviewID(_ run: ShopshRun, of product: DemoCatalogue.Product, _ review: DemoCatalogue.Review) async throws -> Int {
        let rows = try await run("reviews list --product \(product.id) --all -o json").objects()
        let matching = rows.filter {
            $0["rating"] as? Int == review.rating && $0["comment"] as? String == review.comment
                && $0["reviewer_name"] as? String == review.name && $0["reviewer_email"] as? String == review.email
        }
        try #require(matching.count == 1, "review \(review) of product \(product.id) among \(rows)")
        return try #require(matching[0]["id"] as? Int)
    }

    /// The first product of the data with a review whose hiding changes the product's mean, and that review's index.
    static func reviewThatMovesTheMean(_ data: DemoCatalogue) async throws -> (DemoCatalogue.Product, Int) {
        for product in data.products {
            let ratings = product.reviews.map(\.rating)
            for index in ratings.indices {
                var others = ratings
                others.remove(at: index)
                if !others.isEmpty, Figures.meanHundredths(others) != Figures.meanHundredths(ratings) { return (product, index) }
            }
        }
        throw SandboxError(description: "no review of the demo data moves its product's mean")
    }

    /// Hides a review: the product counts and averages the rest; the review is hidden with the
    /// reason, who and when, and is the one hidden review; unhiding restores the data's figures.
    static func hideAndUnhide(_ run: ShopshRun, data: DemoCatalogue) async throws {
        let (product, index) = try await reviewThatMovesTheMean(data)
        let ratings = product.reviews.map(\.rating)
        var others = ratings
        others.remove(at: index)
        let id = try await reviewID(run, of: product, product.reviews[index])
        let me = try await #require(try run("whoami -o json").object()["operator"] as? String)

        let hid = try await run("reviews hide \(id) --reason 'abusive language'")
        #expect(hid.status == 0, "\(hid.stderr)")
        let hidden = try await run("reviews show \(id) -o json").object()
        #expect(hidden["id"] as? Int == id && hidden["product_id"] as? Int == product.id, "\(hidden)")
        #expect(hidden["state"] as? String == "hidden" && hidden["hidden_reason"] as? String == "abusive language", "\(hidden)")
        #expect((hidden["hidden_by"] as? String).map { !$0.isEmpty } == true && hidden["hidden_by"] as? String == me, "\(hidden) by \(me)")
        #expect((hidden["hidden_at"] as? String).map { !$0.isEmpty } == true, "\(hidden)")

        var shown = try await Self.product(run, product.id)
        #expect(shown["review_count"] as? Int == others.count, "\(shown)")
        #expect(Figures.hundredths(shown["review_mean"]) == Figures.meanHundredths(others), "\(shown["review_mean"] ?? "nil") vs \(others)")
        let onlyHidden = try await run("reviews list --state hidden --all -o json").objects()
        #expect(onlyHidden.map { $0["id"] as? Int } == [id], "\(onlyHidden)")
        let visible = try await run("reviews list --state visible --all -o json").objects()
        #expect(visible.count == data.reviews.count - 1 && !visible.contains { $0["id"] as? Int == id })
        // Without --state both are listed.
        let all = try await run("reviews list --all -o json").objects()
        #expect(all.count == data.reviews.count && all.contains { $0["id"] as? Int == id && $0["state"] as? String == "hidden" })

        let unhid = try await run("reviews unhide \(id)")
        #expect(unhid.status == 0, "\(unhid.stderr)")
        let again = try await run("reviews show \(id) -o json").object()
        #expect(again["state"] as? String == "visible", "\(again)")
        shown = try await Self.product(run, product.id)
        #expect(shown["review_count"] as? Int == ratings.count, "\(shown)")
        #expect(Figures.hundredths(shown["review_mean"]) == Figures.meanHundredths(ratings), "\(shown["review_mean"] ?? "nil") vs \(ratings)")
        await #expect(try run("reviews list --state hidden --all -o json").objects().isEmpty)
    }
}

/// Reviewers' emails as a viewer reads them: masked in json, csv, tsv and the table.
enum CatalogueMasking {
    static func checkMasked(_ run: ShopshRun, data: DemoCatalogue) async throws {
        let emails = Set(data.reviews.map(\.email))
        let masked = Set(emails.map(Figures.masked))
        for format in ["json", "csv", "tsv", "table"] {
            let result = try await run("reviews list --all -o \(format)")
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let verbatim = emails.filter { result.stdout.contains($0) }
            #expect(verbatim.isEmpty, "\(format) shows \(verbatim.sorted().prefix(3))")
            #expect(result.stdout.contains("***@"), "\(format): \(result.stdout.prefix(300))")
            let column: [String]
            switch format {
            case "json":
                column = try await result.objects().compactMap { $0["reviewer_email"] as? String }
            case "csv":
                let reader = try CSVReader(string: result.stdout, hasHeaderRow: true)
                let index = try #require(reader.headerRow?.firstIndex(of: "reviewer_email"))
                var values: [String] = []
                while let row = reader.next() { values.append(row[index]) }
                column = values
            case "tsv":
                let lines = result.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
                let index = try #require(lines.first?.firstIndex(of: "reviewer_email"))
                column = lines.dropFirst().map { $0.count > index ? $0[index] : "" }
            default:
                continue
            }
            #expect(column.count == data.reviews.count && Set(column) == masked,
                    "\(format): \(column.count) rows; unexpected \(Set(column).subtracting(masked).sorted().prefix(3))")
        }
        let id = try await #require(try run("reviews list --limit 1 -o json").objects().first?["id"] as? Int)
        let shown = try await run("reviews show \(id) -o json").object()
        #expect((shown["reviewer_email"] as? String).map { masked.contains($0) } == true, "\(shown)")
    }
}

// MARK: - On the store the run uses

@Suite struct CatalogueTests {
    @Test func everyDemoReviewIsListedAsTheDataHasIt() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        let rows = try await #require(try sandbox.json("reviews list --all -o json") as? [[String: Any]])
        #expect(rows.count == data.reviews.count, "\(rows.count) listed, \(data.reviews.count) in the data")
        #expect(rows.allSatisfy { $0["state"] as? String == "visible" && $0["hidden_reason"] is NSNull
                                  && $0["hidden_by"] is NSNull && $0["hidden_at"] is NSNull })
        // The same reviews, product by product: rating, comment, reviewer and day.
        func key(_ product: Int, _ rating: Int, _ comment: String, _ name: String, _ email: String, _ day: String) -> String {
            [String(product), String(rating), comment, name, email, day].joined(separator: "\u{1F}")
        }
        let listed = rows.map { row in
            key(row["product_id"] as? Int ?? 0, row["rating"] as? Int ?? 0, row["comment"] as? String ?? "",
                row["reviewer_name"] as? String ?? "", row["reviewer_email"] as? String ?? "", String((row["date"] as? String ?? "").prefix(10)))
        }
        let expected = data.products.flatMap { product in
            product.reviews.map { key(product.id, $0.rating, $0.comment, $0.name, $0.email, String($0.date.prefix(10))) }
        }
        #expect(listed.sorted() == expected.sorted())
        #expect(Set(rows.compactMap { $0["id"] as? Int }).count == rows.count, "review ids are unique")

        // reviews show gives one object, the same as its row.
        let first = try #require(rows.first)
        let id = try #require(first["id"] as? Int)
        let shown = try await #require(try sandbox.json("reviews show \(id) -o json") as? [String: Any])
        for field in ["id", "product_id", "rating", "comment", "reviewer_name", "reviewer_email", "date", "state"] {
            #expect("\(shown[field] ?? "missing")" == "\(first[field] ?? "missing")", "\(field): \(shown) vs \(first)")
        }
    }

    @Test func reviewsListFiltersAgreeWithTheData() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        func count(_ options: String) async throws -> Int {
            try await #require(try sandbox.json("reviews list --all \(options) -o json") as? [[String: Any]]).count
        }
        // --product by id, SKU and barcode.
        let product = try await data.product(7)
        for reference in [String(product.id), product.sku, product.barcode] {
            let rows = try await #require(try sandbox.json("reviews list --product \(reference) --all -o json") as? [[String: Any]])
            #expect(rows.count == product.reviews.count && rows.allSatisfy { $0["product_id"] as? Int == product.id }, "\(reference): \(rows)")
            #expect(rows.compactMap { $0["comment"] as? String }.sorted() == product.reviews.map(\.comment).sorted())
        }
        for below in 2...5 {
            await #expect(try count("--rating-below \(below)") == data.reviews.filter { $0.rating < below }.count, "--rating-below \(below)")
        }
        // Days: each day of the data's reviews, all of them, and none the day before the first or after the last.
        let days = Set(data.reviews.map { String($0.date.prefix(10)) }).sorted()
        let firstDay = try #require(days.first), lastDay = try #require(days.last)
        await #expect(try count("--since \(firstDay) --until \(lastDay)") == data.reviews.count)
        for day in days {
            await #expect(try count("--since \(day) --until \(day)") == data.reviews.filter { $0.date.hasPrefix(day) }.count, "\(day)")
        }
        await #expect(try count("--until \(try Figures.day(firstDay, plus: -1))") == 0)
        await #expect(try count("--since \(try Figures.day(lastDay, plus: 1))") == 0)
    }

    @Test func everyProductCountsAndAveragesItsReviewsAsTheDataDoes() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        let rows = try await #require(try sandbox.json("products list --all --fields id,review_count,review_mean -o json") as? [[String: Any]])
        #expect(rows.count == data.products.count)
        let byID = Dictionary(rows.compactMap { row in (row["id"] as? Int).map { ($0, row) } }, uniquingKeysWith: { first, _ in first })
        for product in data.products {
            let ratings = product.reviews.map(\.rating)
            let row = try #require(byID[product.id], "product \(product.id) not listed")
            #expect(row["review_count"] as? Int == ratings.count, "\(product.id): \(row)")
            #expect(Figures.hundredths(row["review_mean"]) == Figures.meanHundredths(ratings),
                    "\(product.id): \(row["review_mean"] ?? "nil") vs \(ratings)")
        }
        // products show agrees for a sample, first to last.
        for id in [1, 50, 97, 150, 194] {
            let product = try await data.product(id)
            let shown = try await #require(try sandbox.json("products show \(id) -o json") as? [String: Any])
            #expect(shown["review_count"] as? Int == product.reviews.count, "\(id): \(shown)")
            #expect(Figures.hundredths(shown["review_mean"]) == Figures.meanHundredths(product.reviews.map(\.rating)), "\(id): \(shown)")
        }
    }

    @Test func hidingAReviewLeavesItOutOfTheCountAndMeanUntilItIsShownAgain() async throws {
        let sandbox = try await ShopshSandbox()
        try await ReviewModeration.hideAndUnhide({ try await sandbox.run(["-c", $0]) }, data: try await DemoCatalogue.load())
    }

    @Test func anAdminDeletesAReviewForGood() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        let run: ShopshRun = { try await sandbox.run(["-c", $0]) }
        let product = try await data.product(3)
        let id = try await ReviewModeration.reviewID(run, of: product, product.reviews[0])
        let deleted = try await run("reviews delete \(id) --yes")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        await #expect(try run("reviews show \(id)").refusedInOneLine)
        await #expect(try run("reviews list --all -o json").objects().count == data.reviews.count - 1)
        let rest = Array(product.reviews.map(\.rating).dropFirst())
        let shown = try await ReviewModeration.product(run, product.id)
        #expect(shown["review_count"] as? Int == rest.count && Figures.hundredths(shown["review_mean"]) == Figures.meanHundredths(rest),
                "\(shown)")
        // Gone: neither shown again nor deleted twice.
        await #expect(try run("reviews unhide \(id)").refusedInOneLine)
        await #expect(try run("reviews delete \(id) --yes").refusedInOneLine)
    }

    @Test func everyDemoBarcodeFindsItsProductAndAWrongCheckDigitIsRefused() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        let wrong = data.products.filter { !Figures.hasRightCheckDigit($0.barcode) }
        #expect(!wrong.isEmpty, "the demo has barcodes with a wrong check digit, and they must still be found")
        // One batch: one ndjson object a line, in the data's order.
        let lines = data.products.map { "products show \($0.barcode) -o ndjson" }
        let result = try await sandbox.run(["-f", try sandbox.file("barcodes.shop", lines.joined(separator: "\n") + "\n")])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        try #require(objects.count == data.products.count, "\(objects.count) of \(data.products.count): \(result.stderr)")
        for (product, shown) in zip(data.products, objects) {
            #expect(shown["id"] as? Int == product.id && shown["barcode"] as? String == product.barcode, "\(product.barcode): \(shown)")
        }

        // Made up a digit off demo barcodes — 13 digits, and the last 12 of another (a UPC-A) — with a
        // wrong check digit and no product's: refused in one line that says mistyped or misread (README).
        let barcodes = Set(data.products.map(\.barcode))
        for base in [data.products[0].barcode, String(data.products[1].barcode.dropFirst())] {
            let stem = String(base.dropLast())
            let right = base.count == 12 ? Figures.checkDigit("0" + stem) : Figures.checkDigit(stem)
            let digit = try #require((0...9).first { $0 != right && !barcodes.contains(stem + String($0)) })
            let code = stem + String(digit)
            try #require(!Figures.hasRightCheckDigit(code) && !barcodes.contains(code))
            let refused = try await sandbox.run(["-c", "products show \(code) -o json"])
            #expect(refused.refusedInOneLine && refused.stderr.contains("mistyped or misread") && refused.stderr.contains(code),
                    "products show \(code): status \(refused.status), \(refused.stderr)")
        }

        // basket add takes a barcode too (a wrong-check-digit one of the demo's).
        let product = try #require(wrong.first)
        func quantity() async throws -> Int {
            let basket = try await #require(try sandbox.json("basket show emilys -o json") as? [String: Any])
            let lines = try #require(basket["lines"] as? [[String: Any]])
            return lines.first { $0["product_id"] as? Int == product.id }?["quantity"] as? Int ?? 0
        }
        let before = try await quantity()
        _ = try await sandbox.ok("basket add emilys \(product.barcode)")
        await #expect(try quantity() == before + 1)
    }

    @Test func listAndShowCarryEachProductsDetailsFromTheData() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        let rows = try await #require(try sandbox.json("products list --all -o json") as? [[String: Any]])
        #expect(rows.count == data.products.count)
        let details = ["barcode", "images", "weight", "width", "height", "depth", "warranty", "shipping", "return_policy", "availability"]
        func problems(_ product: DemoCatalogue.Product, _ row: [String: Any]) -> [String] {
            var problems: [String] = []
            if row["sku"] as? String != product.sku { problems.append("sku") }
            if row["barcode"] as? String != product.barcode { problems.append("barcode") }
            if row["images"] as? [String] != product.images { problems.append("images") }
            for (key, value) in [("weight", product.weight), ("width", product.width), ("height", product.height), ("depth", product.depth)]
                where Figures.decimal(row[key]) != value { problems.append(key) }
            for (key, value) in [("warranty", product.warranty), ("shipping", product.shipping),
                                 ("return_policy", product.returnPolicy), ("availability", product.availability)]
                where row[key] as? String != value { problems.append(key) }
            return problems
        }
        for row in rows {
            #expect(details.allSatisfy { row.keys.contains($0) } && row["review_count"] == nil && row["review_mean"] == nil,
                    "the list's keys: \(row.keys.sorted())")
            let product = try await data.product(try #require(row["id"] as? Int))
            #expect(problems(product, row).isEmpty, "product \(product.id): \(problems(product, row)) in \(row)")
        }
        for id in [1, 100, 194] {
            let product = try await data.product(id)
            let shown = try await #require(try sandbox.json("products show \(id) -o json") as? [String: Any])
            #expect(problems(product, shown).isEmpty, "product \(id): \(problems(product, shown)) in \(shown)")
        }
    }

    @Test func listingSelectsAndSortsByReviewsAndRating() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        let run: ShopshRun = { try await sandbox.run(["-c", $0]) }
        // Fewer visible reviews for two products: all of 7's hidden, one of 9's.
        let (seven, nine) = await (try data.product(7), try data.product(9))
        for (product, index) in seven.reviews.indices.map({ (seven, $0) }) + [(nine, 0)] {
            let id = try await ReviewModeration.reviewID(run, of: product, product.reviews[index])
            let hid = try await run("reviews hide \(id) --reason 'test'")
            #expect(hid.status == 0, "\(hid.stderr)")
        }
        var expected = Dictionary(uniqueKeysWithValues: data.products.map { ($0.id, $0.reviews.count) })
        expected[7] = 0
        expected[9, default: 0] -= 1

        let chosen = try await run("products list --all --fields id,review_count -o json").objects()
        #expect(chosen.allSatisfy { Set($0.keys) == ["id", "review_count"] }, "\(chosen.first ?? [:])")
        #expect(chosen.count == data.products.count && chosen.allSatisfy { row in
            (row["id"] as? Int).map { row["review_count"] as? Int == expected[$0] } == true
        })
        // No visible review: a count of 0 and no mean.
        let none = try await #require(try run("products list --ids 7 --fields id,review_count,review_mean -o json").objects().first)
        #expect(none["review_count"] as? Int == 0 && none["review_mean"] is NSNull, "\(none)")
        await #expect(try ReviewModeration.product(run, 7)["review_mean"] is NSNull)
        for sort in ["review_count:desc", "reviews:desc"] {
            let sorted = try await run("products list --all --sort \(sort) --fields id,review_count -o json").objects()
            let counts = sorted.compactMap { $0["review_count"] as? Int }
            #expect(counts == expected.values.sorted(by: >), "\(sort): \(counts)")
            #expect(sorted.suffix(2).map { $0["id"] as? Int } == [9, 7], "\(sort): \(sorted.suffix(3))")
        }
        let rated = try await run("products list --all --min-rating 4.5 --fields id -o json").objects()
        #expect(rated.compactMap { $0["id"] as? Int }.sorted() == data.products.filter { $0.rating >= 4.5 }.map(\.id).sorted())
    }

    @Test func updateSetsAndClearsDetailsAndRefusesAWrongCheckDigit() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        let run: ShopshRun = { try await sandbox.run(["-c", $0]) }
        let product = try await data.product(5)
        // A barcode with its check digit right, no demo product's.
        let stem = "400638133393"
        let barcode = stem + String(Figures.checkDigit(stem))
        try #require(Figures.hasRightCheckDigit(barcode) && !data.products.contains { $0.barcode == barcode })
        let set = try await run("""
            products update \(product.id) --barcode \(barcode) --images https://img.example/a.webp,https://img.example/b.webp \
            --weight 7.5 --dimensions "1.5 x 2 x 3.25" --warranty "2 year warranty" --shipping "Ships overnight" \
            --return-policy "30 days return policy" --availability "Low Stock"
            """)
        #expect(set.status == 0, "\(set.stderr)")
        var shown = try await ReviewModeration.product(run, product.id)
        #expect(shown["barcode"] as? String == barcode
                && shown["images"] as? [String] == ["https://img.example/a.webp", "https://img.example/b.webp"], "\(shown)")
        #expect(Figures.decimal(shown["weight"]) == Decimal(string: "7.5") && Figures.decimal(shown["width"]) == Decimal(string: "1.5")
                && Figures.decimal(shown["height"]) == 2 && Figures.decimal(shown["depth"]) == Decimal(string: "3.25"), "\(shown)")
        #expect(shown["warranty"] as? String == "2 year warranty" && shown["shipping"] as? String == "Ships overnight"
                && shown["return_policy"] as? String == "30 days return policy" && shown["availability"] as? String == "Low Stock", "\(shown)")
        // The new barcode finds the product; its old one finds nothing.
        await #expect(try run("products show \(barcode) -o json").object()["id"] as? Int == product.id)
        await #expect(try run("products show \(product.barcode)").refusedInOneLine)

        // A wrong check digit: one line, the product as it was.
        let before = try await run("products show \(product.id) -o json").stdout
        let wrong = stem + String((Figures.checkDigit(stem) + 1) % 10)
        try #require(!Figures.hasRightCheckDigit(wrong))
        for command in ["products update \(product.id) --barcode \(wrong)",
                        "products update \(product.id) --barcode \(wrong) --warranty 'changed too'"] {
            let refused = try await run(command)
            #expect(refused.refusedInOneLine && refused.stderr.contains(wrong), "\(command): status \(refused.status), \(refused.stderr)")
        }
        await #expect(try run("products show \(product.id) -o json").stdout == before)

        // A UPC-A (12 digits, its check digit right) is kept as its EAN-13, with a leading 0 (README).
        let upcStem = "03600029145"
        let upc = upcStem + String(Figures.checkDigit("0" + upcStem))
        try #require(Figures.hasRightCheckDigit(upc) && !data.products.contains { $0.barcode == "0" + upc })
        let setUPC = try await run("products update \(product.id) --barcode \(upc)")
        #expect(setUPC.status == 0, "\(setUPC.stderr)")
        await #expect(try ReviewModeration.product(run, product.id)["barcode"] as? String == "0" + upc)
        await #expect(try run("products show \(upc) -o json").object()["id"] as? Int == product.id)

        // Empty values clear every field.
        let cleared = try await run("""
            products update \(product.id) --barcode '' --images '' --weight '' --dimensions '' --warranty '' --shipping '' \
            --return-policy '' --availability ''
            """)
        #expect(cleared.status == 0, "\(cleared.stderr)")
        shown = try await ReviewModeration.product(run, product.id)
        for key in ["barcode", "weight", "width", "height", "depth", "warranty", "shipping", "return_policy", "availability"] {
            #expect(shown.keys.contains(key) && shown[key] is NSNull, "\(key): \(shown[key] ?? "missing")")
        }
        #expect((shown["images"] as? [Any])?.isEmpty == true || shown["images"] is NSNull, "\(shown["images"] ?? "missing")")
        await #expect(try run("products show \(barcode)").refusedInOneLine)
        // The rest of the product is untouched.
        #expect(shown["sku"] as? String == product.sku && shown["review_count"] as? Int == product.reviews.count, "\(shown)")
    }

    @Test(arguments: ["json", "csv"])
    func anExportedCatalogueImportsIntoAnEmptyShopUnchanged(format: String) async throws {
        let sandbox = try await ShopshSandbox()
        let exported = try await sandbox.run(["-c", "products list --all -o \(format)"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let file = sandbox.root.appendingPathComponent("catalogue.\(format)")
        try exported.stdoutData.write(to: file)

        let empty = try await EmptyShop(sandbox)
        defer { empty.drop() }
        let none = try await sandbox.run(["--store", empty.store, "-c", "products list --all -o json"])
        #expect(none.status == 0 && none.stdout == "[]\n", "\(none.stdout) \(none.stderr)")
        let imported = try await sandbox.run(["--store", empty.store, "-c", "products import \(file.path)"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let again = try await sandbox.run(["--store", empty.store, "-c", "products list --all -o \(format)"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdoutData == exported.stdoutData, "the import lists otherwise: \(Figures.firstDifference(exported.stdout, again.stdout))")
    }

    @Test(.aboutTheSQLiteFile) func aViewerReadsReviewersEmailsMaskedInEveryFormat() async throws {
        let sandbox = try await ShopshSandbox()
        let data = try await DemoCatalogue.load()
        // The operator who may write the file (an admin) reads them as they are.
        let plain = try await #require(try sandbox.json("reviews list --all -o json") as? [[String: Any]])
        #expect(Set(plain.compactMap { $0["reviewer_email"] as? String }) == Set(data.reviews.map(\.email)))

        // A viewer: a store file they may only read (as root the run drops to `nobody`, as in HardeningTests).
        let (store, launcher, restore) = try await sandbox.readOnlyCopy()
        defer { restore() }
        let asViewer: ShopshRun = { try await sandbox.run(["--store", store, "-c", $0], launcher: launcher) }
        await #expect(try asViewer("whoami -o json").object()["role"] as? String == "viewer")
        try await CatalogueMasking.checkMasked(asViewer, data: data)
    }
}

// MARK: - Support and viewer logins at a PostgreSQL server

@Suite(.enabled(if: TestServer.url != nil && !ShopshSandbox.onPostgres,
                "needs SHOPSH_TEST_POSTGRES (make test starts a server); runs once, in the first pass"))
struct CatalogueServerRulesTests {
    @Test func supportHidesAndUnhidesAReview() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let asSupport: ShopshRun = { try await shop.sandbox.run(["--store", shop.asSupport, "-c", $0]) }
        await #expect(try asSupport("whoami -o json").object()["role"] as? String == "support")
        try await ReviewModeration.hideAndUnhide(asSupport, data: try DemoCatalogue.load())
    }

    @Test func supportIsRefusedADeleteAndAnAdminDeletes() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let data = try await DemoCatalogue.load()
        let asSupport: ShopshRun = { try await shop.sandbox.run(["--store", shop.asSupport, "-c", $0]) }
        let asAdmin: ShopshRun = { try await shop.sandbox.run(["--store", shop.admin, "-c", $0]) }
        let product = try await data.product(3)
        let id = try await ReviewModeration.reviewID(asAdmin, of: product, product.reviews[0])
        let reviewsBefore = try await asAdmin("reviews list --all -o json").stdout
        let productBefore = try await asAdmin("products show \(product.id) -o json").stdout

        let refused = try await asSupport("reviews delete \(id) --yes")
        #expect(refused.refusedInOneLine && refused.stderr.contains("admin"), "status \(refused.status): \(refused.stderr)")
        await #expect(try asAdmin("reviews list --all -o json").stdout == reviewsBefore)
        await #expect(try asAdmin("products show \(product.id) -o json").stdout == productBefore)

        let deleted = try await asAdmin("reviews delete \(id) --yes")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        await #expect(try asAdmin("reviews show \(id)").refusedInOneLine)
        await #expect(try asAdmin("reviews list --all -o json").objects().count == data.reviews.count - 1)
        await #expect(try ReviewModeration.product(asAdmin, product.id)["review_count"] as? Int == product.reviews.count - 1)
    }

    @Test func aViewerReadsReviewersEmailsMaskedAndSupportAsTheyAre() async throws {
        let shop = try await ShopWithSupportLogin()
        defer { shop.drop() }
        let data = try await DemoCatalogue.load()
        let viewer = try await TeamRolesTests.login(shop.admin, in: "shopsh_viewer")
        defer { _ = try? ShopshSandbox.psqlNow(shop.admin, "DROP ROLE IF EXISTS \(viewer)") }
        let viewerURL = try await TeamRolesTests.url(shop.admin, as: viewer)
        let asViewer: ShopshRun = { try await shop.sandbox.run(["--store", viewerURL, "-c", $0]) }
        await #expect(try asViewer("whoami -o json").object()["role"] as? String == "viewer")
        try await CatalogueMasking.checkMasked(asViewer, data: data)
        // A viewer hides nothing.
        let first = try await #require(try asViewer("reviews list --limit 1 -o json").objects().first?["id"] as? Int)
        let hide = try await asViewer("reviews hide \(first) --reason spam")
        #expect(hide.refusedInOneLine && hide.stderr.contains("support"), "status \(hide.status): \(hide.stderr)")

        let support = try await shop.sandbox.run(["--store", shop.asSupport, "-c", "reviews list --all -o json"]).objects()
        #expect(Set(support.compactMap { $0["reviewer_email"] as? String }) == Set(data.reviews.map(\.email)))
    }
}

// MARK: - An empty shop

/// A new empty shop beside the sandbox's, made by `shopsh init --empty`: a SQLite file in the
/// sandbox, or a new database on the server in SHOPSH_TEST_POSTGRES (dropped by `drop()`).
struct EmptyShop {
    let store: String
    private let database: (admin: String, name: String)?

    init(_ sandbox: ShopshSandbox) async throws {
        if ShopshSandbox.onPostgres {
            guard let admin = TestServer.url, let slash = admin.lastIndex(of: "/") else {
                throw SandboxError(description: "a PostgreSQL shop needs SHOPSH_TEST_POSTGRES")
            }
            let name = "e2e_empty_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await ShopshSandbox.psql(admin, "CREATE DATABASE \(name)")
            database = (admin, name)
            store = String(admin[...slash]) + name
        } else {
            database = nil
            store = sandbox.root.appendingPathComponent("empty.sqlite").path
        }
        let made = try await sandbox.run(["init", "--empty", "--store", store])
        guard made.status == 0 else {
            drop()
            throw SandboxError(description: "shopsh init --empty --store \(store): \(made.stderr)")
        }
    }

    func drop() {
        if let database { _ = try? ShopshSandbox.psqlNow(database.admin, "DROP DATABASE IF EXISTS \(database.name) WITH (FORCE)") }
    }
}
