import CKCore
import CKTestHelpers
import class Foundation.Thread
import Dispatch
import Testing

@Suite("Action resolution and marshalling in the core")
struct ActionTests {
    /// Card (scoped, with a controller) > Button (a UIButton view).
    private func cardFixture(cardMethods: [String: Method] = [:], controllerMethods: [String: Method] = [:],
                             responders: [ScriptResponder] = []) throws -> (CoreFixture, Host) {
        let f = CoreFixture()
        f.controller("CardController", handlers: controllerMethods)
        let button = f.component("Button", view: "UIButton")
        let card = f.component("Card", scope: true) { _ in try f.make(button) }
        for (name, m) in cardMethods { card.setMethod(m, named: name) }
        let host = try Host(runtime: f.runtime, responders: responders) { _ in try f.make(card) }
        try host.mount()
        return (f, host)
    }

    @Test func chainRunsFromComponentThroughControllerToHostResponders() throws {
        let vc = ScriptResponder(name: "ViewController", table: .nil, lookup: { _ in nil })
        let (f, host) = try cardFixture(responders: [vc])
        let button = try host.find("Button")!
        let names = f.runtime.responderChain(from: .component(button)).map(\.name)
        #expect(names == ["Button", "Card", "CardController", "HostingView", "ViewController"])
    }

    @Test func promotionGivesAHandlerWhatItsArityAllows() throws {
        var got: [[Value]] = []
        let (f, host) = try cardFixture(cardMethods: [
            "none": f0(0) { got.append($0) }, "one": f0(1) { got.append($0) }, "two": f0(2) { got.append($0) },
            "all": Method(name: "all", parameterCount: 0, isVararg: true) { _, a in got.append(a) },
        ])
        let button = try host.find("Button")!
        let event = Event(type: "tap", view: nil)
        for sel in ["none", "one", "two", "all"] {
            let a = try f.runtime.scopeAction(host.root!, sel, types: [.className("Event")])
            #expect(try f.runtime.send(a, sender: .component(button), arguments: [.object(event)]))
        }
        #expect(got.map(\.count) == [0, 1, 2, 2])
        #expect(got[1][0].object === button && got[2][1].object === event)
    }

    @Test func demotionFillsZeroValues() throws {
        var got: [Value] = []
        let point = StructType(name: "Point", fields: [("x", .int), ("y", .number)])
        let (f, host) = try cardFixture(cardMethods: ["full": f0(6) { got = $0 }])
        let full = try f.runtime.scopeAction(host.root!, "full", types: [.int, .bool, .number, .string, .structure(point)])
        let demoted = try full.demoted(to: [.int])
        #expect(demoted.types == [.int])
        #expect(try f.runtime.send(demoted, sender: nil, arguments: [.number(3.0)]))
        #expect(got.count == 6)
        guard case .int(3) = got[1], case .bool(false) = got[2], case .number(0) = got[3], case .nil = got[4], case .nil = got[5] else {
            Issue.record("got \(got)"); return
        }
        // Without script tables the core cannot make a struct table: the zero struct is nil here;
        // the bridge's spec files check the zeroed table.
    }

    @Test func argumentsAreCheckedAndConverted() throws {
        var got: [Value] = []
        let (f, host) = try cardFixture(cardMethods: ["take": f0(3) { got = $0 }])
        let a = try f.runtime.scopeAction(host.root!, "take", types: [.int, .number])
        #expect(try f.runtime.send(a, sender: nil, arguments: [.number(2.0), .int(5)]))
        guard case .int(2) = got[1], case .number(5.0) = got[2] else { Issue.record("got \(got)"); return }
        for bad: [Value] in [[.number(2.5)], [.string("x")], [.int(1), .int(2), .int(3)], []] {
            do {
                try f.runtime.send(a, sender: nil, arguments: bad)
                Issue.record("expected badArgument for \(bad)")
            } catch let e as RuntimeError {
                #expect(e.id == .badArgument)
            }
        }
    }

    @Test func constructionChecksTheHandler() throws {
        let (f, host) = try cardFixture(cardMethods: ["two": f0(2) { _ in }])
        #expect(throws: RuntimeError.self) { try f.runtime.scopeAction(host.root!, "missing", types: []) }
        do {
            _ = try f.runtime.scopeAction(host.root!, "two", types: [])
            Issue.record("expected tooManyArguments")
        } catch let e as RuntimeError {
            #expect(e.id == .tooManyArguments)
        }
    }

    @Test func controllerHandlesItsComponentsScopeAction() throws {
        var handled = false
        let (f, host) = try cardFixture(controllerMethods: ["save": f0(0) { _ in handled = true }])
        let a = try f.runtime.scopeAction(host.root!, "save", types: [])
        #expect(try f.runtime.send(a, sender: nil, arguments: []))
        #expect(handled)
    }

    @Test func unhandledActionPrintsTheChain() throws {
        let (f, host) = try cardFixture()
        let button = try host.find("Button")!
        let a = f.runtime.selectorAction("nobody", types: [])
        do {
            try f.runtime.send(a.withBehavior(.startAtSender), sender: .component(button), arguments: [])
            Issue.record("expected unhandledAction")
        } catch let e as RuntimeError {
            #expect(e.id == .unhandledAction)
            #expect(e.detail.contains("Button -> Card -> CardController -> HostingView -> nil"))
        }
        f.runtime.unhandledAction = .ignore
        #expect(try f.runtime.send(a, sender: .component(button), arguments: []) == false)
    }

    @Test func scopeActionIsANoOpOnceTheScopeIsGone() throws {
        var calls = 0
        let (f, host) = try cardFixture(cardMethods: ["ping": f0(0) { _ in calls += 1 }])
        let a = try f.runtime.scopeAction(host.root!, "ping", types: [])
        try host.destroy()
        #expect(try f.runtime.send(a, sender: nil, arguments: []) == false)
        #expect(calls == 0)
    }

    @Test func scopeActionResolvesToTheNewestGeneration() throws {
        var receivers: [RuntimeObject] = []
        let f = CoreFixture()
        let card = f.component("Card", scope: true)
        card.setMethod(Method(name: "ping", parameterCount: 0) { r, _ in receivers.append(r!.object) }, named: "ping")
        let host = try Host(runtime: f.runtime) { _ in try f.make(card) }
        let a = try f.runtime.scopeAction(host.root!, "ping", types: [])
        try host.update(model: .nil)
        try f.runtime.send(a, sender: nil, arguments: [])
        #expect(receivers.first === host.root)
    }

    @Test func sendsFromAnotherThreadAreRefused() throws {
        let (f, host) = try cardFixture(cardMethods: ["ping": f0(0) { _ in }])
        let a = try f.runtime.scopeAction(host.root!, "ping", types: [])
        nonisolated(unsafe) let runtime = f.runtime
        nonisolated(unsafe) let action = a
        nonisolated(unsafe) var id: Catalogue?
        nonisolated(unsafe) var detail = ""
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do { try runtime.send(action, sender: nil, arguments: []) } catch let e as RuntimeError { id = e.id; detail = e.detail } catch {}
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(id == .notMainThread)
        #expect(detail.hasPrefix("send of \"ping\" came from another thread"), "names the selector (issue 29): \(detail)")
    }

    private func f0(_ n: Int, _ body: @escaping ([Value]) -> Void) -> Method {
        Method(name: "h", parameterCount: n) { _, args in body(args) }
    }
}
