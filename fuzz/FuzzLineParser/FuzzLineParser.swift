// FuzzLineParser: libFuzzer target for the command-line tokenizer (LineParser) and the batch
// file reader (ScriptReader / ScriptAccumulator). Run by fuzz/run.

import FuzzSupport
import ShellKit
import ShopCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLineParser(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    let text = String(decoding: bytes, as: UTF8.self)
    checkLine(text)

    let commands = ScriptReader.commands(in: text)
    let lineCount = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    var previous = 0
    for command in commands {
        require(command.line > previous && command.line <= lineCount, "command line numbers out of order: \(commands)")
        require(!command.text.unicodeScalars.contains("\n"), "a command holds a line feed: \(command)")
        previous = command.line
        checkLine(command.text)
    }
    // CRLF line ends read like LF ones.
    if !bytes.contains(UInt8(ascii: "\r")) {
        let crlf = bytes.flatMap { $0 == UInt8(ascii: "\n") ? [0x0D, 0x0A] : [$0] }
        let again = ScriptReader.commands(in: String(decoding: crlf, as: UTF8.self))
        require(again == commands, "CRLF changed the commands: \(commands) vs \(again)")
    }
    return 0
}

/// Parses one line; a parsed line's words survive being quoted and parsed again.
func checkLine(_ line: String) {
    let parsed: ParsedLine
    do {
        parsed = try LineParser.parse(line)
    } catch {
        require(error.isUsageError, "LineParser threw \(error), expected a usage error")
        require(isOneLineMessage(error.message), "message is not one clean line: \(error.message.debugDescription)")
        return
    }
    require(parsed.pipeCommand == nil || parsed.redirect == nil, "both a pipe and a redirect: \(parsed)")
    if parsed.pipeCommand != nil || parsed.redirect != nil { require(!parsed.words.isEmpty, "pipe or redirect without a command") }
    if let redirect = parsed.redirect { require(!redirect.path.isEmpty, "empty redirect path") }
    if let pipe = parsed.pipeCommand { require(!pipe.isEmpty, "empty pipe command") }

    let requoted = parsed.words.map(LineParser.quoted).joined(separator: " ")
    guard let again = try? LineParser.parse(requoted) else {
        require(false, "re-quoted words do not parse: \(requoted.debugDescription)")
        return
    }
    require(again.words == parsed.words && again.pipeCommand == nil && again.redirect == nil,
            "re-quoted words changed: \(parsed.words) vs \(again.words)")
}
