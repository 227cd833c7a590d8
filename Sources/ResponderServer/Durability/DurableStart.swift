import Foundation
import Logging
import ResponderCore

extension StateStore {
    /// Opens the state directory and reads every session back. A damaged store stops the start; with
    /// `recover` a database that cannot be opened is set aside (and the engine starts without it) and damaged
    /// sessions keep what is valid; each thing dropped is logged as a warning.
    static func open(_ config: EngineConfig, logger: Logger) throws(EngineError) -> (StateStore, Restored) {
        guard let directory = config.stateDirectory else { throw .state("no state directory") }
        let store: StateStore
        var dropped: [String] = []
        do {
            store = try StateStore(directory: directory, durability: config.durability, recover: config.recover)
        } catch {
            // Only a database that cannot be read is set aside: a directory that is not ours or that another
            // engine holds is refused (`.stateDirectory`) before any file in it is touched.
            guard config.recover, case .state = error,
                FileManager.default.fileExists(atPath: "\(directory)/\(fileName)")
            else { throw error }
            let aside = setAside(directory: directory)
            store = try StateStore(directory: directory, durability: config.durability, recover: true)
            // What SQLite can still read of the damaged file comes back: each session whose rows read whole.
            let salvaged = aside.map { store.salvage(from: $0) } ?? (kept: [], lost: [])
            dropped.append(
                "\(error); the database was moved to \(aside ?? "?")"
                    + (salvaged.kept.isEmpty
                        ? "" : "; read back from it: " + salvaged.kept.map { "\"\($0)\"" }.joined(separator: ", "))
                    + (salvaged.lost.isEmpty
                        ? (salvaged.kept.isEmpty ? "; no session in it could be read" : "")
                        : "; dropped: " + salvaged.lost.joined(separator: "; ")))
        }
        var restored: Restored
        do {
            restored = try store.restore(
                replayBuffer: config.replayBuffer, replayBytes: config.bounds.replayBytes, recover: config.recover)
        } catch {
            store.close()
            throw error
        }
        // Reading a snapshot back parses its whole text into a document first (3.6 GB at its peak for a million
        // views): what that left freed goes back to the system rather than staying resident (3 GB a million
        // views after a restart, 0.63 GB with this).
        MemoryTrim.afterLargeRequest()
        restored.dropped.insert(contentsOf: dropped, at: 0)
        for line in restored.dropped { logger.warning("--recover: \(line)") }
        logger.info(
            "state in \(directory): \(restored.hosts.count) session(s) restored",
            metadata: ["durability": "\(config.durability.rawValue)"])
        return (store, restored)
    }

    /// Saves the sessions made at start (a first start's `default`) before anything is acknowledged.
    func saveNew(_ sessions: [SessionHost]) throws(EngineError) {
        do {
            for host in sessions { try saveSnapshot(host) }
            try commit()
        } catch {
            rollback()
            throw .state("cannot write the state in \(path): \(error)")
        }
    }
}
