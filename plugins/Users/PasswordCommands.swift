// PasswordCommands: `users passwd USER` and `users check-password USER`. The password comes from
// the terminal (no echo) or from the first line of --password-file FILE, never from an argument,
// and is never printed, logged or stored other than as a salted hash.

import ArgumentParser
import ShellKit
import ShopCore
import ShopOutput
import ShopCommandKit

/// `--password-file FILE`: where scripts keep the password.
struct PasswordSource: ParsableArguments {
    @Option(name: .customLong("password-file"),
            help: ArgumentHelp("Read the password from the first line of this file (for scripts; a terminal is asked instead).",
                               valueName: "file"),
            completion: .file())
    var passwordFile: String?

    /// The password from the file, or nil when none was named.
    func fromFile() throws(ShopError) -> String? {
        guard let passwordFile else { return nil }
        var bytes = try FileInput.read(passwordFile)
        defer { bytes.wipe() }
        var line = Array(bytes.prefix { $0 != UInt8(ascii: "\n") })
        defer { line.wipe() }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { throw .invalidInput("\(passwordFile) has no password on its first line") }
        guard let password = String(validating: line, as: UTF8.self) else {
            throw .invalidInput("\(passwordFile): the password is not valid UTF-8")
        }
        return password
    }

    /// Why a password cannot be asked for here.
    static func noTerminal(_ command: String) -> ShopError {
        .usage("\(command): stdin is not a terminal, so the password cannot be asked for; give it with --password-file FILE (its first line)")
    }
}

extension UsersCommand {
    /// `users passwd [USER]`.
    struct Passwd: ShellCommand {
        static let operation: ShopOperation? = .setPassword
        static let configuration = CommandConfiguration(abstract: "Set a user's password (asked twice without echo, at least 6 characters).",
            discussion: "In scripts, or when stdin is not a terminal, give --password-file FILE: its first line is the password.")

        @OptionGroup var words: CustomerArguments<NoMoreWords>

        @OptionGroup var source: PasswordSource

        func run(in context: CommandContext) async throws {
            let (reference, _) = try words.resolve(in: context)
            let users = context.services.users
            let user = try await users.user(reference)   // an unknown user is reported before anything is asked
            let password: String
            if let fromFile = try source.fromFile() {
                password = fromFile
            } else if context.terminal.stdinIsTerminal {
                let first = try TerminalPrompt.secret("New password for \(user.username): ", context: context)
                try UserRules.password(first)   // said before the second prompt, not after it
                let second = try TerminalPrompt.secret("Retype the new password: ", context: context)
                guard first == second else { throw ShopError.invalidInput("the passwords do not match; password not changed") }
                password = first
            } else {
                throw PasswordSource.noTerminal(context.commandPath)
            }
            try await users.setPassword(String(user.id), password)
            context.note("password of \(UserRows.label(user)) changed")
        }
    }

    /// `users check-password [USER]`: prints `match` or `no match` (then exits with status 1).
    struct CheckPassword: ShellCommand {
        static let configuration = CommandConfiguration(abstract: "Check a password against a user's (prints match or no match; no match exits with status 1).",
            discussion: "In scripts, or when stdin is not a terminal, give --password-file FILE: its first line is the password.")

        @OptionGroup var words: CustomerArguments<NoMoreWords>

        @OptionGroup var source: PasswordSource
        @OptionGroup var output: OutputOptions

        func run(in context: CommandContext) async throws {
            let (reference, _) = try words.resolve(in: context)
            let users = context.services.users
            let user = try await users.user(reference)
            let password: String
            if let fromFile = try source.fromFile() {
                password = fromFile
            } else if context.terminal.stdinIsTerminal {
                password = try TerminalPrompt.secret("Password for \(user.username): ", context: context)
            } else {
                throw PasswordSource.noTerminal(context.commandPath)
            }
            let matches = try await users.checkPassword(String(user.id), password)
            try context.answer(matches ? "match" : "no match", columns: [Column("user"), Column("match")],
                               record: [.text(user.username), .bool(matches)], options: output)
            if !matches { throw AlreadyReported() }   // `no match` said it, as grep's status says it
        }
    }
}

extension Array where Element == UInt8 {
    /// Overwrites the bytes (a password's) before the array is freed.
    mutating func wipe() {
        for index in indices { self[index] = 0 }
    }
}
