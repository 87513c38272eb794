import CKCore
import CKTestHelpers
import Testing

/// One rule re-types an action (`TypeSpec.meeting`): a prop's, a built-in's, `ck.onTap`'s or a
/// demotion's declared types are checked for compatibility and never widen the action's own
/// (atk-ck3 06, 07: an `{"int"}` action through an `{"any"}` prop, or `demoted({"any"})`,
/// handed its int handler a string). A callable table handler receives every argument (03).
@Suite("Re-typing actions: declared types never widen an action's own")
struct ActionRetypingTests {
    /// Card (scoped) whose `take` method records what it receives.
    private func card(_ take: Method) throws -> (CoreFixture, Host) {
        let f = CoreFixture()
        let card = f.component("Card", scope: true) { _ in nil }
        card.setMethod(take, named: "take")
        let host = try Host(runtime: f.runtime, responders: []) { _ in try f.make(card) }
        try host.mount()
        return (f, host)
    }

    private func refuses(_ id: Catalogue, _ body: () throws -> Void) {
        do { try body(); Issue.record("expected [\(id)]") } catch let e as RuntimeError { #expect(e.id == id, "\(e)") } catch { Issue.record("\(error)") }
    }

    @Test func aPropDeclaredAnyKeepsTheActionsTypes() throws {
        var got: [Value] = []
        let (f, host) = try card(Method(name: "take", parameterCount: 0, isVararg: true) { _, a in got = a })
        let a = try f.runtime.scopeAction(host.root!, "take", types: [.int])
        let viaAny = try f.runtime.conformActionProp(a, declared: [.any], prop: "on", component: "W")
        #expect(viaAny.types == [.int] && viaAny === a)
        refuses(.badArgument) { try f.runtime.send(viaAny, sender: nil, arguments: [.string("x")]) }
        try f.runtime.send(viaAny, sender: nil, arguments: [.number(2.0)])
        guard case .int(2) = got[1] else { Issue.record("got \(got)"); return }
        let longer = try f.runtime.conformActionProp(a, declared: [.any, .string], prop: "on", component: "W")
        #expect(longer.types == [.int, .string] && longer.fullTypes == [.int, .string])
        let anyAction = try f.runtime.scopeAction(host.root!, "take", types: [.any])
        #expect(try f.runtime.conformActionProp(anyAction, declared: [.int], prop: "on", component: "W").types == [.int])
        refuses(.typeMismatch) { _ = try f.runtime.conformActionProp(a, declared: [.string], prop: "on", component: "W") }
    }

    @Test func demotingToAnyKeepsTheActionsType() throws {
        let (f, host) = try card(Method(name: "take", parameterCount: 3) { _, _ in })
        let full = try f.runtime.scopeAction(host.root!, "take", types: [.int, .string])
        let d = try full.demoted(to: [.any])
        #expect(d.types == [.int] && d.fullTypes == [.int, .string])
        refuses(.badArgument) { try f.runtime.send(d, sender: nil, arguments: [.string("oops")]) }
        refuses(.typeMismatch) { _ = try full.demoted(to: [.number]) }
    }

    @Test func aStructRedefinedSinceTheActionWasMadeIsNamedSo() throws {
        let (f, host) = try card(Method(name: "take", parameterCount: 2) { _, _ in })
        let old = StructType(name: "P", fields: [("x", .int)], definedAt: "a.lua:1")
        let new = StructType(name: "P", fields: [("x", .int), ("y", .int)], definedAt: "a.lua:3")
        let a = try f.runtime.scopeAction(host.root!, "take", types: [.structure(old)])
        do {
            _ = try f.runtime.conformActionProp(a, declared: [.structure(new)], prop: "on", component: "W")
            Issue.record("expected [typeMismatch]")
        } catch let e as RuntimeError {
            #expect(e.detail.contains("an earlier definition of struct P (defined at a.lua:1), which ck.struct(\"P\", ...) at a.lua:3 replaced"), "\(e.detail)")
        }
    }

    @Test func aHandlerThatReceivesAllGetsEveryArgumentWhateverItsArity() throws {
        var got: [Value] = []
        let (f, host) = try card(Method(name: "take", parameterCount: 0, receivesAll: true) { _, a in got = a })
        let a = try f.runtime.scopeAction(host.root!, "take", types: [.int, .string])
        try f.runtime.send(a, sender: .component(host.root!), arguments: [.int(5), .string("x")])
        #expect(got.count == 3)
    }
}
