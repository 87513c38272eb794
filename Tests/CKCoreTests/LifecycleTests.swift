import CKCore
import CKTestHelpers
import Testing

@Suite("Controller lifecycle in the core")
struct LifecycleTests {
    private func songFixture() throws -> (CoreFixture, Host) {
        let f = CoreFixture()
        f.controller("SongController")
        let label = f.component("Label", view: "UILabel")
        f.component("Song", scope: true, view: "UIView", initialState: .int(0)) { _ in try f.make(label) }
        let host = try Host(runtime: f.runtime) { _ in try f.make(f.runtime.componentClass(named: "Song")!) }
        return (f, host)
    }

    @Test func firstMountRunsInitThenMountCallbacksParentFirst() throws {
        let (f, host) = try songFixture()
        #expect(f.log == ["SongController.init", "SongController.didInit"])
        try host.mount()
        #expect(f.log.dropFirst(2) == ["SongController.willMount", "SongController.componentDidAcquireView", "SongController.didMount"])
        #expect(host.root!.controller!.view === host.root!.view)
    }

    @Test func updateWhileMountedRemounts() throws {
        let (f, host) = try songFixture()
        try host.mount()
        let controller = host.root!.controller!
        f.log.removeAll()
        try host.enqueue(.value(.int(1)), for: host.root!.scope!, synchronous: true)
        #expect(f.log == ["SongController.willUpdateComponent", "SongController.willRemount",
                          "SongController.didRemount", "SongController.didUpdateComponent"])
        #expect(host.root!.controller === controller && controller.component === host.root!)
    }

    @Test func updateWhileUnmountedWaitsForTheNextMount() throws {
        let (f, host) = try songFixture()
        try host.mount()
        try host.unmount()
        #expect(f.log.suffix(3) == ["SongController.willUnmount", "SongController.componentWillRelinquishView", "SongController.didUnmount"])
        f.log.removeAll()
        try host.enqueue(.value(.int(1)), for: host.root!.scope!, synchronous: true)
        #expect(f.log.isEmpty)
        try host.mount()
        #expect(f.log == ["SongController.willUpdateComponent", "SongController.willMount",
                          "SongController.componentDidAcquireView", "SongController.didMount", "SongController.didUpdateComponent"])
    }

    @Test func remountingTheSameGenerationIsNotAnUpdate() throws {
        let (f, host) = try songFixture()
        try host.mount()
        try host.unmount()
        f.log.removeAll()
        try host.mount()
        #expect(!f.log.contains("SongController.didUpdateComponent"))
        #expect(f.log.contains("SongController.didMount"))
    }

    @Test func invalidateOnceWhenTheScopeLeaves() throws {
        let f = CoreFixture()
        f.controller("ItemController")
        let item = f.component("Item", scope: true)
        let list = f.stack("List") { c in c.props.isNil ? [try f.make(item)] : [] }
        let host = try Host(runtime: f.runtime) { m in try f.make(list, props: m) }
        try host.mount()
        let controller = host.root!.children[0].controller!
        try host.update(model: .bool(true))
        #expect(f.log.filter { $0 == "ItemController.invalidateController" }.count == 1)
        #expect(controller.isInvalidated)
        let unmount = f.log.firstIndex(of: "ItemController.didUnmount")!
        let invalidate = f.log.firstIndex(of: "ItemController.invalidateController")!
        #expect(unmount < invalidate)
        try host.destroy()
        #expect(f.log.filter { $0 == "ItemController.invalidateController" }.count == 1)
    }

    @Test func appearAndDisappearReachMountedControllers() throws {
        let (f, host) = try songFixture()
        try host.mount()
        f.log.removeAll()
        try host.appear()
        try host.disappear()
        #expect(f.log == ["SongController.componentTreeWillAppear", "SongController.componentTreeDidDisappear"])
    }

    @Test func viewIsKeptAtTheSamePlaceWithTheSameClass() throws {
        let (_, host) = try songFixture()
        try host.mount()
        let view = host.root!.view!
        let label = host.root!.children[0].view!
        try host.update(model: .nil)
        #expect(host.root!.view === view)
        #expect(host.root!.children[0].view === label)
        #expect(label.superview === view && view.superview === host.hostingView)
    }

    @Test func destroyedHostRefusesEverything() throws {
        let (_, host) = try songFixture()
        try host.destroy()
        for call in [{ try host.mount() }, { try host.update(model: .nil) }, { _ = try host.find("Song") }] {
            do {
                try call()
                Issue.record("expected hostDestroyed")
            } catch let e as RuntimeError {
                #expect(e.id == .hostDestroyed)
            }
        }
    }
}
