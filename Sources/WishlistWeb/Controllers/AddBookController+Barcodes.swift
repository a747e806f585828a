import Foundation
import Hummingbird
import WishlistCore
import WishlistLanguages

/// Two ways to an ISBN's look-up besides typing it: a photo of the book's barcode, read on the
/// server (it works without script, on any phone, through the file field's `capture`), and a page
/// shared into the app through the manifest's share target.
extension AddBookController {
    /// `POST /books/new/scan`, field `photo`: a picture up to 8 MB under the profile picture's
    /// rules, read by ``BookBarcodeReader``; an ISBN goes to its look-up, anything else is the
    /// page again with a sentence beside the photo field (422, or 503 when too many photos wait).
    @Sendable func scan(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.signedInUser()
        guard let photo = context.upload, !(photo.filename ?? "").isEmpty || photo.body.readableBytes > 0 else {
            return try refusedScan(context, context.visitor.translations.text("Choose a photo of the book’s barcode, then press Read the barcode."))
        }
        do {
            let isbn = try await barcodes.isbn(inPhoto: photo.body, declaredType: photo.contentType)
            return redirect(to: SitePath.lookUp(isbn: isbn.isbn13))
        } catch {
            if case .picture(.unreadable(let reason)) = error {
                logger.info("barcode photo refused", metadata: ["reason": .string(String(reason.prefix(200)))])
            }
            return try refusedScan(context, error.sentence(in: context.visitor.translations), status: error == .picture(.busy) ? .serviceUnavailable : .unprocessableContent)
        }
    }

    /// `GET /books/new/shared?title=&text=&url=`, where the manifest's share target sends a page
    /// shared from another app: its ISBN's look-up, else a search for its title (``SharedBookPage``).
    @Sendable func shared(_ request: Request, context: AppRequestContext) async throws -> Response {
        _ = try context.signedInUser()
        let query = try FormBody(query: request.uri.query)
        let page = SharedBookPage(
            title: try query.text("title", maxLength: Self.sharedFieldMaximumLength),
            text: try query.text("text", maxLength: Self.sharedFieldMaximumLength),
            url: try query.text("url", maxLength: Self.sharedFieldMaximumLength)
        )
        switch page.destination {
        case .lookUp(let isbn): return redirect(to: SitePath.lookUp(isbn: isbn.isbn13))
        case .search(let words): return redirect(to: Route.search.path() + "?q=" + PercentEncoding.encode(words))
        case .addBook: return redirect(to: SitePath.newBook)
        }
    }

    /// A shared page's title, text and URL are what another app chose to send; a long text or
    /// address is still a share, so the limit is generous.
    static let sharedFieldMaximumLength = 4000

    private func refusedScan(_ context: AppRequestContext, _ message: String, status: HTTPResponse.Status = .unprocessableContent) throws -> Response {
        try render(context, query: ("", "", ""), typed: TypedBook(), errors: ["photo": message], status: status)
    }
}
