import Foundation
import Testing
@testable import WishlistCore

/// Issue 52: author names as the NYT writes them, split and matched on the real captures of the
/// API in ../shared/fixtures/nyt ("A and B", "A with B", lists with commas, "edited by",
/// "Illustrated by", what the `author` field keeps of "written and illustrated by", accents).
@Suite("Authors: names split and matched as the NYT writes them")
struct BylineTests {
    /// Every book of the captured full overview and current list: author, contributor, and the
    /// contributor note (the part of the contributor line after the authors).
    static func capturedBooks() throws -> [(author: String, contributor: String, note: String)] {
        var books: [[String: Any]] = []
        let overview = try Fixtures.json("full-overview-2023-03-26.json")
        for list in (overview["results"] as? [String: Any])?["lists"] as? [[String: Any]] ?? [] {
            books += list["books"] as? [[String: Any]] ?? []
        }
        let current = try Fixtures.json("current-hardcover-fiction-2023-03-19.json")
        books += (current["results"] as? [String: Any])?["books"] as? [[String: Any]] ?? []
        return books.map { ($0["author"] as? String ?? "", $0["contributor"] as? String ?? "", $0["contributor_note"] as? String ?? "") }
    }

    static func names(_ byline: String) -> [String] { Byline(byline).names.map(\.name) }
    static func keys(_ byline: String) -> Set<String> { Set(Byline(byline).names.map(\.key)) }

    @Test func theCapturedBylinesSplitIntoTheirPeople() {
        #expect(Self.names("Colleen Hoover and Tarryn Fisher") == ["Colleen Hoover", "Tarryn Fisher"])
        #expect(Self.names("James Patterson and Matt Eversmann with Chris Mooney") == ["James Patterson", "Matt Eversmann", "Chris Mooney"])
        #expect(Self.names("Gabor Maté with Daniel Maté") == ["Gabor Maté", "Daniel Maté"])
        #expect(Self.names("by William W. Johnstone and J.A. Johnstone") == ["William W. Johnstone", "J.A. Johnstone"])
        #expect(Self.names("America's Test Kitchen Kids") == ["America's Test Kitchen Kids"])
        #expect(Self.names("Clint McElroy et al.") == ["Clint McElroy"])
        #expect(Self.names("by Jim Gigliotti and others; various illustrators") == ["Jim Gigliotti"])
        #expect(Self.names("Tui T. Sutherland.") == ["Tui T. Sutherland"])
        #expect(Self.names("Adam Rubin.") == ["Adam Rubin"])
    }

    @Test func rolesComeFromTheirWords() {
        let illustrated = Byline("by Adam Rubin. Illustrated by Daniel Salmieri").names
        #expect(illustrated.map(\.name) == ["Adam Rubin", "Daniel Salmieri"])
        #expect(illustrated.map(\.role) == [.author, .illustrator])
        // The contributor line without its "by", as the NYT sent it once.
        #expect(Byline("Sara Pennypacker. Illustrated by Jon Klassen").names.map(\.role) == [.author, .illustrator])
        let edited = Byline("edited by Nikole Hannah-Jones, Caitlin Roper, Ilena Silverman and Jake Silverstein").names
        #expect(edited.map(\.name) == ["Nikole Hannah-Jones", "Caitlin Roper", "Ilena Silverman", "Jake Silverstein"])
        #expect(Set(edited.map(\.role)) == [.editor])
        // What the API's `author` field keeps of those lines: "edited" without its "by", and the
        // "and" of "written and illustrated by".
        #expect(Byline("edited  Nikole Hannah-Jones, Caitlin Roper, Ilena Silverman and Jake Silverstein").names.map(\.name)
            == ["Nikole Hannah-Jones", "Caitlin Roper", "Ilena Silverman", "Jake Silverstein"])
        #expect(Byline("written and illustrated by Dav Pilkey").names.map(\.name) == ["Dav Pilkey"])
        #expect(Byline("written and illustrated by Dav Pilkey").names.map(\.role) == [.author])
        #expect(Byline("and   Dav Pilkey").names.map(\.name) == ["Dav Pilkey"])
        #expect(Byline("by Clint McElroy et al. Illustrated by Carey Pietsch").names.map(\.name) == ["Clint McElroy", "Carey Pietsch"])
    }

    @Test func suffixesCommasAndAmpersandsAreTheNamesOwn() {
        #expect(Self.names("Martin Luther King, Jr.") == ["Martin Luther King, Jr."])
        #expect(Self.names("by Kurt Vonnegut Jr. and Ann Patchett") == ["Kurt Vonnegut Jr.", "Ann Patchett"])
        #expect(Self.names("Ann Patchett, Zadie Smith, and Ali Smith") == ["Ann Patchett", "Zadie Smith", "Ali Smith"])
        #expect(Self.names("Ann Patchett & Zadie Smith") == ["Ann Patchett", "Zadie Smith"])
        #expect(Self.names("by Art Spiegelman") == ["Art Spiegelman"], "a role word in a name, capitalised and without by, is a name")
        #expect(Self.names("by Ann Patchett with illustrations by Zadie Smith").count == 2)
    }

    @Test func keysIgnoreCaseAccentsAndPunctuation() {
        #expect(AuthorKey.of("Brené Brown") == "brene brown")
        #expect(AuthorKey.of("BRENÉ  BROWN") == AuthorKey.of("Brene Brown"))
        #expect(AuthorKey.of("C.J. Box") == AuthorKey.of("C. J. Box"))
        #expect(AuthorKey.of("Barbara O'Connor") == AuthorKey.of("Barbara O’Connor"))
        #expect(AuthorKey.of("Nikole Hannah-Jones") == "nikole hannah jones")
        #expect(AuthorKey.of("Jo Nesbø") == "jo nesbo")
        #expect(AuthorKey.of("Martin Luther King, Jr.") == AuthorKey.of("Martin Luther King Jr"))
        #expect(AuthorKey.of("Raúl the Third") == "raul the third")
    }

    /// Every captured book: its byline's parts put together are its text again (nothing is lost
    /// or added), it names somebody, no name carries a role's or a list's words, and the author
    /// field names exactly the people its contributor line does, bar those of the contributor
    /// note (the illustrators the API leaves out of the author field), and bar what the API's
    /// deleting of "by" did to a name in it ("Shel Van Pelt" for "Shelby Van Pelt").
    @Test func everyCapturedBylineKeepsItsTextAndNamesItsPeople() throws {
        let books = try Self.capturedBooks()
        #expect(books.count > 200)
        for book in books {
            for text in [book.author, book.contributor] where !text.isEmpty {
                let parts = Byline(text).parts.map { part -> String in
                    switch part {
                    case .text(let text): text
                    case .name(let credited): credited.name
                    }
                }
                #expect(parts.joined() == text)
                let names = Byline(text).names
                #expect(!names.isEmpty, "\(text) names nobody")
                for name in names.map(\.name) {
                    let lower = " " + name.lowercased() + " "
                    #expect(!lower.contains(" and ") && !lower.contains(" with ") && !lower.contains(" by ") && !name.contains(";"), "\(name) in \(text)")
                    #expect(!name.hasSuffix(".") || name.split(separator: " ").last!.count <= 2 || name.hasSuffix("Jr."), "\(name) keeps the byline's full stop")
                }
            }
            let fromAuthor = Self.keys(book.author)
            let fromContributor = Self.keys(book.contributor)
            let damaged = Set(fromContributor.map { AuthorKey.of($0.replacingOccurrences(of: "by", with: "")) })
            #expect(fromAuthor.isSubset(of: fromContributor.union(damaged)), "\(book.author) | \(book.contributor)")
            if !fromAuthor.isSubset(of: fromContributor) { continue }
            #expect(fromContributor.subtracting(fromAuthor).isSubset(of: Self.keys(book.note)), "\(book.author) | \(book.contributor) | \(book.note)")
        }
    }

    /// The API's author field lost the "by" of "Shelby": the book is credited from its contributor line.
    @Test func aNameTheAuthorFieldDamagedIsTakenFromTheContributorLine() throws {
        let book = try #require(try Self.capturedBooks().first { $0.contributor == "by Shelby Van Pelt" })
        #expect(book.author == "Shel Van Pelt")
        #expect(Byline.of(author: book.author, contributor: book.contributor).names.map(\.name) == ["Shelby Van Pelt"])
    }

    /// A member's Goodreads import may bring any text as an author: past a thousand characters it
    /// is shown as it is, and looking ahead over role words never makes it slow.
    @Test func anOverlongBylineIsTextNamingNobody() {
        let long = String(repeating: "and with by ", count: 200)
        #expect(Byline(long).parts == [.text(long)])
        #expect(Byline(String(repeating: "and ", count: 240) + "Dav Pilkey").names.map(\.name) == ["Dav Pilkey"])
    }

    @Test func aBookIsShownWithItsContributorLineOrElseItsAuthorField() {
        #expect(Byline.of(author: "Adam Rubin.", contributor: "by Adam Rubin. Illustrated by Daniel Salmieri").names.count == 2)
        #expect(Byline.of(author: "Mina Hale", contributor: "").names.map(\.name) == ["Mina Hale"])
    }
}
