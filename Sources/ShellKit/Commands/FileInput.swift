// FileInput: reads a file named on the command line, with a one-line error when it cannot.

import Foundation
import ShopCore

/// Reading input files for commands such as `products import FILE`.
public enum FileInput {
    public static func read(_ path: String) throws(ShopError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound("no such file: \(path)")
        }
        guard !isDirectory.boolValue else { throw .invalidInput("\(path) is a folder, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw .notFound("cannot read \(path)") }
        return Array(data)
    }
}
