import Foundation
import Testing
@testable import WishlistCore

/// The sample catalog's JSON files (`Sources/WishlistCore/Catalog/SampleCatalog/`): each decodes as the
/// API response its path names, and the dated editions form a history as the API would tell it.
@Suite("The sample catalog's data files")
struct SampleCatalogTests {
    let source = SampleCatalogSource()

    /// Every file in the shipped copy, as paths relative to its root (`lists/2026-11-08/hardcover-fiction.json`).
    static func shippedFiles() throws -> [String] {
        let root = SampleCatalogSource.bundled.standardizedFileURL.path
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test func everyFileDecodesAsTheResponseItsPathNames() async throws {
        let files = try Self.shippedFiles()
        let expected = 40  // names, overview, two current lists, 4 × 8 weekly and 2 × 2 older monthly editions
        #expect(files.count >= expected)
        for file in files {
            let parts = file.dropLast(".json".count).split(separator: "/").map(String.init)
            switch parts.count {
            case 2 where parts[1] == "names":
                #expect(try await !source.names().results.isEmpty)
            case 2 where parts[1] == "full-overview":
                #expect(try await !source.overview().results.lists.isEmpty)
            case 3 where parts[1] == "current":
                let list = try await source.currentList(parts[2]).results
                #expect(list.listNameEncoded == parts[2], "\(file)")
                #expect(Self.keepsEveryBook(list), "\(file)")
            case 3:
                let list = try await source.edition(list: parts[2], date: parts[1]).results
                #expect(list.listNameEncoded == parts[2] && list.publishedDate == parts[1], "\(file)")
                #expect(Self.keepsEveryBook(list), "\(file)")
            default:
                Issue.record("\(file) is not at a path of the API")
            }
        }
    }

    static func keepsEveryBook(_ list: NYTList) -> Bool {
        CatalogEdition(list, publishedDate: list.publishedDate ?? "", frequency: .weekly).entries.count == list.books.count
    }

    /// Each current list's editions, newest first, following `previous_published_date` while the
    /// sample has the edition it names.
    func history(of name: NYTListName) async throws -> [NYTList] {
        var editions = [try await source.edition(list: name.listNameEncoded, date: name.newestPublishedDate).results]
        while let previous = editions.last?.previousPublishedDate, !previous.isEmpty {
            do {
                editions.append(try await source.edition(list: name.listNameEncoded, date: previous).results)
            } catch CatalogFetchError.unexpectedStatus(404) {
                break
            }
        }
        return editions
    }

    @Test func eachListsEditionsChainAndAgreeAboutRanksAndWeeks() async throws {
        let current = CatalogSync.currentLists(try await source.names().results)
        #expect(current.count == 6)
        for name in current {
            let editions = try await history(of: name)
            let label = name.listNameEncoded
            #expect(editions.count >= (name.updated == "WEEKLY" ? 8 : 3), "\(label): \(editions.count) editions")
            #expect(editions.first?.nextPublishedDate == "", "\(label): the newest edition has no next")
            // Oldest first from here on.
            let history = Array(editions.reversed())
            for edition in history {
                let date = edition.publishedDate ?? "?"
                #expect(edition.books.map(\.rank).sorted() == Array(1...edition.books.count), "\(label) \(date): ranks 1...n, each once")
                let lastWeek = edition.books.map { $0.rankLastWeek ?? 0 }.filter { $0 > 0 }
                #expect(Set(lastWeek).count == lastWeek.count, "\(label) \(date): no two books were at the same rank last week")
                #expect(Set(edition.books.map(\.primaryISBN13)).count == edition.books.count, "\(label) \(date): no book twice")
            }
            for (older, newer) in zip(history, history.dropFirst()) {
                let date = newer.publishedDate ?? "?"
                #expect(newer.previousPublishedDate == older.publishedDate && older.nextPublishedDate == newer.publishedDate, "\(label) \(date): the chain links both ways")
                let before = Dictionary(uniqueKeysWithValues: older.books.map { ($0.primaryISBN13, $0) })
                for book in newer.books {
                    let what = "\(label) \(date) \(book.title)"
                    let rankLastWeek = book.rankLastWeek ?? 0, weeks = book.weeksOnList ?? 0
                    if let stayed = before[book.primaryISBN13] {
                        #expect(rankLastWeek == stayed.rank, "\(what): rank_last_week is last edition's rank")
                        #expect(weeks == (stayed.weeksOnList ?? 0) + 1, "\(what): one more week on the list")
                    } else {
                        // New, back after a gap, or (rank_last_week past the end) up from the Times' extended list.
                        #expect(rankLastWeek == 0 || rankLastWeek > older.books.count, "\(what): was not on last edition's list")
                        let earlier = history.prefix { $0.publishedDate != newer.publishedDate }
                            .last { $0.books.contains { $0.primaryISBN13 == book.primaryISBN13 } }?
                            .books.first { $0.primaryISBN13 == book.primaryISBN13 }
                        if let earlier {
                            #expect(weeks == (earlier.weeksOnList ?? 0) + 1, "\(what): back after a gap, one more week than before")
                        } else if rankLastWeek == 0 {
                            #expect(weeks == 1, "\(what): a debut has one week")
                        }
                    }
                }
            }
        }
    }

    @Test func theHistoryShowsEveryKindOfMovement() async throws {
        let weekly = CatalogSync.currentLists(try await source.names().results).filter { $0.updated == "WEEKLY" }
        var debuts = 0, returns = 0, longestRunAtOne = 0, climbs = 0, falls = 0
        for name in weekly {
            let history = Array(try await history(of: name).reversed())
            var run = 0
            for edition in history {
                let first = edition.books.first { $0.rank == 1 }
                run = first?.rankLastWeek == 1 ? run + 1 : 1
                longestRunAtOne = max(longestRunAtOne, run)
                for book in edition.books {
                    let last = book.rankLastWeek ?? 0
                    if last == 0 && book.weeksOnList == 1 { debuts += 1 }
                    if last == 0 && (book.weeksOnList ?? 0) > 1 { returns += 1 }
                    if last > book.rank { climbs += 1 }
                    if last > 0 && last < book.rank { falls += 1 }
                }
            }
        }
        #expect(debuts > 0 && returns > 0 && climbs > 0 && falls > 0)
        #expect(longestRunAtOne >= 4, "one book holds #1 for weeks")
    }

    @Test func theNewestEditionIsWhatTheCatalogServesToday() async throws {
        let overview = try await source.overview().results
        for list in overview.lists {
            let dated = try await source.edition(list: list.listNameEncoded, date: overview.publishedDate).results
            #expect(dated.nextPublishedDate == "")
            #expect(
                CatalogEdition(dated, publishedDate: try #require(dated.publishedDate), frequency: .weekly)
                    == CatalogEdition(list, publishedDate: overview.publishedDate, frequency: .weekly),
                "\(list.listNameEncoded)"
            )
        }
        for name in ["audio-fiction", "graphic-books-and-manga"] {
            let current = try await source.currentList(name).results
            let date = try #require(current.publishedDate)
            let dated = try await source.edition(list: name, date: date).results
            #expect(CatalogEdition(dated, publishedDate: date, frequency: .monthly) == CatalogEdition(current, publishedDate: date, frequency: .monthly))
        }
    }

    @Test("an edition the sample lacks is a 404, as from the API", arguments: [
        ("hardcover-fiction", "2026-09-20"), ("hardcover-fiction", "2026-11-22"), ("hardcover-almanacs", "2015-08-23"),
        ("no-such-list", "2026-11-15"), ("../lists/names", "2026-11-15"), ("hardcover-fiction", "../current"),
        ("hardcover-fiction", "2026-11-1"), ("Hardcover-Fiction", "2026-11-15"),
    ])
    func missingEditions(list: String, date: String) async throws {
        await #expect(throws: CatalogFetchError.unexpectedStatus(404)) {
            try await source.edition(list: list, date: date)
        }
    }
}
