import Foundation
import ResponderClient
import ResponderProtocol
import Testing

@testable import ResponderServer

/// The runtime directory and its files (Protocol/README.md §3, "The directory"): nothing another user planted
/// is used, and nothing is written through a link.
@Suite("Security: directories and files")
struct SecurityFileTests {
    /// A fresh directory of this test's own under /tmp (short: ipc paths).
    static func scratch() -> String {
        let dir = "/tmp/sf-" + String(UInt32.random(in: 0 ... .max), radix: 36)
        mkdir(dir, 0o700)
        return dir
    }

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        lstat(path, &st)
        return st.st_mode & 0o7777
    }

    @Test("a missing directory is made 0700; an existing one of ours is tightened to 0700")
    func createsAndTightens() throws {
        let base = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        try SecureDirectory.prepare("\(base)/new", what: "runtime directory")
        #expect(Self.mode("\(base)/new") == 0o700)
        mkdir("\(base)/open", 0o755)
        chmod("\(base)/open", 0o755)
        try SecureDirectory.prepare("\(base)/open/", what: "runtime directory")
        #expect(Self.mode("\(base)/open") == 0o700)
    }

    @Test("a symbolic link, a group-writable directory and (as root) another user's directory are refused")
    func refusesUnsafeDirectories() throws {
        let base = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        mkdir("\(base)/real", 0o700)
        symlink("\(base)/real", "\(base)/link")
        #expect(throws: EngineError.self) { try SecureDirectory.prepare("\(base)/link", what: "runtime directory") }
        #expect(
            "\(Self.failure { try SecureDirectory.prepare("\(base)/link/", what: "runtime directory") })".contains(
                "symbolic link"))
        mkdir("\(base)/shared", 0o700)
        chmod("\(base)/shared", 0o770)
        #expect(
            "\(Self.failure { try SecureDirectory.prepare("\(base)/shared", what: "runtime directory") })".contains(
                "group or others may write"))
        #expect(Self.mode("\(base)/shared") == 0o770, "a refused directory is left as it was")
        if geteuid() == 0 {
            mkdir("\(base)/theirs", 0o700)
            chown("\(base)/theirs", 65534, 65534)
            #expect(
                "\(Self.failure { try SecureDirectory.prepare("\(base)/theirs", what: "runtime directory") })".contains(
                    "belongs to uid 65534"))
        }
    }

    @Test("a lock file that is a symbolic link is refused and its target is not written")
    func symlinkedLockIsRefused() throws {
        let base = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let target = "\(base)/victim"
        _ = FileManager.default.createFile(atPath: target, contents: Data("precious\n".utf8))
        symlink(target, "\(base)/e.lock")
        let message = "\(Self.failure { _ = try InstanceLock(directory: base, name: "e") })"
        #expect(message.contains("symbolic link"), "\(message)")
        #expect(FileManager.default.contents(atPath: target) == Data("precious\n".utf8))
    }

    @Test("an engine refuses a planted lock link before binding or writing anything")
    func engineRefusesPlantedLock() throws {
        let base = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        symlink("\(base)/elsewhere", "\(base)/p.lock")
        let engine = Engine(config: EngineConfig(name: "p", directory: base))
        #expect(throws: EngineError.self) { try engine.start() }
        let left = try FileManager.default.contentsOfDirectory(atPath: base)
        #expect(left == ["p.lock"], "only the planted link: no socket, no discovery file, nothing it points to")
    }

    @Test("clients refuse a discovery file that is a link, writable by others, or (as root) another user's")
    func clientsRefusePlantedDiscoveryFiles() throws {
        let t = try TestEngine(name: "d")
        defer { t.stop() }
        _ = try t.address  // the engine's own file is accepted
        let path = t.engine.discoveryPath
        let original = try #require(FileManager.default.contents(atPath: path))
        chmod(path, 0o622)
        #expect(Self.clientFailure(t).contains("group or others may write"))
        chmod(path, 0o600)
        if geteuid() == 0 {
            chown(path, 65534, 65534)
            #expect(Self.clientFailure(t).contains("belongs to uid 65534"))
            chown(path, 0, 0)
        }
        unlink(path)
        _ = FileManager.default.createFile(atPath: "\(t.directory)/real.json", contents: original)
        symlink("\(t.directory)/real.json", path)
        #expect(Self.clientFailure(t).contains("symbolic link"))
    }

    static func clientFailure(_ t: TestEngine) -> String {
        do { _ = try t.address } catch { return "\(error)" }
        return "accepted"
    }

    static func failure(_ body: () throws -> Void) -> String {
        do { try body() } catch { return "\(error)" }
        return "no error"
    }
}
