// PostgresEventLoopExecutor: the shell's commands run on the NIO thread that carries the store's
// connections. A query's answer then resumes the command on the thread that read it: one thread
// works a batch, as psql's does, where the calling thread and the event loop handed every query
// and every answer to each other (two thread switches a round trip: a fifth of a batch's time
// was the kernel switching threads).

import NIOCore

/// A task executor whose jobs run on `eventLoop`.
package final class PostgresEventLoopExecutor: TaskExecutor {
    package let eventLoop: any EventLoop

    package init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    package func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        eventLoop.execute { unowned.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
