// TCPCutter: a loopback TCP relay between shopsh and the PostgreSQL server that a test can cut,
// as a network that fails would: every connection through it ends at once, on both sides, while
// the server goes on with whatever it was doing (a COMMIT in progress still commits).

import Foundation
#if canImport(Glibc)
import Glibc
#endif

final class TCPCutter: @unchecked Sendable {
    /// The port it listens on (127.0.0.1).
    let port: UInt16
    private let listener: Int32
    private let target: (host: String, port: UInt16)
    private let lock = NSLock()
    private var open: [Int32] = []
    private var stopped = false

    /// Starts relaying connections made to `port` to `host:port`.
    init(to host: String, port targetPort: UInt16) async throws {
        target = (host, targetPort)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CutterError.failed("socket") }
        var address = Self.address("127.0.0.1", 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else { close(descriptor); throw CutterError.failed("bind/listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Ends every connection open through the relay (new ones are still relayed).
    func cut() {
        lock.lock()
        let sockets = open
        open.removeAll()
        lock.unlock()
        for descriptor in sockets { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Stops listening and cuts everything.
    func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        cut()
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                lock.lock(); let done = stopped; lock.unlock()
                if done { return }
                continue
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.address(target.host, target.port)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(client); close(server); continue }
            lock.lock(); open += [client, server]; lock.unlock()
            // Each direction on its own thread; the first to end ends both, and closes them.
            let pair = SocketPair(client, server)
            Thread { [self] in Self.pump(from: client, to: server); if pair.end() { forget(pair) } }.start()
            Thread { [self] in Self.pump(from: server, to: client); if pair.end() { forget(pair) } }.start()
        }
    }

    /// Closes a pair both of whose directions ended (no longer cut by `cut`: its numbers may be reused).
    private func forget(_ pair: SocketPair) {
        lock.lock()
        open.removeAll { $0 == pair.client || $0 == pair.server }
        close(pair.client); close(pair.server)
        lock.unlock()
    }

    private static func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    private static func address(_ host: String, _ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    /// Both sockets of one relayed connection: shut down when either direction ends, closed once.
    private final class SocketPair: @unchecked Sendable {
        private let lock = NSLock()
        private var ends = 0
        let client: Int32, server: Int32
        init(_ client: Int32, _ server: Int32) { (self.client, self.server) = (client, server) }
        /// Shuts both down; true for the second call (then the pair is to be closed).
        func end() -> Bool {
            lock.lock(); ends += 1; let last = ends == 2; lock.unlock()
            shutdown(client, Int32(SHUT_RDWR)); shutdown(server, Int32(SHUT_RDWR))
            return last
        }
    }

    enum CutterError: Error { case failed(String) }
}
