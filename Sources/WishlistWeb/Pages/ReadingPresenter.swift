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
            "forget_path": .string(SitePath.forgetReading(bookID)),
            "is_read": .bool(reading != nil), "rating_choices": ratingChoices(checked: values.rating),
            "review": .string(values.review), "finished": .string(values.finished),
            "latest": .string(FinishedDate.latestAllowed(at: now).text), "on_wishlist": .bool(onWishlist), "return_to": .string(returnTo),
            "tap": tapValue(bookID: bookID, title: title, rating: reading?.rating, returnTo: returnTo),
            "now_path": .string(SitePath.readingNow(bookID)), "stop_path": .string(SitePath.stopReading(bookID)),
            "is_reading_now": .bool(readingNow && reading == nil),
        ]
    }

    /// A book she is reading now, as "Books I've read" lists it at the top.
    static func readingNowValue(_ current: CurrentReading) -> TemplateValue {
        [
            "id": .string(current.bookID), "title": .string(current.title), "author": .string(current.author),
            "book_path": .string(SitePath.book(current.bookID)), "reading_path": .string(SitePath.bookReading(current.bookID)),
            "stop_path": .string(SitePath.stopReading(current.bookID)), "started_at": .date(current.startedAt),
        ]
    }

    /// The five star buttons of partials/star-tap.html, filled up to `rating`, the one saved marked
    /// current; the template words each ("Rate it 4 stars") in the page's language.
    static func tapValue(bookID: String, title: String, rating: Int?, returnTo: String) -> TemplateValue {
        [
            "path": .string(SitePath.bookRating(bookID)), "return_to": .string(returnTo), "title": .string(title),
            "choices": .array((1...5).map { count in
                [
                    "value": .string(String(count)), "count": .int(count),
                    "icon": .string(count <= (rating ?? 0) ? "star" : "star-open"), "current": .bool(count == rating),
                ]
            }),
        ]
    }

    /// No rating and one to five stars, as radio buttons (the template words them: "No rating", "4 stars").
    static func ratingChoices(checked: String) -> TemplateValue {
        let none: TemplateValue = ["id": "none", "value": "", "count": 0, "stars": [], "checked": .bool(checked.isEmpty)]
        return .array([none] + (1...5).map { count in
            [
                "id": .string(String(count)), "value": .string(String(count)), "count": .int(count),
                "stars": stars(count), "checked": .bool(checked == String(count)),
            ]
        })
    }

    /// A rating as `partials/stars.html` draws it: five icons, `count` of them filled. Icons, not
    /// "★" characters, which some systems draw as empty boxes (issue 36).
    static func stars(_ count: Int) -> TemplateValue {
        .array((1...5).map { .string($0 <= count ? "star" : "star-open") })
    }

    /// A rating given, in words for screen readers: "4 of 5 stars" (a flash's; pages word it in their template).
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
            "stars": reading.rating.map(stars) ?? [],
            "review": .string(reading.review),
            "finished": .string(reading.finished?.text ?? ""),
        ]
    }

    /// The book page's "In this household": counts, which the template words ("3 members want it").
    static func opinionValue(_ opinion: HouseholdOpinion) -> TemplateValue {
        [
            "has_any": .bool(opinion.wantCount > 0 || opinion.readCount > 0),
            "want_count": .int(opinion.wantCount), "read_count": .int(opinion.readCount),
            "average": .string(opinion.averageRating.map(averageText) ?? ""),
            "rating_count": .int(opinion.ratingCount),
            "reviews": .array(opinion.reviews.map { review in
                [
                    "name": .string(review.name), "person_path": .string(SitePath.person(review.username)),
                    "rating": review.rating.map { .int($0) } ?? .null, "stars": review.rating.map(stars) ?? [],
                    "review": .string(review.review), "finished": .string(review.finished?.text ?? ""),
                ]
            }),
        ]
    }

    /// A list row's standing: how many here want it and their average rating, which the template
    /// words ("2 here want it", a star before "4.5 (3)").
    static func standingValue(_ standing: BookStanding?) -> TemplateValue {
        guard let standing else { return .null }
        return [
            "want_count": .int(standing.wantCount), "rating_count": .int(standing.ratingCount),
            "average": .string(standing.averageRating.map(averageText) ?? ""),
        ]
    }
}
