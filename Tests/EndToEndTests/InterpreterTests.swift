import CKTestHelpers
import Testing

@Suite("ckrun as a Lua interpreter")
struct InterpreterTests {
    @Test func evaluatesAChunk() throws {
        let r = try Ckrun.run(["-e", "print(1+1)"])
        #expect(r.status == 0)
        #expect(r.stdout == "2\n")
    }
}
