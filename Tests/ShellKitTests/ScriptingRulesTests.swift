// ScriptingRulesTests: the rules under the shell's scripting, alone — where LineParser sees
// expansions (and where not), how ScriptBlocks reads if/else/for/end and names the line of a
// mistake, how an alias body splits and takes its arguments, and how `if` compares.

import ShopCore
import Testing
@testable import ShellKit

@Suite struct ScriptingRulesTests {
    private func expansions(_ line: String) throws -> [Expansion] {
        try LineParser.template(line).expansions
    }

    private func usageError(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ShopError {
            guard case .usage(let message) = error else { return "not a usage error: \(error)" }
            return message
        } catch {
            return "\(error)"
        }
    }

    // MARK: - Expansions in a line

    @Test func dollarFormsAreExpansions() throws {
        #expect(try expansions("echo $ORDER ${DAY} ${X:-none} $1 $@ $(orders list --limit 1)") == [
            .variable(name: "ORDER", fallback: nil), .variable(name: "DAY", fallback: nil),
            .variable(name: "X", fallback: "none"), .variable(name: "1", fallback: nil), .allArguments,
            .command("orders list --limit 1"),
        ])
    }

    @Test func singleQuotesAndBackslashesKeepTheDollar() throws {
        #expect(try expansions(#"alias vip 'users show $1' \$HOME "\$X""#).isEmpty)
        #expect(try LineParser.parse(#"alias vip 'users show $1' \$HOME "\$X""#).words == ["alias", "vip", "users show $1", "$HOME", "$X"])
    }

    @Test func aDollarBeforeAnythingElseIsText() throws {
        #expect(try expansions("echo $ 5$ $. $0 $-").isEmpty)
        #expect(try LineParser.parse("echo $ 5$ $.").words == ["echo", "$", "5$", "$."])
    }

    @Test func anExpansionStaysInsideItsWordAndDoubleQuotes() throws {
        let template = try LineParser.template(#"let A = x$N"y $M z""#)
        #expect(template.words.count == 4)
        #expect(template.words[3].parts == [.text("x"), .expansion(.variable(name: "N", fallback: nil), source: "$N"),
                                           .text("y "), .expansion(.variable(name: "M", fallback: nil), source: "$M"), .text(" z")])
    }

    @Test func commandSubstitutionKeepsItsPipesQuotesAndParentheses() throws {
        #expect(try expansions(#"let X = $(products search "a)b" --fields id)"#) == [.command(#"products search "a)b" --fields id"#)])
        #expect(try expansions("let X = $(echo $(echo (1)))") == [.command("echo $(echo (1))")])
        #expect(try LineParser.template("let X = $(a | b)").pipeCommand == nil)
    }

    @Test func theComparisonOfAnIfReadsOperatorsAsWords() throws {
        let plain = try LineParser.template("$N > 10", operatorsArePlain: true)
        #expect(plain.words.map(\.literal) == ["$N", ">", "10"])
        #expect(plain.redirectPath == nil)
        #expect(try LineParser.template("$N > 10").redirectPath?.literal == "10")
    }

    @Test func badExpansionsAreOneLineUsageErrors() {
        #expect(usageError { _ = try LineParser.template("echo ${X") }?.contains("unterminated ${") == true)
        #expect(usageError { _ = try LineParser.template("echo $(products list") }?.contains("unterminated $(") == true)
        #expect(usageError { _ = try LineParser.template("echo ${9X}") }?.contains("not a variable name") == true)
        #expect(usageError { _ = try LineParser.template("echo ${}") }?.contains("not a variable name") == true)
    }

    // MARK: - Blocks

    private func commands(_ text: String) -> [ScriptCommand] { ScriptReader.commands(in: text) }

    @Test func blocksNestAndKeepTheirLines() throws {
        let steps = try ScriptBlocks.steps(of: commands("""
            let N = 3
            if $N > 2
              for X in a b
                echo $X
              end
            else
              echo small
            end
            """))
        #expect(steps.count == 2)
        guard case .condition(let block) = steps[1] else { Issue.record("not an if: \(steps[1])"); return }
        #expect(block.line == 2 && block.test == "$N > 2")
        #expect(block.otherwise == [.command(ScriptCommand(line: 7, text: "echo small"))])
        guard case .loop(let loop)? = block.then.first else { Issue.record("not a for: \(block.then)"); return }
        #expect(loop.variable == "X" && loop.list == "a b" && loop.line == 3)
        #expect(loop.body == [.command(ScriptCommand(line: 4, text: "echo $X"))])
    }

    @Test func aVariableNamedLikeInIsNotTakenForIt() throws {
        let steps = try ScriptBlocks.steps(of: commands("for index in 1 2\necho $index\nend"))
        guard case .loop(let loop) = steps[0] else { Issue.record("not a for"); return }
        #expect(loop.variable == "index" && loop.list == "1 2")
    }

    @Test func unbalancedBlocksNameTheirLine() {
        let cases: [(String, Int, String)] = [
            ("echo a\nif products show 1\necho b", 2, "this if has no end"),
            ("echo a\nend", 2, "end without if or for"),
            ("else", 1, "else without if"),
            ("if a\nelse\nelse\nend", 3, "a second else"),
            ("for X in a\nelse\nend", 2, "else belongs to an if"),
            ("if", 1, "if needs a test"),
            ("for X a b\nend", 1, "for needs a name and a list"),
            ("for 9X in a\nend", 1, "not a variable name"),
            ("for X in\nend", 1, "the list is missing"),
            ("if a\nend now", 2, "end stands alone"),
        ]
        for (text, line, message) in cases {
            do {
                _ = try ScriptBlocks.steps(of: commands(text))
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.line == line, "\(text)")
                #expect(error.message.contains(message), "\(text): \(error.message)")
            }
        }
    }

    @Test func blocksNestOnlySoDeep() {
        let text = String(repeating: "if a\n", count: ScriptBlockReader.maxDepth + 1) + String(repeating: "end\n", count: ScriptBlockReader.maxDepth + 1)
        #expect(throws: ScriptBlockError.self) { try ScriptBlocks.steps(of: commands(text)) }
    }

    // MARK: - Aliases

    @Test func aBodySplitsAtSemicolonsOutsideQuotesAndSubstitutions() {
        #expect(AliasBody.commandTexts("users show $1; basket show $1 ;; orders list") == ["users show $1", "basket show $1", "orders list"])
        #expect(AliasBody.commandTexts(#"echo 'a;b' "c;d" e\;f $(x; y)"#) == [#"echo 'a;b' "c;d" e\;f $(x; y)"#])
    }

    @Test func argumentsFillTheBodyOrFollowItsOneCommand() throws {
        let vip = try AliasBody.commands(of: "vip", body: "users show $1; basket show $1", arguments: ["emilys"])
        #expect(vip.count == 2)
        let plain = try AliasBody.commands(of: "pl", body: "products list", arguments: ["--limit", "3"])
        #expect(plain.map { $0.words.map(\.literal) } == [["products", "list", "--limit", "3"]])
        #expect(usageError { _ = try AliasBody.commands(of: "vip", body: "users show $1", arguments: ["a", "b"]) }?
            .contains("takes 1 argument") == true)
        #expect(usageError { _ = try AliasBody.commands(of: "two", body: "products list; orders list", arguments: ["x"]) }?
            .contains("takes no arguments") == true)
        #expect(try AliasBody.commands(of: "all", body: "products show $@", arguments: ["1", "2", "3"]).count == 1)
    }

    @Test func anAliasThatWouldCallItselfIsRefused() {
        let none: (String) -> Bool = { _ in false }
        #expect(usageError { try AliasBody.check(name: "a", body: "a --x", aliases: [:], taken: none) }?.contains("a → a") == true)
        #expect(usageError { try AliasBody.check(name: "b", body: "c", aliases: ["c": "echo; b"], taken: none) }?
            .contains("b → c → b") == true)
        #expect(usageError { try AliasBody.check(name: "products", body: "x", aliases: [:], taken: { $0 == "products" }) }?
            .contains("never hides a command") == true)
        #expect(usageError { try AliasBody.check(name: "if", body: "x", aliases: [:], taken: { ShellNames.keywords.contains($0) }) } != nil)
        #expect(usageError { try AliasBody.check(name: "9x", body: "x", aliases: [:], taken: none) }?.contains("alias name") == true)
        #expect(usageError { try AliasBody.check(name: "x", body: "if a", aliases: [:], taken: none) }?.contains("command files") == true)
    }

    // MARK: - Comparisons

    @Test func numbersCompareExactlyAndTextOnlyForEquality() throws {
        #expect(try Comparison.greater.holds("17.89", "10"))
        #expect(try Comparison.equal.holds("10.50", "10.5"))
        #expect(try !Comparison.less.holds("-0.01", "-0.02"))
        #expect(try Comparison.greaterOrEqual.holds("100000000000000000000.01", "100000000000000000000"))
        #expect(try Comparison.equal.holds("paid", "paid"))
        #expect(try Comparison.notEqual.holds("paid", "placed"))
        #expect(throws: ShopError.self) { try Comparison.greater.holds("paid", "10") }
        #expect(DecimalText("1e5") == nil && DecimalText("1,5") == nil && DecimalText(".5") == nil && DecimalText("5.") == nil)
        // Past what Decimal holds (38 digits): still exact.
        let long = String(repeating: "9", count: 60)
        #expect(try Comparison.less.holds(long + ".000000000000000000000000000000000000000000001", long + ".000000000000000000000000000000000000000000002"))
        #expect(try Comparison.equal.holds("-0", "0.000") && Comparison.less.holds("-" + long, "-1"))
        #expect(try Comparison.greater.holds("007.5", "7.49"))
    }

    @Test func variableNamesFollowOneRule() throws {
        #expect(ShellNames.isVariableName("ORDER_2") && ShellNames.isVariableName("_x"))
        #expect(!ShellNames.isVariableName("2X") && !ShellNames.isVariableName("A-B") && !ShellNames.isVariableName(""))
        #expect(ShellNames.isAliasName("low-stock") && !ShellNames.isAliasName("-x"))
        let session = Session(storeName: "t", identity: OperatorIdentity(name: "t", role: .admin), environment: [:])
        #expect(throws: ShopError.self) { try session.setVariable("X", to: String(repeating: "a", count: ScriptLimits.maxValueBytes + 1)) }
        try session.setVariable("X", to: "ok")
        #expect(session.variables["X"] == "ok")
    }
}
