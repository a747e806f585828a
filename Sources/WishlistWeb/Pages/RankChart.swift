import CivilTime
import Foundation
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// A book's rank history on one list as the values of `partials/rank-chart.html`: an SVG line
/// chart drawn on the server (rank 1 at the top, editions along the bottom, the line broken where
/// the book was off the list), the sentence that says the same, and the figures for the table.
struct RankChart {
    static let width = 640.0
    static let height = 220.0
    /// Room for the rank labels on the left and the dates below.
    static let plot = (left: 64.0, right: 16.0, top: 16.0, bottom: 44.0)

    let history: RankHistory
    /// The page's language, which words the sentence and the dates.
    var translations = Translations()

    /// The lowest rank the axis shows: the book's worst, rounded up to a multiple of 5, at least 5.
    var deepestRank: Int { max(5, ((history.editions.compactMap(\.rank).max() ?? 1) + 4) / 5 * 5) }

    func x(_ index: Int) -> Double {
        let span = Self.width - Self.plot.left - Self.plot.right
        let count = history.editions.count
        return Self.plot.left + (count < 2 ? span / 2 : span * Double(index) / Double(count - 1))
    }

    func y(_ rank: Int) -> Double {
        let span = Self.height - Self.plot.top - Self.plot.bottom
        return Self.plot.top + span * Double(rank - 1) / Double(deepestRank - 1)
    }

    /// Runs of consecutive editions on the list; each becomes one polyline.
    var runs: [[(index: Int, rank: Int)]] {
        var runs: [[(index: Int, rank: Int)]] = [[]]
        for (index, edition) in history.editions.enumerated() {
            if let rank = edition.rank { runs[runs.count - 1].append((index, rank)) } else if !runs[runs.count - 1].isEmpty { runs.append([]) }
        }
        return runs.filter { !$0.isEmpty }
    }

    /// A dot for every edition on a short history; on a long one the dots would merge into the
    /// line, so only a lone edition (a run of one, which has no line) gets its dot.
    var markedPoints: [(index: Int, rank: Int)] {
        history.editions.count <= Self.dottedEditions ? Array(runs.joined()) : runs.filter { $0.count == 1 }.flatMap { $0 }
    }

    static let dottedEditions = 26

    /// "30 weeks on Hardcover Fiction by the NYT's count, most recently November 22, 2026. Charted
    /// here: 3 editions since November 8, 2026, peak #1 in 2 of them." The NYT's count and the
    /// editions stored here are two figures: a book 30 weeks on a list may have been charted for 3
    /// (issue 27: the page said "3 weeks on" where the list page said 30).
    var summary: String {
        let list = history.displayName
        guard let peak = history.peak, let first = history.firstSeen, let last = history.lastSeen else {
            return translations.text("Not on {list} in the stored editions.", values: ["list": list])
        }
        let language = translations.language
        let lastSeen = ["list": list, "date": Self.longDate(last, in: language)]
        let standing = history.weeksOnListByTheNYT.map { count in
            history.frequency == .monthly
                ? translations.text(one: "{count} month on {list} by the NYT’s count, most recently {date}.", other: "{count} months on {list} by the NYT’s count, most recently {date}.", count: count, values: lastSeen)
                : translations.text(one: "{count} week on {list} by the NYT’s count, most recently {date}.", other: "{count} weeks on {list} by the NYT’s count, most recently {date}.", count: count, values: lastSeen)
        } ?? translations.text("On {list} most recently {date}.", values: lastSeen)
        let firstSeen = ["date": Self.longDate(first, in: language), "rank": String(peak), "times": language.formatted(history.editionsAtPeak)]
        let charted = history.editionsOnList == 1
            ? translations.text("Charted here: 1 edition, {date}, at #{rank}.", values: firstSeen)
            : translations.text(one: "Charted here: {count} edition since {date}, peak #{rank} in {times} of them.", other: "Charted here: {count} editions since {date}, peak #{rank} in {times} of them.", count: history.editionsOnList, values: firstSeen)
        return standing + " " + charted
    }

    var templateValue: TemplateValue {
        let gridRanks = [1] + Array(stride(from: 5, through: deepestRank, by: 5))
        return [
            "list": .string(history.listNameEncoded), "display_name": .string(history.displayName),
            "period": .string(history.frequency.period), "summary": .string(summary),
            "width": .string(Self.number(Self.width)), "height": .string(Self.number(Self.height)),
            "grid": .array(gridRanks.map { rank in
                ["rank": .int(rank), "y": .string(Self.number(y(rank))), "x1": .string(Self.number(Self.plot.left)),
                 "x2": .string(Self.number(Self.width - Self.plot.right)), "label_x": .string(Self.number(Self.plot.left - 8))]
            }),
            "lines": .array(runs.filter { $0.count > 1 }.map { run in
                ["points": .string(run.map { "\(Self.number(x($0.index))),\(Self.number(y($0.rank)))" }.joined(separator: " "))]
            }),
            "points": .array(markedPoints.map { ["x": .string(Self.number(x($0.index))), "y": .string(Self.number(y($0.rank)))] }),
            "axis": [
                "y": .string(Self.number(Self.height - 10)),
                "first_x": .string(Self.number(Self.plot.left)), "last_x": .string(Self.number(Self.width - Self.plot.right)),
                "first_date": .string(history.editions.first?.date ?? ""), "last_date": .string(history.editions.last?.date ?? ""),
            ],
            // Labels and links made here, not by template filters: a two-year history has hundreds.
            "editions": .array(history.editions.reversed().map { edition in
                [
                    "label": .string(Self.shortDate(edition.date, in: translations.language)), "rank": edition.rank.map(TemplateValue.int) ?? .null,
                    "path": .string(SitePath.list(history.listNameEncoded) + "?date=" + edition.date),
                ]
            }),
        ]
    }

    /// Coordinates to a tenth of a unit: exact enough for any screen, and stable text for snapshots.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let (whole, tenth) = tenths.quotientAndRemainder(dividingBy: 10)
        return tenth == 0 ? String(whole) : "\(tenths < 0 && whole == 0 ? "-" : "")\(whole).\(abs(tenth))"
    }

    /// `2026-03-05` as "March 5, 2026" (English, the feeds'); any other text as it is.
    static func longDate(_ date: String) -> String {
        longDate(date, in: LanguageData.shipped[0])
    }

    /// `2026-03-05` in `language`'s long pattern ("5. März 2026"); any other text as it is.
    static func longDate(_ date: String, in language: LanguageData) -> String {
        day(date).map { language.formatted($0, style: .long) } ?? date
    }

    /// `2026-03-05` in `language`'s medium pattern ("Mar 5, 2026"), as the template's `date: "medium"` writes it.
    static func shortDate(_ date: String, in language: LanguageData) -> String {
        day(date).map { language.formatted($0, style: .medium) } ?? date
    }

    private static func day(_ text: String) -> CivilDateTime? {
        guard text.utf8.count == 10, let date = ISODateParser.date(from: text) else { return nil }
        return CivilDateTime(date)
    }
}
