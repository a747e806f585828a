import Foundation
import WishlistCore
import WishlistTemplates

/// Readings, ratings and the household's opinion as the templates show them.
enum ReadingPresenter {
    /// What `partials/reading-form.html` needs. `entered` is what the person typed when saving
    /// failed; otherwise the form holds their saved reading. `readingNow`: she is reading it now
    /// (issue 57), which the form's second button starts or ends.
    static func formValue(
        bookID: String, title: String, reading: Reading?, entered: (rating: String, review: String, finished: String)? = nil,
        readingNow: Bool, onWishlist: Bool, returnTo: String, now: Date
    ) -> TemplateValue {
        let values = entered ?? (
            reading?.rating.map(String.init) ?? "", reading?.review ?? "", reading?.finished?.text ?? ""
        )
        return [
            "book_id": .string(bookID), "title": .string(title), "path": .string(SitePath.bookReading(bookID)),
            "is_read": .bool(reading != nil), "rating_choices": ratingChoices(checked: values.rating),
            "review": .string(values.review), "finished": .string(values.finished),
            "latest": .string(FinishedDate.latestAllowed(at: now).text), "on_wishlist": .bool(onWishlist), "return_to": .string(returnTo),
            "tap": tapValue(bookID: bookID, title: title, rating: reading?.rating, returnTo: returnTo),
            "now_path": .string(SitePath.readingNow(bookID)), "is_reading_now": .bool(readingNow && reading == nil),
        ]
    }

    /// A book she is reading now, as "Books I've read" lists it at the top.
    static func readingNowValue(_ current: CurrentReading) -> TemplateValue {
        [
            "id": .string(current.bookID), "title": .string(current.title), "author": .string(current.author),
            "book_path": .string(SitePath.book(current.bookID)), "reading_path": .string(SitePath.bookReading(current.bookID)),
            "now_path": .string(SitePath.readingNow(current.bookID)), "started_at": .date(current.startedAt),
        ]
    }

    /// The year's count, with the goal when she set one: "7 of 24 books this year", "1 book this year".
    static func yearText(read: Int, goal: Int?) -> String {
        if let goal { return "\(read) of \(goal == 1 ? "1 book" : "\(goal) books") this year" }
        return (read == 1 ? "1 book" : "\(read) books") + " this year"
    }

    /// The five star buttons of partials/star-tap.html, filled up to `rating`, the one saved marked current.
    static func tapValue(bookID: String, title: String, rating: Int?, returnTo: String) -> TemplateValue {
        [
            "path": .string(SitePath.bookRating(bookID)), "return_to": .string(returnTo), "title": .string(title),
            "choices": .array((1...5).map { count in
                [
                    "value": .string(String(count)), "label": .string("Rate it " + starsLabel(count)),
                    "icon": .string(count <= (rating ?? 0) ? "star" : "star-open"), "current": .bool(count == rating),
                ]
            }),
        ]
    }

    /// "No rating" and one to five stars, as radio buttons.
    static func ratingChoices(checked: String) -> TemplateValue {
        let none: TemplateValue = ["id": "none", "value": "", "label": "No rating", "stars": [], "checked": .bool(checked.isEmpty)]
        return .array([none] + (1...5).map { count in
            [
                "id": .string(String(count)), "value": .string(String(count)), "label": .string(starsLabel(count)),
                "stars": stars(count), "checked": .bool(checked == String(count)),
            ]
        })
    }

    /// A rating as `partials/stars.html` draws it: five icons, `count` of them filled. Icons, not
    /// "★" characters, which some systems draw as empty boxes (issue 36).
    static func stars(_ count: Int) -> TemplateValue {
        .array((1...5).map { .string($0 <= count ? "star" : "star-open") })
    }

    /// A rating choice's name: "1 star", "4 stars".
    static func starsLabel(_ count: Int) -> String { count == 1 ? "1 star" : "\(count) stars" }

    /// A rating given, in words for screen readers: "4 of 5 stars".
    static func ratingLabel(_ count: Int) -> String { "\(count) of 5 stars" }

    /// An average to one decimal place: 4.5, 4.0.
    static func averageText(_ average: Double) -> String {
        let tenths = Int((average * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// One reading as "Books I've read" and a profile list it.
    static func readingValue(_ reading: Reading) -> TemplateValue {
        [
            "title": .string(reading.title), "author": .string(reading.author),
            "book_path": .string(reading.bookID.map(SitePath.book) ?? ""),
            "edit_path": .string(reading.bookID.map(SitePath.bookReading) ?? ""),
            "rating": reading.rating.map { .int($0) } ?? .null,
            "stars": reading.rating.map(stars) ?? [], "stars_label": .string(reading.rating.map(ratingLabel) ?? ""),
            "review": .string(reading.review),
            "finished": .string(reading.finished?.text ?? ""),
        ]
    }

    /// The book page's "In this household".
    static func opinionValue(_ opinion: HouseholdOpinion) -> TemplateValue {
        [
            "has_any": .bool(opinion.wantCount > 0 || opinion.readCount > 0),
            "wanted": .string(membersText(opinion.wantCount, verb: "want", object: "it")),
            "read": .string(membersText(opinion.readCount, verb: "have read", object: "it", singularVerb: "has read")),
            "average": .string(opinion.averageRating.map(averageText) ?? ""),
            "rating_count": .string(opinion.ratingCount == 1 ? "1 rating" : "\(opinion.ratingCount) ratings"),
            "reviews": .array(opinion.reviews.map { review in
                [
                    "name": .string(review.name), "person_path": .string(SitePath.person(review.username)),
                    "stars": review.rating.map(stars) ?? [], "stars_label": .string(review.rating.map(ratingLabel) ?? ""),
                    "review": .string(review.review), "finished": .string(review.finished?.text ?? ""),
                ]
            }),
        ]
    }

    /// "No member wants it", "1 member wants it", "3 members want it".
    static func membersText(_ count: Int, verb: String, object: String, singularVerb: String? = nil) -> String {
        switch count {
        case 0: "No member \(singularVerb ?? verb + "s") \(object)"
        case 1: "1 member \(singularVerb ?? verb + "s") \(object)"
        default: "\(count) members \(verb) \(object)"
        }
    }

    /// A list row's "2 here want it" and "4.5 (3)", which the row draws a star before.
    static func standingValue(_ standing: BookStanding?) -> TemplateValue {
        guard let standing else { return .null }
        return [
            "wanted": .string(standing.wantCount == 0 ? "" : "\(standing.wantCount) here want\(standing.wantCount == 1 ? "s" : "") it"),
            "average": .string(standing.averageRating.map(averageText) ?? ""),
            "rating_text": .string(standing.averageRating.map { "\(averageText($0)) (\(standing.ratingCount))" } ?? ""),
            "rating_label": .string(standing.averageRating.map {
                "Rated \(averageText($0)) on average by \(standing.ratingCount == 1 ? "1 member" : "\(standing.ratingCount) members") here"
            } ?? ""),
        ]
    }
}
