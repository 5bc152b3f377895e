// ReadlineHistoryTests: ReadlineLineReader's history rules and history file, which work
// without a terminal. readline's history is one global list, so these tests run serially.

import Foundation
import ShopCore
import Testing
@testable import LineEditor

@Suite(.serialized) struct ReadlineHistoryTests {
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shopsh-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func makeReader(_ file: String?, limit: Int = 2000) -> ReadlineLineReader {
        ReadlineLineReader(historyFile: file, historyLimit: limit) { _ in [] }
    }

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    @Test func addHistorySkipsEmptySpaceLedAndRepeatedLines() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = makeReader(nil)
        for line in ["products list", "products list", "", " users passwd ann", "  ", "\t",
                     "basket show ann", "products list", "products list "] {
            reader.addHistory(line)
        }
        #expect(reader.history == ["products list", "basket show ann", "products list", "products list "])
    }

    @Test func newReaderStartsFromItsOwnFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = makeReader(nil)
        first.addHistory("left over")
        let second = makeReader(directory.appendingPathComponent("none").path)
        #expect(second.history.isEmpty)
        #expect(second.historyLoadError == nil)  // a missing file is fine
    }

    @Test func saveCreatesDirectoryAndPrivateFileThenReloads() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store/nested/history").path
        let reader = makeReader(path)
        reader.addHistory("products list --category beauty")
        reader.addHistory("basket show ann")
        try reader.writeHistory()

        #expect(try mode(path) == 0o600)
        #expect(try mode(directory.appendingPathComponent("store").path) == 0o700)
        let contents = try String(contentsOfFile: path, encoding: .utf8)
        #expect(contents == "products list --category beauty\nbasket show ann\n")

        let reloaded = makeReader(path)
        #expect(reloaded.history == ["products list --category beauty", "basket show ann"])
        reloaded.addHistory("basket show ann")  // repeats the last loaded entry
        #expect(reloaded.history.count == 2)
    }

    @Test func saveTightensAnExistingOpenFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("history").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)

        let reader = makeReader(path)
        #expect(reader.history == ["old"])
        reader.addHistory("new")
        reader.saveHistory()
        #expect(try mode(path) == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\nnew\n")
    }

    @Test func limitKeepsNewestEntries() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("history").path
        let reader = makeReader(path, limit: 3)
        for number in 1...5 { reader.addHistory("cmd \(number)") }
        #expect(reader.history == ["cmd 3", "cmd 4", "cmd 5"])
        try reader.writeHistory()
        #expect(makeReader(path, limit: 3).history == ["cmd 3", "cmd 4", "cmd 5"])
        #expect(makeReader(path, limit: 2).history == ["cmd 4", "cmd 5"])
    }

    @Test func savingKeepsWhatAnotherShellSavedMeanwhile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("history").path
        try "from before\n".write(toFile: path, atomically: true, encoding: .utf8)
        let reader = makeReader(path)
        reader.addHistory("mine 1")
        // Another shell on the same store exits first and appends its line.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("theirs\n".utf8))
        try handle.close()
        reader.addHistory("mine 2")
        try reader.writeHistory()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "from before\ntheirs\nmine 1\nmine 2\n")
        // A second save adds nothing new.
        try reader.writeHistory()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "from before\ntheirs\nmine 1\nmine 2\n")
        #expect(try mode(path) == 0o600)
    }

    @Test func unreadableHistoryFileIsReported() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = makeReader(directory.path)  // a directory, not a file
        #expect(reader.historyLoadError != nil)
    }

    @Test func unwritableLocationThrowsSystemError() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let blocker = directory.appendingPathComponent("file")
        try Data().write(to: blocker)
        let reader = makeReader(blocker.appendingPathComponent("sub/history").path)
        reader.addHistory("x")
        #expect {
            try reader.writeHistory()
        } throws: { error in
            guard let error = error as? ShopError, case .system(let message) = error else { return false }
            return message.contains("cannot create directory")
        }
        reader.saveHistory()  // ignores the same failure
    }

    @Test func readerWithoutFileSavesNothing() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = makeReader(nil)
        reader.addHistory("x")
        try reader.writeHistory()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
