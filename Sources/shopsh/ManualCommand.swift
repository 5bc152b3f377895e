// ManualCommand: `shopsh __manual`: the man page generated from the command tree (being written).

enum ManualCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        Main.printError("not available yet")
        return 2
    }
}
