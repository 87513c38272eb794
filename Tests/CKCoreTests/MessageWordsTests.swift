import CKCore
import Testing

/// The words every message shares (atk-ck3 01, 02, 09): one article rule, one way to show a float.
@Suite("Words messages share: articles and numbers")
struct MessageWordsTests {
    @Test func articlesFollowHowTheWordSounds() {
        #expect(Article.with("integer") == "an integer")
        #expect(Article.with("number") == "a number")
        #expect(Article.with("userdata") == "a userdata")
        #expect(Article.with("Event") == "an Event")
        #expect(Article.with("UIButton") == "a UIButton")
        #expect(Article.with("object") == "an object")
    }

    @Test func nanReadsNanWhateverItsSign() {
        let negative = -Double.nan
        #expect(NumberText.text(negative) == "nan" && NumberText.text(.nan) == "nan")
        #expect(NumberText.notInteger(negative) == "nan (not a number)")
    }

    @Test func anIntegralFloatOutOfRangeIsSaidToBe() {
        #expect(NumberText.notInteger(1e300).contains("an integral number outside the integer range"))
        #expect(NumberText.notInteger(2.5) == "2.5 (a number that is not an integer)")
        #expect(NumberText.notInteger(.infinity) == "inf (a number that is not an integer)")
    }
}
