import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages

/// "My reading" through the API (issue 54): the books she has read, marking one read with a
/// rating, a date and a review, changing that and forgetting it. It is the reading form's store
/// and rules (``ReadingInput``), so a refusal says what the form says beside its field. A reading
/// is named by its catalog book, as `/books/{id}/reading` names it.
extension APIController {
    func addReadingRoutes(to routes: SiteRouter) {
        routes.add(.apiReadings, use: readings)
        routes.add(.apiAddReading, use: addReading)
        routes.add(.apiEditReading, use: editReading)
        routes.add(.apiForgetReading, use: forgetReading)
    }

    var readingStore: ReadingStore { ReadingStore(database: database) }

    struct ReadingBody: Encodable {
        /// Nil for a book read elsewhere (imported from Goodreads), which the API cannot change.
        let bookId: String?
        let title: String
        let author: String
        let isbn13: String
        let rating: Int?
        let review: String
        let finishedOn: String?
        let updatedAt: Date

        init(_ reading: Reading) {
            bookId = reading.bookID
            title = reading.title
            author = reading.author
            isbn13 = reading.isbn13
            rating = reading.rating
            review = reading.review
            finishedOn = reading.finished?.text
            updatedAt = reading.updatedAt
        }
    }

    struct ReadingsPage: Encodable {
        let readings: [ReadingBody]
        let total: Int
        let page: Int
        let pages: Int
    }

    struct NewReading: Decodable {
        let bookId: String
        let rating: Int?
        let review: String?
        let finishedOn: String?
        let removeFromWishlist: Bool?
    }

    /// A change to a reading: a field left out stays as it is; `null` empties a rating or a date.
    struct ReadingChange: Decodable {
        let rating: Int??
        let review: String?
        let finishedOn: String??

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            rating = fields.contains(.rating) ? .some(try fields.decodeIfPresent(Int.self, forKey: .rating)) : nil
            review = try fields.decodeIfPresent(String.self, forKey: .review)
            finishedOn = fields.contains(.finishedOn) ? .some(try fields.decodeIfPresent(String.self, forKey: .finishedOn)) : nil
        }

        enum CodingKeys: String, CodingKey {
            case rating, review, finishedOn
        }
    }

    /// `GET /api/v1/readings?page=N`: the books she has read, the latest finished first, 100 a page.
    @Sendable func readings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let number = try APIResponse.pageNumber(request)
        let page = try await database.pageRead { try $0.reading.readings(userID: caller.userID, sort: .finished, page: number) }
        let body = ReadingsPage(readings: page.items.map(ReadingBody.init), total: page.total, page: page.number, pages: page.pageCount)
        return APIResponse.json(body, headers: APIResponse.links(page, path: SitePath.apiReadings), for: request)
    }

    /// `POST /api/v1/readings` `{"book_id": "…", "rating": 4, "finished_on": "2026-03-14", "review": "…"}`:
    /// 201 with the reading, or 200 when it replaced her earlier one of the book, as the form saves it.
    @Sendable func addReading(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let body = try await APIResponse.body(NewReading.self, of: request)
        guard CatalogBook.isUsableID(body.bookId), try await catalog.book(id: body.bookId) != nil else {
            throw APIProblem.unprocessable("No book in the catalog has the id “\(body.bookId.prefix(40))”.")
        }
        let earlier = try await readingStore.reading(bookID: body.bookId, userID: caller.userID)
        let saved = try await record(
            bookID: body.bookId, caller, rating: body.rating, review: body.review ?? "", finished: body.finishedOn,
            removeFromWishlist: body.removeFromWishlist ?? false
        )
        let headers: HTTPFields = [.location: SitePath.apiReading(body.bookId)]
        return APIResponse.json(ReadingBody(saved), status: earlier == nil ? .created : .ok, headers: headers, for: request)
    }

    /// `PATCH /api/v1/readings/{book id}` `{"rating": 5}`: any of rating, review and finished_on.
    @Sendable func editReading(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let reading = try await ownReading(context, caller)
        let change = try await APIResponse.body(ReadingChange.self, of: request)
        let saved = try await record(
            bookID: reading.bookID ?? "", caller, rating: change.rating ?? reading.rating, review: change.review ?? reading.review,
            finished: change.finishedOn ?? reading.finished?.text, removeFromWishlist: false
        )
        return APIResponse.json(ReadingBody(saved), for: request)
    }

    /// `DELETE /api/v1/readings/{book id}`: forgets that she read it.
    @Sendable func forgetReading(_ request: Request, context: AppRequestContext) async throws -> Response {
        let caller = try context.requireCaller()
        let reading = try await ownReading(context, caller)
        guard try await readingStore.forget(bookID: reading.bookID ?? "", userID: caller.userID) else { throw Self.readingNotFound }
        return APIResponse.noContent
    }

    static let readingNotFound = APIProblem.notFound("You have no reading of a catalog book with that id.")

    /// Checks the reading as the form does and records it; the form's sentences, in its order, are the 422's.
    private func record(
        bookID: String, _ caller: APICaller, rating: Int?, review: String, finished: String?, removeFromWishlist: Bool
    ) async throws -> Reading {
        let now = clock.now()
        let entered = (rating: rating.map(String.init) ?? "", review: review, finished: finished ?? "")
        guard let input = ReadingInput(rating: entered.rating, review: entered.review, finished: entered.finished, now: now) else {
            let problems = ReadingInput.problems(rating: entered.rating, review: entered.review, finished: entered.finished, now: now)
            let errors = ReadingFormFields.errors(problems, in: Translations())
            throw APIProblem.unprocessable(["rating", "review", "finished"].compactMap { errors[$0] }.joined(separator: " "))
        }
        guard case .recorded = try await readingStore.record(bookID: bookID, userID: caller.userID, input, removeFromWishlist: removeFromWishlist, at: now),
              let saved = try await readingStore.reading(bookID: bookID, userID: caller.userID)
        else { throw Self.readingNotFound }
        return saved
    }

    /// Her reading of the catalog book `{id}` names; none is the 404 of a book never read.
    private func ownReading(_ context: AppRequestContext, _ caller: APICaller) async throws -> Reading {
        guard let id = context.parameters.get("id"), CatalogBook.isUsableID(id),
              let reading = try await readingStore.reading(bookID: id, userID: caller.userID)
        else { throw Self.readingNotFound }
        return reading
    }
}
