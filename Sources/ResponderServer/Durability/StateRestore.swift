import ResponderCore
import ResponderJSON
import ResponderProtocol

extension StateStore {
    /// The sessions read back, and what `--recover` left out (one line each, for the log).
    struct Restored {
        var hosts: [SessionHost] = []
        var dropped: [String] = []
    }

    /// Every saved session, rebuilt: its snapshot, then its logged batches replayed in revision order. Nothing
    /// live comes back, seq continues where it was, and the replay ring starts empty. A damaged session stops
    /// the start (naming it and the file); with `recover` the session keeps its snapshot and the batches
    /// that replay, or is dropped when even its snapshot cannot be read, and the store is rewritten to match.
    func restore(replayBuffer: Int, replayBytes: Int = .max, recover: Bool) throws(EngineError) -> Restored {
        var restored = Restored()
        let rows: [Row]
        do { rows = try self.rows() } catch { throw .state("cannot read the sessions in \(path): \(error)") }
        if let loss { restored.dropped.append("\(loss.what); going on with what is left") }
        for row in rows {
            do throws(EngineError) {
                let (host, problem) = try rebuild(
                    row, replayBuffer: replayBuffer, replayBytes: replayBytes, recover: recover, above: loss?.ceiling)
                restored.hosts.append(host)
                if let problem {
                    restored.dropped.append(problem)
                    try rewrite { store throws(SQLiteError) in try store.saveSnapshot(host) }
                }
                if let loss {
                    restored.dropped.append(Self.cameBack(row, host, after: loss))
                    try rewrite { store throws(SQLiteError) in try store.saveSnapshot(host) }
                }
            } catch {
                guard recover else { throw error }
                restored.dropped.append("session \"\(row.name)\" dropped: \(error)")
                try rewrite { store throws(SQLiteError) in try store.delete(row.name) }
            }
        }
        if loss != nil, restored.hosts.isEmpty { restored.dropped.append("no session came back") }
        for host in restored.hosts { hold(seq: host.seq, revision: host.revision) }
        return restored
    }

    /// The report's line for a session restored after a loss: where it came back, and where it goes on from.
    private static func cameBack(_ row: Row, _ host: SessionHost, after loss: StateLoss) -> String {
        let back = "session \"\(row.name)\" came back at revision \(row.revision) (seq \(row.seq))"
        guard loss.ceiling != nil else {
            return back
                + "; with no state mark to continue above, its next seqs may repeat ones published before the loss"
        }
        return back
            + "; it continues after revision \(host.revision) and seq \(host.seq), above any it may have reached before the loss"
    }

    func committed(_ names: Set<String>, replayBuffer: Int, replayBytes: Int) throws(EngineError) -> [String:
        SessionHost]
    {
        var hosts: [String: SessionHost] = [:]
        for name in names {
            forget(name)
            let rows: [Row]
            do { rows = try self.rows(named: name) } catch {
                throw .state("cannot read the sessions in \(path): \(error)")
            }
            for row in rows {
                hosts[name] = try rebuild(
                    row, replayBuffer: replayBuffer, replayBytes: replayBytes, recover: false, above: nil
                ).0
            }
        }
        return hosts
    }

    private func rewrite(_ body: (StateStore) throws(SQLiteError) -> Void) throws(EngineError) {
        do {
            try body(self)
            try commit()
        } catch {
            rollback()
            throw .state("cannot rewrite the recovered state in \(path): \(error)")
        }
    }

    /// One session from its row; with `recover`, a log that stops replaying keeps what replayed before
    /// (the problem is returned to be reported).
    /// `above`: after a loss, the ceilings the session continues above.
    private func rebuild(_ row: Row, replayBuffer: Int, replayBytes: Int, recover: Bool, above: StateMark?)
        throws(EngineError) -> (SessionHost, String?)
    {
        let at = "session \"\(row.name)\" in \(path)"
        guard EngineConfig.isValidName(row.name), row.seq >= 0, row.snapshotRevision >= 1 else {
            throw .state("\(at): its row is damaged (name, seq or revision out of range)")
        }
        let saved: SavedSessionState
        var world: World
        let stateJSON: JSON
        do { stateJSON = try JSONCodec.decode(row.state, strings: KnownStrings.table) } catch {
            throw .state("\(at): its saved state is not JSON: \(error)")
        }
        do throws(RPCError) {
            saved = try WireDecoder.decode(SavedSessionState.self, from: stateJSON)
            world = try WorldSnapshot.decode(tree: row.tree, detached: row.detached, revision: row.snapshotRevision)
        } catch {
            throw .state("\(at): its snapshot cannot be read: \(error.message)")
        }
        var problem: String?
        let batches: [(revision: Int, ops: [UInt8])]
        do { batches = try self.batches(row.name, after: row.snapshotRevision) } catch {
            throw .state("\(at): its batches cannot be read: \(error)")
        }
        var logBytes = 0
        for batch in batches {
            guard batch.revision == world.revision + 1 else {
                problem = "the batch for revision \(world.revision + 1) is missing"
                break
            }
            do throws(RPCError) {
                let ops = try WorldSnapshot.ops(batch.ops)
                _ = try core { () throws(CoreError) in try world.apply(ops, limits: WorldSnapshot.unbounded) }
            } catch {
                problem = "the batch for revision \(batch.revision) does not apply: \(error.message)"
                break
            }
            logBytes += batch.ops.count
        }
        if problem == nil, world.revision != row.revision {
            problem = "its log ends at revision \(world.revision), not at the saved revision \(row.revision)"
        }
        if let problem, !recover { throw .state("\(at): \(problem)") }
        // After a loss the session goes on above every revision and seq it may have reached: a subscriber sees a
        // gap and resynchronises, rather than taking new events for ones it already has.
        let ceiling = above ?? StateMark()
        world.continueRevision(after: ceiling.revision)
        let state = SessionState(restoring: world, profile: saved.profile, parts: saved.parts)
        let host = SessionHost(
            name: row.name, state: state, replayBuffer: replayBuffer, replayBytes: replayBytes,
            seq: max(row.seq, ceiling.seq))
        host.worldBeforeFirstEvent = saved.worldBeforeFirstEvent
        host.ownerToken = saved.owner
        noteRestored(row.name, snapshotBytes: row.tree.count + row.detached.count, logBytes: logBytes)
        return (
            host,
            problem.map { "session \"\(row.name)\" kept up to revision \(world.revision): \($0); the rest was dropped" }
        )
    }
}
