import CKTestHelpers
import Foundation
import Testing

/// What a spec file changes for the whole process (locale, directory, signal mask and actions,
/// timer, umask) is put back before the next file, alike with and without `--jobs`.
@Suite("A spec file's process state does not leak")
struct TestRunnerProcessStateTests {
    /// A C module that changes the process as a test's native code can (built with cc).
    static let moduleSource = """
        #include <lua.h>
        #include <lauxlib.h>
        #include <signal.h>
        #include <unistd.h>
        #include <sys/stat.h>
        static int spoil(lua_State *L) {
            sigset_t all; sigfillset(&all); sigprocmask(SIG_BLOCK, &all, NULL);
            signal(SIGALRM, SIG_IGN);
            umask(0777);
            lua_pushinteger(L, chdir("/"));
            return 1;
        }
        int luaopen_spoil(lua_State *L) { lua_pushcfunction(L, spoil); return 1; }
        """

    static let specs = [
        "a_spec.lua": "describe('a', function() it('changes the locale and directory', function() os.setlocale('C.utf8'); require('lfs').chdir('/') end) end)\n",
        "b_spec.lua": "describe('b', function() it('spoils the process natively', function() package.cpath = './?.so;' .. package.cpath; require('spoil')() end) end)\n",
        "c_spec.lua": "describe('c', function() it('sees the C locale', function() assert.are.equal('C', os.setlocale()) end)\n it('finds its data', function() assert.truthy(io.open('data.txt')) end) end)\n",
        "d_spec.lua": "describe('d', function() it('is stopped by the time limit', function() while true do end end) end)\n",
        "e_spec.lua": "describe('e', function() it('writes files as the umask says', function() local f = assert(io.open('made.txt', 'w')); f:close(); assert.truthy(io.open('made.txt')) end) end)\n",
    ]

    private static func project() throws -> TemporaryDirectory? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cc") else { return nil }
        let dir = try TemporaryDirectory()
        for (name, text) in specs.merging(["data.txt": "data\n", "spoil.c": moduleSource], uniquingKeysWith: { a, _ in a }) {
            try text.write(to: dir.url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let cc = try Ckrun.runProcess(URL(fileURLWithPath: "/usr/bin/cc"),
                                      ["-shared", "-fPIC", "-I/usr/include/lua5.4", "-o", "spoil.so", "spoil.c"], directory: dir.url, timeout: 60)
        return cc.status == 0 ? dir : nil
    }

    /// The report without its timings.
    private static func report(_ jobs: Int, in dir: TemporaryDirectory) throws -> (status: Int32, text: String) {
        let r = try Ckrun.run(["test", "--jobs", "\(jobs)", "--timeout", "1", "-o", "tap", "."], directory: dir.url, timeout: 60)
        return (r.status, r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n"))
    }

    @Test func serialAndJobsGiveTheSameReport() throws {
        guard let dir = try Self.project() else { return }   // no cc or no Lua headers: nothing to build the module with
        let serial = try Self.report(1, in: dir), jobs = try Self.report(2, in: dir)
        #expect(serial.text == jobs.text, "--jobs 1:\n\(serial.text)\n--jobs 2:\n\(jobs.text)")
        #expect(serial.status == 1 && jobs.status == 1)
        for run in [serial, jobs] {
            let lines = run.text.split(separator: "\n").map(String.init)
            for passing in ["ok 3 - c sees the C locale", "ok 4 - c finds its data", "ok 6 - e writes files as the umask says"] {
                #expect(lines.contains(passing), "\(run.text)")
            }
            #expect(lines.contains("not ok 5 - d is stopped by the time limit"), "\(run.text)")
        }
    }
}
