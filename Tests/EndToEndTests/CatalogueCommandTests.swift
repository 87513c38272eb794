import CKTestHelpers
import Foundation
import Testing

@Suite("ckrun catalogue")
struct CatalogueCommandTests {
    @Test func docsPageIsTheGeneratedCatalogue() throws {
        let page = try String(contentsOf: Ckrun.packageRoot.appendingPathComponent("docs/errors.md"), encoding: .utf8)
        let r = try Ckrun.run(["catalogue"])
        #expect(r.status == 0)
        #expect(r.stdout == page, "regenerate with: .build/debug/ckrun catalogue > docs/errors.md")
    }
}
