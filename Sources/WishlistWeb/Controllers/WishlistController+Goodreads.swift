import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages
import WishlistTemplates

/// The wishlist as a Goodreads CSV, out and in.
extension WishlistController {
    /// A CSV that Goodreads' importer accepts: the wishlist on the "to-read" shelf, newest
    /// first, then the books read on the "read" shelf with their ratings, dates and reviews.
    @Sendable func export(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        let csv = GoodreadsCSV.export(
            wishes: try await wishlist.items(userID: user.userID, sort: .added),
            readings: try await reading.readings(userID: user.userID, sort: .finished)
        )
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"wishlist.csv\"",
                .cacheControl: "no-store",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: csv))
        )
    }

    /// Reads a Goodreads export and adds its to-read books; the page then shows what happened.
    /// A file that cannot be read changes nothing and says why beside the upload field.
    @Sendable func importCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let file = context.upload, file.body.readableBytes > 0 else {
            return try await indexPage(context, userID: user.userID, sort: .added, importError: context.visitor.translations.text("Choose a CSV file exported from Goodreads, then press Import."))
        }
        guard let text = String(validating: file.body.readableBytesView, as: UTF8.self) else {
            return try await indexPage(context, userID: user.userID, sort: .added, importError: context.visitor.translations.text("That file isn’t UTF-8 text, so it can’t be a Goodreads export. Upload the CSV file Goodreads gave you."))
        }
        let now = clock.now()
        let parsed: GoodreadsImport
        do {
            // Reading 50,000 rows takes seconds in a debug build: on the cooperative pool, not on
            // the event loop, whose other connections (another member's sign-in) would wait (issue 50).
            parsed = try await withTaskExecutorPreference(globalConcurrentExecutor) { try GoodreadsCSV.parse(text, now: now) }
        } catch let error as GoodreadsCSVError {
            return try await indexPage(context, userID: user.userID, sort: .added, importError: error.sentence(in: context.visitor.translations))
        }
        let listText = try request.queryText("list")
        var list: ListID?
        if !listText.isEmpty {
            guard let id = ListID(listText), try await lists.list(id: id, ownerID: user.userID) != nil else { throw WishListsController.notFound }
            list = id
        }
        guard case .imported(var summary) = try await importer.run(parsed.books, userID: user.userID, list: list, at: now) else {
            return try await indexPage(
                context, userID: user.userID, sort: .added, status: .conflict,
                importError: context.visitor.translations.text("Your earlier import is still being added. Once its page has loaded, your wishlist shows what it brought; import this file then if you still need to.")
            )
        }
        summary.skipped = parsed.skipped
        var visitor = context.visitor
        visitor.signedIn?.wishlistCount = try await wishlist.count(userID: user.userID)
        var updated = context
        updated.visitor = visitor
        return try await indexPage(updated, userID: user.userID, sort: .added, summary: summary)
    }
}

extension WishlistImportSummary {
    /// What an import brought, for the wishlist page; a left-out row's reason in the reader's language.
    func templateValue(in translations: Translations) -> TemplateValue {
        [
            "added": .int(added), "already": .int(alreadyPresent), "read_added": .int(readAdded), "read_already": .int(readAlreadyPresent),
            "skipped": .array(skipped.map { ["line": .int($0.line), "title": .string($0.title), "reason": .string($0.reason.phrase(in: translations))] }),
        ]
    }
}
