import CKCore
import CKTestHelpers
import Foundation
import Testing

@Suite("The error catalogue")
struct CatalogueTests {
    @Test func docsPageNamesEveryId() throws {
        let page = try String(contentsOf: Ckrun.packageRoot.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        for id in Catalogue.allCases {
            #expect(page.contains("`[\(id.rawValue)]`"))
        }
    }

    @Test func everySpecIdIsCatalogued() {
        let specIds = ["unhandledAction", "scopeCollision", "updateLoop", "updateDuringRender", "outsideBuild", "noScope",
                       "immutableComponent", "controllerWithoutScope", "hostDestroyed", "unknownType", "doesNotRespond",
                       "tooManyArguments", "badArgument", "notMounted", "notMainThread", "implicitDemotion", "typeMismatch",
                       "notAControl", "yieldAcrossRuntime", "timeout", "memoryLimit"]
        for id in specIds { #expect(Catalogue(rawValue: id) != nil, "\(id)") }
    }

    @Test func messagesStartWithTheId() {
        #expect(Catalogue.noScope.message("x", at: "a.lua:3") == "[noScope] a.lua:3: x")
        #expect(RuntimeError(.badQuery, "y").description == "[badQuery] y")
    }
}
