import CKCore
import CKTestHelpers
import Testing

@Suite("Scopes and state in the core")
struct ScopeTests {
    @Test func scopesKeepIdentityAcrossGenerations() throws {
        let f = CoreFixture()
        let item = f.component("Item", identifiedByProps: true, initialState: .int(0))
        let list = f.stack("List") { _ in [try f.make(item, props: .string("a")), try f.make(item, props: .string("b"))] }
        let host = try Host(runtime: f.runtime) { _ in try f.make(list) }
        let first = host.root!.children.map { $0.scope! }
        try host.update(model: .nil)
        let second = host.root!.children.map { $0.scope! }
        #expect(first[0] === second[0] && first[1] === second[1])
        #expect(first[0] !== first[1])
        #expect(host.generation == 2)
    }

    @Test func identityIsTheEnclosingScopeNotTheLayoutParent() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf", scope: true)
        let wrapper = f.component("Wrapper", scope: true) { c in c.props.object as? Component }
        // Owner builds Leaf and hands it to Wrapper: Leaf's scope is a child of Owner's scope.
        let owner = f.component("Owner", scope: true) { _ in try f.make(wrapper, props: .object(try f.make(leaf))) }
        let host = try Host(runtime: f.runtime) { _ in try f.make(owner) }
        let leafComponent = try host.find("Leaf")!
        #expect(leafComponent.parent?.name == "Wrapper")
        #expect(leafComponent.scope?.parent === host.root!.scope)
        #expect(leafComponent.scope?.path == "Owner/Leaf")
    }

    @Test func collidingSiblingsAreToldApartByOrderWithAWarning() throws {
        let f = CoreFixture()
        let item = f.component("Item", scope: true)
        let list = f.component("List", scope: true) { _ in
            try f.make(f.stack("Row") { _ in [try f.make(item), try f.make(item)] })
        }
        let host = try Host(runtime: f.runtime) { _ in try f.make(list) }
        let scopes = try host.findAll("Item").map { $0.scope! }
        #expect(scopes.count == 2 && scopes[0] !== scopes[1])
        #expect(scopes.map(\.ordinal) == [0, 1])
        #expect(f.warnings.count == 1)
        #expect(f.warnings[0].hasPrefix("[scopeCollision]"))
        #expect(f.warnings[0].contains("List/Item and List/Item[2]"))
        try host.update(model: .nil)
        #expect(f.warnings.count == 2, "each build that meets the collision reports it")
        #expect(try host.findAll("Item").map { $0.scope! }.elementsEqual(scopes, by: ===))
    }

    @Test func updatesFoldInOrderIntoOneBuild() throws {
        let f = CoreFixture()
        let counter = f.component("Counter", scope: true, initialState: .int(1))
        let host = try Host(runtime: f.runtime) { _ in try f.make(counter) }
        let scope = host.root!.scope!
        try host.enqueue(.transform { if case .int(let i) = $0 { .int(i * 10) } else { .nil } }, for: scope, synchronous: false)
        try host.enqueue(.value(.int(5)), for: scope, synchronous: false)
        try host.enqueue(.transform { if case .int(let i) = $0 { .int(i + 1) } else { .nil } }, for: scope, synchronous: false)
        #expect(host.generation == 1, "async updates wait for the next turn")
        try f.runtime.flush()
        #expect(host.generation == 2, "many updates make one build")
        guard case .int(6) = host.root!.state else { Issue.record("state is \(host.root!.state)"); return }
    }

    @Test func syncUpdateAtTopLevelBuildsBeforeReturning() throws {
        let f = CoreFixture()
        let counter = f.component("Counter", scope: true, initialState: .int(1))
        let host = try Host(runtime: f.runtime) { _ in try f.make(counter) }
        try host.enqueue(.value(.int(2)), for: host.root!.scope!, synchronous: true)
        #expect(host.generation == 2)
    }

    @Test func initialStateRunsOncePerScopeLifetime() throws {
        let f = CoreFixture()
        var calls = 0
        let counter = f.component("Counter", scope: true)
        counter.initialState = { _ in calls += 1; return .int(0) }
        let host = try Host(runtime: f.runtime) { _ in try f.make(counter) }
        try host.update(model: .nil)
        try host.update(model: .nil)
        #expect(calls == 1)
    }

    @Test func failedBuildKeepsThePreviousGeneration() throws {
        struct Boom: Error {}
        let f = CoreFixture()
        var fail = false
        let counter = f.component("Counter", scope: true, initialState: .int(1)) { _ in
            if fail { throw Boom() }
            return nil
        }
        let host = try Host(runtime: f.runtime) { _ in try f.make(counter) }
        try host.mount()
        let root = host.root!
        fail = true
        try host.enqueue(.value(.int(9)), for: root.scope!, synchronous: false)
        // SPEC §3: rolled back, the update dropped, raised once as [buildFailed].
        #expect(throws: BuildFailure.self) { try f.runtime.flush() }
        #expect(host.root === root && root.isMounted && host.generation == 1)
        guard case .int(1) = root.scope!.state else { Issue.record("state changed"); return }
        fail = false
        try f.runtime.flush()
        #expect(host.generation == 1, "nothing left to build: the failed build's update was dropped")
        guard case .int(1) = host.root!.state else { Issue.record("the dropped update was applied"); return }
    }

    @Test func updateDuringRenderAndOutsideBuildAreRefused() throws {
        let f = CoreFixture()
        let scoped = f.component("Scoped", scope: true)
        #expect(throws: RuntimeError.self) { try f.make(scoped) }
        var sneaky: Scope?
        let app = f.component("App", scope: true) { c in
            if let s = sneaky { try c.host!.enqueue(.value(.int(1)), for: s, synchronous: false) }
            return nil
        }
        let host = try Host(runtime: f.runtime) { _ in try f.make(app) }
        sneaky = host.root!.scope
        do {
            try host.update(model: .nil)
            Issue.record("expected updateDuringRender")
        } catch let e as BuildFailure {
            #expect(e.message.hasPrefix("[buildFailed]") && e.cause.hasPrefix("[updateDuringRender]"))
        }
    }

    @Test func pureComponentsWithEqualPropsKeepTheirInstance() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf", pure: true)
        let list = f.stack("List") { c in [try f.make(leaf, props: .int(1)), try f.make(leaf, props: c.props)] }
        let host = try Host(runtime: f.runtime, model: .int(7)) { m in try f.make(list, props: m) }
        let before = host.root!.children
        let renders = f.renders["Leaf"]!
        try host.update(model: .int(8))
        let after = host.root!.children
        #expect(after[0] === before[0], "equal props: kept")
        #expect(after[1] !== before[1], "changed props: re-rendered")
        #expect(f.renders["Leaf"]! == renders + 1)
    }

    @Test func stateUpdateRerendersOnlyTheChangedScope() throws {
        let f = CoreFixture()
        let leaf = f.component("Leaf", identifiedByProps: true, pure: true, initialState: .int(0))
        let list = f.stack("List") { _ in (0..<50).map { i in try! f.make(leaf, props: .int(Int64(i))) } }
        let app = f.component("App", scope: true) { _ in try f.make(list) }
        let host = try Host(runtime: f.runtime) { _ in try f.make(app) }
        try host.mount()
        let root = host.root!
        let leaves = try host.findAll("Leaf")
        let rendersBefore = (f.renders["Leaf"] ?? 0, f.renders["App"] ?? 0)
        try host.enqueue(.value(.int(1)), for: leaves[10].scope!, synchronous: true)
        #expect(f.renders["Leaf"]! == rendersBefore.0 + 1)
        #expect(f.renders["App"]! == rendersBefore.1, "ancestors are not re-rendered")
        #expect(host.root === root)
        let now = try host.findAll("Leaf")
        #expect(now[10] !== leaves[10] && now[10].isMounted && !leaves[10].isMounted)
        #expect(now[9] === leaves[9] && now[11] === leaves[11])
    }

    @Test func deepAndWideTreesBuildMountAndUnmount() throws {
        let f = CoreFixture()
        let node = f.component("Node", view: "UIView") { c in
            guard case .int(let depth) = c.props, depth > 0 else { return nil }
            return try f.make(c.componentClass, props: .int(depth - 1))
        }
        let deep = try Host(runtime: f.runtime) { _ in try f.make(node, props: .int(10_000)) }
        try deep.mount()
        #expect(deep.allComponents().count == 10_001)
        #expect(try deep.dump { _ in "" }.split(separator: "\n").count == 10_001)
        try deep.unmount()
        try deep.destroy()
        let leaf = f.component("Leaf", view: "UILabel")
        let wide = f.stack("Wide") { _ in (0..<20_000).map { _ in try! f.make(leaf) } }
        let host = try Host(runtime: f.runtime) { _ in try f.make(wide) }
        try host.mount()
        #expect(host.hostingView.subviews.count == 20_000)
        try host.unmount()
        #expect(host.hostingView.subviews.isEmpty)
    }
}
