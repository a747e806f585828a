import Foundation
import HTTPTypes
import Hummingbird
import WishlistCore
import WishlistLanguages

/// Passkeys (WebAuthn): the JSON endpoints `Public/passkeys.js` calls to register a passkey and to
/// sign in with one, and the Settings form that removes one. The JSON endpoints answer JSON, with
/// an `error` sentence the script shows beside its button; CSRF comes in the `X-CSRF-Token` header.
struct PasskeyController {
    let relyingParty: RelyingParty
    let accounts: AccountService
    let cookies: SessionCookies
    let sessionMaxAge: Int
    let metrics: MetricsRegistry
    let addressing: ClientAddressing

    /// The JSON routes are outside `RequireSignInMiddleware`: a script needs a sentence it can
    /// show, not the sign-in page a redirect would give it.
    func addRoutes(to routes: SiteRouter) {
        routes.add(.passkeySignInOptions, use: signInOptions)
        routes.add(.passkeySignIn, use: signIn)
        routes.add(.passkeyRegistrationOptions, use: registrationOptions)
        routes.add(.passkeyRegistration, use: register)
        routes.add(.removePasskey, use: remove)
    }

    static let signedOut = Translations.marked("You are no longer signed in here. Sign in again, then add the passkey.")

    // MARK: Registration (signed in)

    /// Asks for the password first: a stolen session must not be able to add a passkey, which
    /// would outlive a password reset (issue 27).
    @Sendable func registrationOptions(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.visitor.signedIn else { return try Self.json(["error": context.visitor.translations.text(Self.signedOut)], status: .unauthorized) }
        return try await Self.answering(in: context.visitor.translations) {
            let body = try Self.decode(PasswordConfirmation.self, from: context)
            guard body.password.utf8.count <= 4 * AccountRules.passwordLengths.upperBound else { throw Self.wrongPassword }
            switch try await accounts.confirmPassword(userID: user.userID, password: body.password) {
            case .done: break
            case .invalid: throw Self.wrongPassword
            case .throttled(let seconds): return try Self.throttled(seconds, in: context.visitor.translations)
            }
            let options = try await relyingParty.registrationOptions(
                userID: user.userID, username: user.username, for: asker(request, context)
            )
            return try Self.json(CreationOptions(options))
        }
    }

    static let wrongPassword = PageError(
        .forbidden, title: Translations.marked("Wrong password"),
        message: Translations.marked("That is not your password. Enter the password you sign in with, then add the passkey.")
    )

    @Sendable func register(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.visitor.signedIn else { return try Self.json(["error": context.visitor.translations.text(Self.signedOut)], status: .unauthorized) }
        return try await Self.answering(in: context.visitor.translations) {
            let body = try Self.decode(Registration.self, from: context)
            try await relyingParty.register(
                userID: user.userID, name: body.name,
                clientDataJSON: try Self.bytes(body.clientDataJSON), attestationObject: try Self.bytes(body.attestationObject),
                from: asker(request, context)
            )
            return try Self.json(["redirect": SitePath.settings(.signIn, done: "passkey-added")])
        }
    }

    // MARK: Sign-in (signed out)

    @Sendable func signInOptions(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await Self.answering(in: context.visitor.translations) {
            let challenge = try await relyingParty.signInChallenge(for: asker(request, context))
            return try Self.json(RequestOptions(challenge: Base64URL.encode(challenge), rpId: relyingParty.id))
        }
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await Self.answering(in: context.visitor.translations) {
            let body = try Self.decode(Assertion.self, from: context)
            let (id, clientData, authenticatorData, signature) = (
                try Self.bytes(body.id), try Self.bytes(body.clientDataJSON), try Self.bytes(body.authenticatorData), try Self.bytes(body.signature)
            )
            let handle = try body.userHandle.flatMap { $0.isEmpty ? nil : try Self.bytes($0) }
            let outcome = try await accounts.signIn(address: addressing.address(of: request, context)) {
                try await relyingParty.signIn(
                    credentialID: id, clientDataJSON: clientData, authenticatorData: authenticatorData, signature: signature, userHandle: handle,
                    from: asker(request, context)
                )
            }
            switch outcome {
            case .signedIn(let user):
                metrics.increment(.signIns, [("outcome", "success")])
                let token = try await accounts.sessions.create(userID: user.id, userAgent: request.headers[.userAgent] ?? "")
                var response = try Self.json(["redirect": LocalPath.validated(body.next ?? "", fallback: "/")])
                response.setCookie(cookies.cookie(token, maxAge: sessionMaxAge))
                return response
            case .refused(let refusal):
                metrics.increment(.signIns, [("outcome", "rejected")])
                throw refusal
            case .throttled(let seconds):
                metrics.increment(.signIns, [("outcome", "throttled")])
                return try Self.throttled(seconds, in: context.visitor.translations)
            }
        }
    }

    // MARK: Removal (a form in Settings)

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.signedInUser()
        guard let id = context.parameters.get("id").flatMap(PasskeyID.init),
              try await relyingParty.store.remove(passkeyID: id, userID: user.userID) else {
            throw PageError(
                .notFound, title: Translations.marked("Passkey not found"),
                message: Translations.marked("You have no such passkey. It may have been removed already; Settings lists the ones you have.")
            )
        }
        return redirect(to: SitePath.settings(.signIn, done: "passkey-removed"))
    }

    /// The browser asking (its cookie token) and its client address: a challenge is spent only
    /// by the browser that asked for it, and each browser and address holds few at once.
    private func asker(_ request: Request, _ context: AppRequestContext) -> PasskeyStore.Asker {
        PasskeyStore.Asker(cookieToken: context.visitor.sessionToken, address: addressing.address(of: request, context))
    }

    // MARK: JSON

    struct PasswordConfirmation: Decodable {
        let password: String
    }

    struct Registration: Decodable {
        let name: String
        let clientDataJSON: String
        let attestationObject: String
    }

    struct Assertion: Decodable {
        let id: String
        let clientDataJSON: String
        let authenticatorData: String
        let signature: String
        let userHandle: String?
        /// Where to go once signed in, as the sign-in form's `next`.
        let next: String?
    }

    /// `PublicKeyCredentialCreationOptions`, with byte strings in base64url for the script to decode.
    struct CreationOptions: Encodable {
        struct Party: Encodable { let id: String; let name: String }
        struct Account: Encodable { let id: String; let name: String; let displayName: String }
        struct Parameter: Encodable { var type = "public-key"; let alg: Int }
        struct Selection: Encodable { var residentKey = "required"; var requireResidentKey = true; var userVerification = "required" }
        struct Descriptor: Encodable { var type = "public-key"; let id: String }

        let challenge: String
        let rp: Party
        let user: Account
        var pubKeyCredParams = [Parameter(alg: -7), Parameter(alg: -257)]
        var timeout = Int(RelyingParty.challengeLifetime * 1000)
        var attestation = "none"
        var authenticatorSelection = Selection()
        let excludeCredentials: [Descriptor]

        init(_ options: RegistrationOptions) {
            challenge = Base64URL.encode(options.challenge)
            rp = Party(id: options.relyingPartyID, name: "Bestseller Wishlist")
            user = Account(id: Base64URL.encode(options.userHandle), name: options.username, displayName: options.username)
            excludeCredentials = options.excludedCredentials.map { Descriptor(id: Base64URL.encode($0)) }
        }
    }

    /// `PublicKeyCredentialRequestOptions` for a discoverable passkey: no credentials listed.
    struct RequestOptions: Encodable {
        let challenge: String
        let rpId: String
        var timeout = Int(RelyingParty.challengeLifetime * 1000)
        var userVerification = "required"
    }

    /// A refusal as JSON, in the visitor's language: 400 for what cannot be read, 403 for what was
    /// read and refused.
    static func answering(in translations: Translations, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let refusal as PasskeyRefusal {
            let status: HTTPResponse.Status = switch refusal {
            case .malformed, .invalidName: .badRequest
            case .busy: .tooManyRequests
            default: .forbidden
            }
            var response = try json(["error": refusal.sentence(in: translations)], status: status)
            if refusal == .busy { response.headers[.retryAfter] = String(Int(RelyingParty.challengeLifetime)) }
            return response
        } catch let error as PageError where error.status == .badRequest || error.status == .forbidden {
            return try json(["error": error.message(in: translations)], status: error.status)
        }
    }

    /// Too many wrong passwords or passkey refusals: the JSON form of the throttling page.
    static func throttled(_ seconds: Int, in translations: Translations) throws -> Response {
        let refusal = PageError.tooManyAttempts(retryAfter: seconds, action: .signIn)
        var response = try json(["error": refusal.message(in: translations)], status: .tooManyRequests)
        response.headers.append(contentsOf: refusal.headers)
        return response
    }

    static func decode<Body: Decodable>(_ type: Body.Type, from context: AppRequestContext) throws -> Body {
        guard let body = context.json, let decoded = try? JSONDecoder().decode(Body.self, from: Data(buffer: body)) else {
            throw PageError.badRequest(Translations.marked("The passkey request could not be read. Reload the page and try again."))
        }
        return decoded
    }

    static func bytes(_ text: String) throws -> [UInt8] {
        guard text.utf8.count <= 16_384, let bytes = Base64URL.decode(text) else {
            throw PageError.badRequest(Translations.marked("The passkey’s answer could not be read. Reload the page and try again."))
        }
        return bytes
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(value)))
        )
    }
}
