// CommandSecretsTests: which parts of a command line are secrets (option values by name, URL
// passwords), masked as `***` with everything else kept byte for byte, through shell quoting.

import Testing
@testable import ShellKit

@Suite struct CommandSecretsTests {
    @Test(arguments: [
        ("users add ann --password hunter2", "users add ann --password ***"),
        ("users add ann --password=hunter2 --role admin", "users add ann --password=*** --role admin"),
        ("x --api-token=abc.def", "x --api-token=***"),
        ("x --API-TOKEN abc", "x --API-TOKEN ***"),
        ("x --client-secret s -o json", "x --client-secret *** -o json"),
        ("x --new-passwd s", "x --new-passwd ***"),
        ("x -token abc", "x -token ***"),
        // Quoting: the whole word as written goes, quotes included; the rest stays as typed.
        ("x --password 'p w'  --y", "x --password ***  --y"),
        ("x --password \"a \\\" b\" --y", "x --password *** --y"),
        ("x --password=\"a b\" --y", "x --password=*** --y"),
        ("x --password='it'\\''s' --y", "x --password=*** --y"),
        ("x --password a\\ b --y", "x --password *** --y"),
        ("x \"--password\" s", "x \"--password\" ***"),
        ("x --password 'unterminated and more", "x --password ***"),
        ("x\t--password\ts\t", "x\t--password\t***\t"),
        // URLs: only the password, wherever the URL is.
        ("init --store postgres://ann:s3cret@db.example.com:5432/shop",
         "init --store postgres://ann:***@db.example.com:5432/shop"),
        ("x --store=postgresql://ann:p%40ss@db/shop?sslmode=require",
         "x --store=postgresql://ann:***@db/shop?sslmode=require"),
        ("x 'postgres://ann:a b@db/shop'", "x 'postgres://ann:***@db/shop'"),
        ("x https://u:p@h/a https://v:q@h/b", "x https://u:***@h/a https://v:***@h/b"),
        // Also after a pipe (the system shell's command) and in a comment.
        ("products list | curl --token abc -d @-", "products list | curl --token *** -d @-"),
        ("products list # --password x", "products list # --password ***"),
        // Non-ASCII around a secret is kept as it was.
        ("x --title 'café ☕' --token é☕ --n 1", "x --title 'café ☕' --token *** --n 1"),
    ])
    func masksSecrets(line: String, expected: String) {
        #expect(CommandSecrets.masked(line) == expected)
        #expect(CommandSecrets.containsSecret(line))
    }

    @Test(arguments: [
        "users passwd ann --password-file pw.txt",
        "users passwd ann --password-file=pw.txt",
        "x --token-path /run/token",
        "products list --search password",
        "products show token",
        "init --store postgres://ann@db/shop",
        "init --store postgres://db/shop",
        "x --password=",
        "x --password=''",
        "x --password",
        "x --password | jq .",
        "x 'https://example.com/a:b@c'",
        "x --show-password-hint",
        "x ---password y",
    ])
    func leavesOtherLinesAlone(line: String) {
        #expect(CommandSecrets.masked(line) == line)
        #expect(!CommandSecrets.containsSecret(line))
    }

    @Test func anOptionNamedLikeASecretHidesItsValueEvenWhenItLooksLikeAFlag() {
        // Masking too much is safe; argument-parser might take `-x` as the value.
        #expect(CommandSecrets.masked("x --password -x") == "x --password ***")
    }

    @Test func optionNames() {
        #expect(CommandSecrets.isSecretOption("password"))
        #expect(CommandSecrets.isSecretOption("db-Password"))
        #expect(CommandSecrets.isSecretOption("passwd"))
        #expect(CommandSecrets.isSecretOption("secret-key"))
        #expect(!CommandSecrets.isSecretOption("password-file"))
        #expect(!CommandSecrets.isSecretOption("token_file"))
        #expect(!CommandSecrets.isSecretOption("user"))
    }

    /// The audit log keeps a command as its words, quoted where needed, with secrets masked.
    @Test func theAuditLogsCommandTextQuotesWordsAndMasksSecrets() {
        #expect(Shell.auditText(["basket", "set", "emilys", "113", "2"]) == "basket set emilys 113 2")
        #expect(Shell.auditText(["products", "update", "1", "--title", "Red, \"big\" it's"])
                == "products update 1 --title 'Red, \"big\" it'\\''s'")
        #expect(Shell.auditText(["users", "add", "x", "--password", "hunter2"]) == "users add x --password ***")
        #expect(Shell.auditText(["use", "--store", "postgres://ann:s3cret@db/shop"]) == "use --store postgres://ann:***@db/shop")
        #expect(Shell.auditText(["users", "passwd", "emilys", "--password-file", "/tmp/pw"]) == "users passwd emilys --password-file /tmp/pw")
    }
}
