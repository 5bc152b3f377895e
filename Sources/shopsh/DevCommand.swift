// DevCommand: `shopsh dev generate …`: a large generated shop for benchmarks (being written).

enum DevCommand {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        Main.printError("not available yet")
        return 2
    }
}
