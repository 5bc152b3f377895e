// ExternalPluginUnitTests: the pieces of the external plugin protocol that need no process:
// describe parsing, JSON values to cells, line splitting, and the words a plugin command takes.

import ShopCore
import ShopOutput
import Testing
@testable import ShellKit
@testable import PluginHost
@testable import PluginProtocol

@Suite struct ExternalPluginUnitTests {
    static let described = #"""
        {"protocol": 1, "name": "lowstock", "version": "1.0.0", "summary": "Products running out",
         "commands": [{"name": "list", "summary": "At or below a threshold",
                       "arguments": [{"name": "category", "kind": "category", "optional": true}],
                       "options": [{"name": "threshold", "kind": "integer", "summary": "…"}]}]}
        """#

    @Test func aDescriptionIsRead() throws {
        let description = try PluginDescription.parse(Array(Self.described.utf8))
        #expect(description.name == "lowstock" && description.version == "1.0.0")
        let list = try #require(description.command("list"))
        #expect(list.arguments == [.init(name: "category", kind: .category, optional: true)])
        #expect(list.options.first?.kind == .integer)
        #expect(PluginDescription.Kind.category.completion == .category)
    }

    @Test(arguments: [
        (#"{"protocol": 2, "name": "x", "commands": []}"#, "protocol 2 is not one this shopsh speaks (it speaks 1)"),
        (#"{"name": "x", "commands": []}"#, "no protocol number"),
        (#"{"protocol": 1, "name": "x"}"#, "\"commands\" must be an array"),
        (#"{"protocol": 1, "name": "../x", "commands": []}"#, "must be a name"),
        (#"{"protocol": 1, "name": "x", "commands": [{"name": "a", "arguments": [{"name": "b", "kind": "money"}]}]}"#, "unknown kind"),
        // plugins/PROTOCOL.md's rules: names, required fields, trailing optional arguments.
        (#"{"protocol": 1, "name": "Low_Stock", "version": "1", "summary": "s", "commands": [{"name": "a", "summary": "s"}]}"#, "must be a name"),
        (#"{"protocol": 1, "name": "x", "version": "1", "summary": "s", "commands": [{"name": "List", "summary": "s"}]}"#, "must be a name"),
        (#"{"protocol": 1, "name": "x", "version": "1", "summary": "s", "commands": [{"name": "a", "summary": "s", "options": [{"name": "min_stock", "kind": "integer"}]}]}"#, "must be a name"),
        (#"{"protocol": 1, "name": "x", "summary": "s", "commands": [{"name": "a", "summary": "s"}]}"#, "\"version\" must be a string (it is required)"),
        (#"{"protocol": 1, "name": "x", "version": "1", "commands": [{"name": "a", "summary": "s"}]}"#, "\"summary\" must be a string (it is required)"),
        (#"{"protocol": 1, "name": "x", "version": "1", "summary": "s", "commands": [{"name": "a"}]}"#, "a: \"summary\" must be a string (it is required)"),
        (#"{"protocol": 1, "name": "x", "version": "1", "summary": "s", "commands": []}"#, "at least one command"),
        (#"{"protocol": 1, "name": "x", "version": "1", "summary": "s", "commands": [{"name": "a", "summary": "s"}, {"name": "a", "summary": "t"}]}"#, "the command a is declared twice"),
        (#"{"protocol": 1, "name": "x", "version": "1", "summary": "s", "commands": [{"name": "a", "summary": "s", "arguments": [{"name": "b"}]}]}"#, "\"kind\" is required"),
        (#"{"protocol": 1, "name": "x", "version": "1", "summary": "s", "commands": [{"name": "a", "summary": "s", "arguments": [{"name": "b", "kind": "text", "optional": true}, {"name": "c", "kind": "text"}]}]}"#, "only trailing arguments may be optional"),
        (#"{"protocol": 1, "name": "\#(String(repeating: "x", count: 65))", "version": "1", "summary": "s", "commands": [{"name": "a", "summary": "s"}]}"#, "at most 64 characters"),
        ("[1]", "not a JSON object"),
        ("{", "invalid JSON"),
    ])
    func aBadDescriptionIsOneReason(text: String, reason: String) {
        #expect(throws: ShopError.self) { try PluginDescription.parse(Array(text.utf8)) }
        do {
            _ = try PluginDescription.parse(Array(text.utf8))
        } catch {
            #expect(error.message.contains(reason), "\(error.message)")
        }
    }

    @Test func valuesBecomeCellsWithoutDoubles() throws {
        #expect(ExternalRow.numberCell("12") == .integer(12))
        #expect(ExternalRow.numberCell("-3") == .integer(-3))
        #expect(ExternalRow.numberCell("0.10") == .decimal(ExactDecimal(units: 10, scale: 2)))
        #expect(ExternalRow.numberCell("1e3") == .text("1e3"))
        #expect(ExternalRow.numberCell("123456789012345678901234") == .text("123456789012345678901234"))
        let object = try ExternalRow.object(ArraySlice(#"{"b": [1, "x"], "a": null, "c": true}"#.utf8), number: 1)
        #expect(object.keys == ["b", "a", "c"])
        #expect(try ExternalRow.cells(object, columns: ["c", "b", "missing"], number: 1) == [.bool(true), .list(["1", "x"]), .null])
        #expect(throws: ShopError.self) { try ExternalRow.object(ArraySlice([0x7B, 0xFF, 0x7D]), number: 4) }
    }

    @Test func linesSplitAndALongLineIsRefused() throws {
        var lines = LineSplitter()
        lines.append(Array("{\"a\":1}\r\n{\"a\"".utf8))
        #expect(try lines.next().map(Array.init) == Array("{\"a\":1}".utf8))
        #expect(try lines.next() == nil)
        lines.append(Array(":2}".utf8))
        #expect(try lines.next() == nil)
        #expect(try lines.next(atEnd: true).map(Array.init) == Array("{\"a\":2}".utf8))
        #expect(lines.lineNumber == 2)
        var long = LineSplitter()
        long.append([UInt8](repeating: 0x78, count: ExternalRow.lineCap + 1))
        #expect(throws: ShopError.self) { try long.next() }
    }

    @Test func theShellKeepsTheOutputFlagsAndChecksTheRest() throws {
        let description = try PluginDescription.parse(Array(Self.described.utf8))
        let invocation = try ExternalInvocation.parse(["list", "-o", "json", "--threshold=5", "--no-header", "beauty"],
                                                      description: description)
        #expect(invocation.pluginArguments == ["list", "--threshold", "5", "beauty"])
        #expect(invocation.output.format == .json && invocation.output.noHeader)
        for words in [["nosuch"], ["list", "--nosuch", "1"], ["list", "--threshold", "x"], ["list", "a", "b"], ["--threshold", "1"]] {
            #expect(throws: ShopError.self, "\(words)") { try ExternalInvocation.parse(words, description: description) }
        }
        #expect(try ExternalInvocation.parse(["--help"], description: description).wantsHelp)
    }
}
