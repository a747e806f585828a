import Foundation
import HummingbirdTesting
import NIOCore
import Testing
@testable import WishlistCore
@testable import WishlistWeb

extension TestBrowser {
    /// Posts `bytes` as the photo of the barcode form on /books/new.
    mutating func scanBarcode(_ bytes: [UInt8], filename: String = "barcode.png", contentType: String? = "image/png") async throws -> TestResponse {
        if csrfTokenSession != sessionCookie { try await refreshCSRFToken() }
        let boundary = "----BarcodeBoundary52"
        var body = ByteBuffer(string: "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n\(csrfToken)\r\n")
        body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"\(filename)\"\r\n")
        if let contentType { body.writeString("Content-Type: \(contentType)\r\n") }
        body.writeString("\r\n")
        body.writeBytes(bytes)
        body.writeString("\r\n--\(boundary)--\r\n")
        return try await send("/books/new/scan", method: .post, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"], body: body)
    }
}

/// Issue 52 over HTTP: `POST /books/new/scan` and `GET /books/new/shared`.
@Suite("Scanning and sharing a book into the app, over HTTP", .removesTemporaryDirectories)
struct ScanHTTPTests {
    @Test func aPhotoOfABooksBarcodeGoesToTheLookUpOfItsISBN() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ana")
            let page = try await browser.get("/books/new")
            #expect(page.text.contains(#"<input class="input" id="photo" name="photo" type="file" accept="image/*" capture="environment""#))
            #expect(page.text.contains(#"enctype="multipart/form-data""#))
            let before = try await server.database.pool.read(SQLDump.rowCounts)
            let scanned = try await browser.scanBarcode(BarcodeReadingTests.page().encoded(.png))
            #expect(scanned.status == .seeOther)
            #expect(scanned.location == "/books/new?isbn=9780593331309")
            #expect(try await server.database.pool.read(SQLDump.rowCounts) == before, "nothing of the photo is kept")
            let lookUp = try await browser.get(scanned.location!)
            #expect(lookUp.text.contains(#"value="9780593331309""#), "the ISBN is in the form, for typing the book in while look-up is off")
        }
    }

    @Test func whatGivesNoISBNIsThePageAgainWithTheSentenceBesideThePhotoField() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ana")
            let cases: [(bytes: [UInt8], type: String?, says: String)] = [
                (BarcodeReadingTests.page("4006381333931").encoded(.png), "image/png", "That barcode is an EAN-13 of another product (4006381333931), not a book’s ISBN"),
                (GreyCanvas(width: 300, height: 200).encoded(.jpeg), "image/jpeg", "No barcode could be read in that photo."),
                (PictureSamples.pngClaiming(width: 50_000, height: 50_000), "image/png", "That picture is over 40 megapixels (it is 50,000 × 50,000)."),
                (BarcodeReadingTests.page().encoded(.png), "image/jpeg", "That file’s type does not match its contents (it is a PNG picture)."),
                (Array("not a picture".utf8), "text/plain", "That file is not a JPEG, PNG or WebP picture."),
                ([], nil, "Choose a photo of the book’s barcode, then press Read the barcode."),
            ]
            for refused in cases {
                let answer = try await browser.scanBarcode(refused.bytes, filename: refused.bytes.isEmpty ? "" : "photo", contentType: refused.type)
                #expect(answer.status == .unprocessableContent, "\(refused.says)")
                let error = try #require(answer.text.firstMatch(of: /<p class="field-error" id="photo-error"(?s:.*?)<\/p>/)?.0, "\(refused.says)")
                #expect(error.contains(refused.says), "\(error)")
                #expect(answer.text.contains(#"id="photo" name="photo" type="file" accept="image/*" capture="environment" required aria-describedby="scan-hint photo-error" aria-invalid="true""#))
            }
        }
    }

    @Test func aPhotoOverEightMBIsRefusedBeforeItIsRead() async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ana")
            let answer = try await browser.scanBarcode([UInt8](repeating: 0xFF, count: 8 * 1024 * 1024 + 70 * 1024))
            #expect(answer.status == .contentTooLarge)
            #expect(answer.text.contains("Photos can be up to 8 MB."))
        }
    }

    @Test(arguments: [
        ("/books/new/shared?title=Storm%20Watch&url=https%3A%2F%2Fwww.amazon.com%2Fdp%2F0593331303", "/books/new?isbn=9780593331309"),
        ("/books/new/shared?text=ISBN%20978-0-593-33130-9", "/books/new?isbn=9780593331309"),
        ("/books/new/shared?title=Storm%20Watch&url=https%3A%2F%2Fwww.goodreads.com%2Fbook%2Fshow%2F61273035-storm-watch", "/search?q=Storm%20Watch"),
        ("/books/new/shared", "/books/new"),
    ])
    func aSharedPageGoesToItsISBNsLookUpOrToASearchForItsTitle(path: String, location: String) async throws {
        let server = try await TestApp.build()
        try await TestApp.run(server) { browser in
            try await browser.signUp("ana")
            let answer = try await browser.get(path)
            #expect(answer.status == .seeOther)
            #expect(answer.location == location)
        }
    }

    @Test func theManifestSharesIntoTheApp() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Public/manifest.webmanifest"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let target = try #require(manifest["share_target"] as? [String: Any])
        #expect(target["action"] as? String == "/books/new/shared")
        #expect(target["method"] as? String == "GET")
        #expect(target["enctype"] as? String == "application/x-www-form-urlencoded", "Chromium reports a share target without it")
        #expect(target["params"] as? [String: String] == ["title": "title", "text": "text", "url": "url"])
    }
}
