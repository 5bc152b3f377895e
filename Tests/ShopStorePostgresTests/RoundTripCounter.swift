// RoundTripCounter: a TCP proxy between the store and the test server that counts the round trips
// the store asks for — each `Sync` (the end of an extended-protocol query) and each simple `Query`
// the client sends — so a test can say how many a command took, from the wire itself.

import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Listens on 127.0.0.1 (any free port) and forwards every connection to `host:port`.
final class RoundTripCounter: Sendable {
    /// The port the proxy listens on.
    let port: Int
    private let listener: Int32
    private let counted = Tally()

    /// Round trips the clients asked for since the proxy started or was last `reset`.
    var roundTrips: Int { counted.value.withLock { $0 } }

    func reset() { counted.value.withLock { $0 = 0 } }

    /// A count the proxy's threads share.
    final class Tally: Sendable {
        let value = Mutex(0)
    }

    init(upstreamHost: String, upstreamPort: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let counted = self.counted
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 && (errno == EINTR || errno == ECONNABORTED) { continue }
                guard client >= 0 else { return }   // the listener was closed
                guard let server = Self.connect(host: upstreamHost, port: upstreamPort) else { close(client); continue }
                let link = Link(client: client, server: server)
                Thread.detachNewThread { Self.pump(from: server, to: client, counting: nil); link.pumpEnded() }
                Thread.detachNewThread { Self.pump(from: client, to: server, counting: counted); link.pumpEnded() }
            }
        }
    }

    /// Stops accepting (connections already made go on until their ends close them).
    func stop() { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    private static func connect(host: String, port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        if connected { return fd }
        close(fd)
        return nil
    }

    /// Copies bytes until either side closes; with `counting`, reads the client's messages as it goes.
    private static func pump(from source: Int32, to target: Int32, counting: Tally?) {
        var reader = MessageReader()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
            if read < 0 && errno == EINTR { continue }
            if read <= 0 { break }
            if let counting {
                let trips = reader.feed(buffer[0..<read])
                if trips > 0 { counting.value.withLock { $0 += trips } }
            }
            var sent = 0
            while sent < read {
                let wrote = buffer.withUnsafeBytes { Glibc.write(target, $0.baseAddress! + sent, read - sent) }
                if wrote < 0 && errno == EINTR { continue }
                if wrote <= 0 { break }
                sent += wrote
            }
            if sent < read { break }
        }
    }

    /// One proxied connection: when either direction ends, both sockets are shut down; the
    /// descriptors are closed only when both directions have ended (closing one earlier would let
    /// the next accepted connection reuse its number while the other direction still uses it).
    final class Link: Sendable {
        private let client: Int32
        private let server: Int32
        private let running = Mutex(2)

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        func pumpEnded() {
            let last = running.withLock { count -> Bool in
                count -= 1
                return count == 0
            }
            if last {
                close(client)
                close(server)
            } else {
                shutdown(client, Int32(SHUT_RDWR))
                shutdown(server, Int32(SHUT_RDWR))
            }
        }
    }

    /// The frontend's messages: untyped ones first (an SSL or GSS request, then the start-up
    /// message: a length that counts itself), then a type byte and such a length each.
    struct MessageReader {
        private var pending: [UInt8] = []
        private var started = false

        /// Takes the next bytes; returns how many round trips (`S`ync, `Q`uery) they completed.
        mutating func feed(_ bytes: ArraySlice<UInt8>) -> Int {
            pending.append(contentsOf: bytes)
            var trips = 0
            var offset = 0
            while true {
                let header = started ? 5 : 4
                guard pending.count - offset >= header else { break }
                let lengthAt = started ? offset + 1 : offset
                let length = Int(pending[lengthAt]) << 24 | Int(pending[lengthAt + 1]) << 16
                    | Int(pending[lengthAt + 2]) << 8 | Int(pending[lengthAt + 3])
                let total = (started ? 1 : 0) + length
                guard pending.count - offset >= total else { break }
                if started {
                    if pending[offset] == UInt8(ascii: "S") || pending[offset] == UInt8(ascii: "Q") { trips += 1 }
                } else {
                    // 80877103: SSLRequest, 80877104: GSSENCRequest; anything else is the start-up message.
                    let code = Int(pending[offset + 4]) << 24 | Int(pending[offset + 5]) << 16
                        | Int(pending[offset + 6]) << 8 | Int(pending[offset + 7])
                    if code != 80877103 && code != 80877104 { started = true }
                }
                offset += total
            }
            pending.removeFirst(offset)
            return trips
        }
    }
}
