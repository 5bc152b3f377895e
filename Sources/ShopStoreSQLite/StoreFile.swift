// StoreFile: the store as a file: created 0600, built aside and moved into place atomically,
// checked for being SQLite at all, for write access, and for modes that let others read it.

import Foundation
import ShopCore

/// File-level operations on a store, done before SQLite opens it.
enum StoreFile {
    /// Creates an empty file at `path` with mode 0600 (SQLite gives its -wal and -shm files the
    /// database's mode), and its folder with mode 0700 when missing.
    static func createEmpty(at path: String) throws(ShopError) {
        try createFolder(of: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .storage("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }

    static func createFolder(of path: String) throws(ShopError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage("cannot create folder \(folder): \(error.localizedDescription)")
        }
    }

    // MARK: - Building a store aside

    /// The file a store for `path` is built in by this process: hidden, beside `path` (so the
    /// final link stays on one file system), named after this process so a dead one's can be found.
    static func buildPath(for path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let name = "." + (path as NSString).lastPathComponent + ".building-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return folder.isEmpty ? name : folder + "/" + name
    }

    /// Puts the finished store at `building` in place at `path` unless a store is there already
    /// (`link(2)` never replaces a file). Returns false in that case. `building` is removed.
    static func moveIntoPlace(_ building: String, to path: String) throws(ShopError) -> Bool {
        defer { removeStore(building) }
        if link(building, path) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        throw .storage("cannot create \(path): \(String(cString: strerror(code)))")
    }

    /// Removes a store file with its -wal and -shm files.
    static func removeStore(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }

    /// Removes stores left half-built beside `path` by shopsh processes that died (kill -9 during
    /// a first run's demo import).
    static func removeAbandonedBuilds(for path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let prefix = "." + (path as NSString).lastPathComponent + ".building-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder) else { return }
        for name in names where name.hasPrefix(prefix) && !name.hasSuffix("-wal") && !name.hasSuffix("-shm") {
            let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pidText), kill(pid, 0) != 0, errno == ESRCH else { continue }
            removeStore(folder.isEmpty ? name : folder + "/" + name)
        }
    }

    // MARK: - Checks

    /// Refuses, with one line, a non-empty file that does not start with SQLite's header.
    static func refuseNonSQLite(at path: String) throws(ShopError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .storage("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        guard header.isEmpty || header == Data("SQLite format 3\u{0}".utf8) else {
            throw .storage("\(path) is not a shopsh store (not an SQLite database); it was left unchanged")
        }
    }

    /// Whether shopsh may write the store: the file and its folder (where SQLite keeps the -wal
    /// and -shm files) are writable, on a file system mounted read-write.
    static func isWritable(_ path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        var fileSystem = statvfs()
        if statvfs(path, &fileSystem) == 0, fileSystem.f_flag & UInt(ST_RDONLY) != 0 { return false }
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0
    }

    /// A warning when users other than the owner may read or write the store (it holds emails
    /// and password hashes).
    static func permissionWarnings(_ path: String) -> [String] {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 != 0 else { return [] }
        let mode = "0" + String(status.st_mode & 0o777, radix: 8)
        return ["warning: other users can read \(path) (mode \(mode)); it holds customer data: chmod 600 \(path)"]
    }

    /// The file path of a database path that may be an `immutableURI`.
    static func displayPath(_ databasePath: String) -> String {
        guard databasePath.hasPrefix("file:") else { return databasePath }
        let encoded = databasePath.dropFirst("file:".count).prefix { $0 != "?" }
        var bytes: [UInt8] = []
        var rest = Substring(encoded).utf8[...]
        while let byte = rest.first {
            rest = rest.dropFirst()
            if byte == UInt8(ascii: "%"), rest.count >= 2,
               let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `file:PATH?immutable=1`, percent-encoding what a URI would misread: SQLite then reads the
    /// file without locks or shared memory (for read-only media, where nobody can change it).
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var encoded = ""
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x21, 0x7F...:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            default:
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return "file:" + encoded + "?immutable=1&mode=ro"
    }
}
