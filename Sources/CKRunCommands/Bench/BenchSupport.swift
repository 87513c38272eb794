import CKLua
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Host functions the benchmark script needs: the process's CPU time, the malloc heap size
/// (Lua's allocations and Swift's together), and malloc's merge of freed blocks on demand.
enum BenchSupport {
    static func install(in engine: Engine) {
        // CPU time, as `os.clock` gives it but in nanoseconds: on a machine that shares its cores,
        // wall time also counts the time other processes had the core.
        engine.defineGlobalFunction("bench_clock") { call in
            var t = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
            call.push(Double(t.tv_sec) + Double(t.tv_nsec) / 1e9)
            return 1
        }
        engine.defineGlobalFunction("bench_heap") { call in
            call.push(Double(Engine.heapBytes))
            return 1
        }
        engine.defineGlobalFunction("bench_settle_heap") { _ in
            MallocHeap.settle()
            return 0
        }
    }
}
