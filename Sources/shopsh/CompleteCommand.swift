// CompleteCommand: `shopsh __complete WORDS…`: completion candidates for shell scripts (being written).

enum CompleteCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        Main.printError("not available yet")
        return 2
    }
}
