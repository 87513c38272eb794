import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `--watch`: runs the tests, then waits on inotify (no polling) for files under the test
/// paths to change and runs again: only the changed test files when all the changes are test
/// files of the run, else everything. Ends with the process (Ctrl-C).
final class TestWatcher {
    let roots: [String]
    private var watched: [Int32: String] = [:]

    init(roots: [String]) { self.roots = roots }

    func loop(_ run: ([String]?) -> Void) throws -> Never {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { throw ValidationError("--watch: inotify is not available here") }
        for root in roots { addTree(fd, root) }
        run(nil)
        while true {
            let changed = waitForChanges(fd)
            if changed.isEmpty { continue }
            StandardStreams.err("\nckrun test --watch: \(changed.sorted().joined(separator: ", ")) changed\n")
            let tests = changed.filter { TestDiscovery.isTestFile(($0 as NSString).lastPathComponent) }
            run(tests.count == changed.count ? tests.sorted() : nil)
        }
    }

    private func addTree(_ fd: Int32, _ directory: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { return }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
        let wd = inotify_add_watch(fd, directory, mask)
        guard wd >= 0, watched[wd] == nil else { return }
        watched[wd] = directory
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where !entry.hasPrefix(".") {
            addTree(fd, directory == "." ? entry : directory + "/" + entry)
        }
    }

    /// Blocks for the first event, then gathers what follows within 100 ms (editors write in bursts).
    private func waitForChanges(_ fd: Int32) -> Set<String> {
        var changed = Set<String>()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var timeout: Int32 = -1
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return changed }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { return changed }
            parse(buffer, count: count, fd: fd, into: &changed)
            timeout = 100
        }
    }

    private func parse(_ buffer: [UInt8], count: Int, fd: Int32, into changed: inout Set<String>) {
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + Int(event.len))]
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            offset += header + Int(event.len)
            guard let directory = watched[event.wd], !name.hasPrefix(".") else { continue }
            let path = directory == "." ? name : directory + "/" + name
            if event.mask & UInt32(IN_ISDIR) != 0 {
                if event.mask & UInt32(IN_CREATE) != 0 { addTree(fd, path) }
            } else {
                changed.insert(path)
            }
        }
    }
}
