import Foundation
import Testing
@testable import WishlistCore
@testable import WishlistLanguages
@testable import WishlistWeb

@Suite("ISBNs as people type them")
struct ISBNTests {
    @Test(arguments: [
        ("978-0-306-40615-7", "9780306406157"),
        ("9780306406157", "9780306406157"),
        ("978 0 306 40615 7", "9780306406157"),
        ("0-306-40615-2", "9780306406157"),
        ("0306406152", "9780306406157"),
        ("0-8044-2957-X", "9780804429573"),
        ("080442957x", "9780804429573"),
        ("979-10-90636-07-1", "9791090636071"),
        ("978\u{2010}0\u{2011}306\u{2010}40615\u{2010}7", "9780306406157"),
    ])
    func acceptedForms(typed: String, isbn13: String) throws {
        #expect(try ISBN(typed).isbn13 == isbn13)
    }

    @Test(arguments: [
        ("978-0-306-40615-8", ISBN.Problem.checkDigit),
        ("0-306-40615-3", .checkDigit),
        ("0-8044-2957-9", .checkDigit),
        ("978030640615", .malformed),
        ("97803064061577", .malformed),
        ("030640615X1", .malformed),
        ("X306406152", .malformed),
        ("978030640615X", .malformed),
        ("", .malformed),
        ("９７８０３０６４０６１５７", .malformed),
        ("030640615\u{0032}\u{0301}", .malformed),
        ("ISBN 0306406152", .malformed),
    ])
    func refusedForms(typed: String, problem: ISBN.Problem) {
        #expect(throws: problem) { try ISBN(typed) }
    }

    @Test func theISBN10OfAn978ISBNAndNoneOfA979() throws {
        #expect(try ISBN("9780804429573").isbn10 == "080442957X")
        #expect(try ISBN("9780306406157").isbn10 == "0306406152")
        #expect(try ISBN("9791090636071").isbn10 == nil)
    }

    /// The core names the problem; the web layer words it in each language (issue 53).
    @Test func everyProblemIsASentenceInEveryLanguage() throws {
        let catalogs = try LanguageCatalogs.load(from: repositoryRoot.appendingPathComponent("Languages"))
        for problem in [ISBN.Problem.malformed, .checkDigit] {
            let sentences = catalogs.all.map { problem.sentence(in: $0) }
            #expect(sentences.allSatisfy { $0.hasSuffix(".") })
            #expect(Set(sentences).count == LanguageData.shipped.count, "\(problem) reads in each language's words")
        }
    }
}
