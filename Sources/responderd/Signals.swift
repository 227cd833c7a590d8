import Foundation
import Logging
import ResponderServer

/// How responderd meets signals. The stopping ones and SIGHUP are blocked before any thread exists (a thread
/// inherits the mask) and taken by one thread of ours with sigwait, so none that comes right after start-up is
/// lost. SIGPIPE is ignored: a write to a reader that has gone (`responderd | tee` ended) fails quietly
/// instead of killing the engine. A crash or another deadly signal removes the discovery file before the
/// process dies, so that no client is sent to a dead engine.
enum Signals {
    /// Stop the engine cleanly (the discovery file and socket files are removed).
    static let stopping: [Int32] = [SIGINT, SIGTERM, SIGALRM]
    /// Logged and otherwise ignored: a closed terminal or a supervisor's reload must not end the engine, and its
    /// log goes to standard error, which it has nothing to reopen for.
    static let ignoredWithNote: [Int32] = [SIGHUP]
    /// Remove the discovery file, then take their course. SIGUSR1 and SIGUSR2 are among them, not waited for:
    /// the Swift runtime's crash handler signals each thread with one of them to suspend it, which a blocked
    /// mask would defeat.
    static let dying: [Int32] = [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGUSR1, SIGUSR2]

    static var waited: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in stopping + ignoredWithNote { sigaddset(&set, signal) }
        return set
    }

    /// Blocks the waited signals and ignores SIGPIPE; call before any thread starts.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        var set = waited
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts the thread that takes the waited signals for `engine`.
    static func handle(for engine: Engine, logger: Logger) {
        let thread = Thread {
            var set = waited
            var received: Int32 = 0
            while sigwait(&set, &received) == 0 {
                let name = String(cString: strsignal(received))
                if ignoredWithNote.contains(received) {
                    logger.notice("signal \(received) (\(name)) ignored: the engine keeps running")
                } else {
                    logger.info("signal \(received) (\(name)): stopping")
                    engine.stop()
                }
            }
        }
        thread.name = "responderd-signals"
        thread.start()
    }

    /// On a deadly signal the discovery file at `path` is removed, then the handler that was there before (the
    /// Swift runtime's backtracer, or the default action) takes the signal.
    static func removeOnCrash(_ path: String) {
        crashCleanupPath = strdup(path)
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
        previous.initialize(repeating: sigaction(), count: Int(NSIG))
        previousActions = previous
        for signal in dying {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                // Async-signal-safe calls only: unlink, sigaction, raise. The signal is blocked while this runs;
                // raised again, it reaches the previous handler once this one returns.
                if let path = crashCleanupPath { unlink(path) }
                if let previous = previousActions { sigaction(received, previous + Int(received), nil) }
                raise(received)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previous + Int(signal))
        }
    }
}

// Set once by `Signals.removeOnCrash` before any crash handler is installed, then only read (by the handler):
// never freed, so the handler can always read them.
nonisolated(unsafe) private var crashCleanupPath: UnsafeMutablePointer<CChar>?
nonisolated(unsafe) private var previousActions: UnsafeMutablePointer<sigaction>?
