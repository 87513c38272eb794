import CKCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// What lua.c says about a bad option, in its words (scripts match them), then ckrun's usage.
enum LuaUsage {
    static func write(badOption: UnsafeMutablePointer<CChar>, progname: UnsafeMutablePointer<CChar>?) {
        let name = progname.flatMap { $0.pointee == 0 ? nil : String(cString: $0) } ?? "ckrun"
        let option = String(decoding: UnsafeRawBufferPointer(start: badOption, count: strlen(badOption)), as: UTF8.self)
        let letter = option.utf8.dropFirst().first
        let problem = letter == UInt8(ascii: "e") || letter == UInt8(ascii: "l")
            ? "'\(option)' needs argument" : "unrecognized option '\(option)'"
        let text = """
            \(name): \(problem)
            usage: \(name) [options] [script [args]]
              -e stat    run the chunk 'stat'
              -i         read-eval-print after running 'script'
              -l mod     mod = require("mod")
              -l g=mod   g = require("mod")
              -v         print the version
              -E         ignore the environment (LUA_INIT, LUA_PATH, LUA_CPATH)
              -W         turn warnings on
              --         stop handling options
              -          stop handling options and run standard input
              --sandbox, --timeout SECONDS, --memory-limit MB: see 'ckrun --help'

            """
        fflush(stdout)
        ProcessOutput.err(text)
    }
}
