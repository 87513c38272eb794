import CKLua
import Foundation

/// Host functions the benchmark script needs: a monotonic clock and the malloc heap size
/// (Lua's allocations and Swift's together).
enum BenchSupport {
    static func install(in engine: Engine) {
        engine.defineGlobalFunction("bench_clock") { call in
            call.push(Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
            return 1
        }
        engine.defineGlobalFunction("bench_heap") { call in
            call.push(Double(Engine.heapBytes))
            return 1
        }
    }
}
