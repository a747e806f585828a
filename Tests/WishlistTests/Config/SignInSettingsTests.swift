import Foundation
import Testing
@testable import WishlistCore

/// The settings of issue 32: single sign-on, the trusted header, and turning passwords off.
@Suite("Configuration: single sign-on and the trusted header")
struct SignInSettingsTests {
    static let oidc = [
        "WISHLIST_OIDC_ISSUER": "https://id.example.org/realms/home", "WISHLIST_OIDC_CLIENT_ID": "wishlist",
        "WISHLIST_OIDC_CLIENT_SECRET": "s3cret-value",
    ]

    @Test func theDefaultsLeaveEveryNewWayInOff() throws {
        let accounts = try ConfigLoader.load(file: nil, fileIsRequired: false, environment: [:]).accounts
        #expect(!accounts.oidc.isOn && accounts.oidc.clientID.isEmpty && accounts.oidc.clientSecret.isEmpty)
        #expect(accounts.oidc.buttonLabel == "Sign in with single sign-on" && accounts.oidc.signup == nil)
        #expect(accounts.passwordSignIn && accounts.trustedHeader.isEmpty)
    }

    @Test func theEnvironmentSetsTheProviderAndTheHeader() throws {
        let environment = Self.oidc.merging(
            ["WISHLIST_PASSWORD_SIGNIN": "false", "WISHLIST_TRUSTED_HEADER": "Remote-User", "WISHLIST_TRUSTED_PROXIES": "127.0.0.1"]
        ) { $1 }
        let accounts = try ConfigLoader.load(file: nil, fileIsRequired: false, environment: environment).accounts
        #expect(accounts.oidc.issuer == "https://id.example.org/realms/home" && accounts.oidc.clientID == "wishlist")
        #expect(accounts.oidc.clientSecret == "s3cret-value")
        #expect(!accounts.passwordSignIn && accounts.trustedHeader == "Remote-User")
    }

    @Test func printingTheConfigurationNeverShowsTheClientSecret() throws {
        let config = try ConfigLoader.load(file: nil, fileIsRequired: false, environment: Self.oidc)
        #expect(!String(describing: config).contains("s3cret-value"))
        #expect(!String(reflecting: config).contains("s3cret-value"))
    }

    @Test(arguments: ["http://127.0.0.1:9400", "http://localhost:9400/realm", "http://[::1]:9400", "https://id.example.org"])
    func anIssuerIsHTTPSOrOnThisMachine(_ issuer: String) throws {
        let config = try ConfigLoader.load(
            file: nil, fileIsRequired: false, environment: ["WISHLIST_OIDC_ISSUER": issuer, "WISHLIST_OIDC_CLIENT_ID": "wishlist"]
        )
        #expect(config.accounts.oidc.issuer == issuer)
    }

    /// Issue 50: single sign-on made accounts with `accounts.signup: closed`. Unset,
    /// `accounts.oidc.signup` follows `accounts.signup`; false closes it alone.
    @Test func signUpThroughSingleSignOnFollowsSignUp() throws {
        for (signup, oidcSignup, expected) in [
            ("open", nil, AppConfig.Signup.open), ("invite", nil, .invite), ("closed", nil, .closed),
            ("open", "false", .closed), ("invite", "false", .closed), ("open", "true", .open), ("invite", "true", .invite),
        ] as [(String, String?, AppConfig.Signup)] {
            let config = try ConfigLoader.load(
                file: nil, fileIsRequired: false, environment: Self.oidc.merging(["WISHLIST_SIGNUP": signup]) { $1 },
                overrides: oidcSignup.map { ["accounts.oidc.signup": $0] } ?? [:]
            )
            #expect(config.accounts.singleSignOnSignup == expected, "\(signup), \(oidcSignup ?? "unset")")
        }
    }

    @Test func singleSignOnSignUpWithSignUpClosedStopsTheServerWithASentence() throws {
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader.load(
                file: nil, fileIsRequired: false, environment: Self.oidc.merging(["WISHLIST_SIGNUP": "closed"]) { $1 },
                overrides: ["accounts.oidc.signup": "true"]
            )
        }
        #expect(error?.description == "configuration: accounts.oidc.signup: true contradicts accounts.signup: closed, "
            + "under which only `wishlist user create` makes accounts; remove one of the two")
    }

    @Test("a bad combination names its key", arguments: [
        (["WISHLIST_OIDC_ISSUER": "http://id.example.org", "WISHLIST_OIDC_CLIENT_ID": "w"], "accounts.oidc.issuer: expected an https URL"),
        (["WISHLIST_OIDC_ISSUER": "https://id.example.org?x=1", "WISHLIST_OIDC_CLIENT_ID": "w"], "accounts.oidc.issuer: expected an https URL"),
        (["WISHLIST_OIDC_ISSUER": "https://id.example.org"], "accounts.oidc.clientID: must be set"),
        (["WISHLIST_TRUSTED_HEADER": "Remote-User"], "accounts.trustedHeader: is believed only from server.trustedProxies"),
        (["WISHLIST_TRUSTED_HEADER": "Remote User", "WISHLIST_TRUSTED_PROXIES": "127.0.0.1"], "accounts.trustedHeader: expected a header name"),
        (["WISHLIST_PASSWORD_SIGNIN": "false"], "accounts.passwordSignIn: false needs accounts.oidc.issuer or accounts.trustedHeader"),
    ])
    func badCombinations(environment: [String: String], message: String) {
        let error = #expect(throws: ConfigError.self) {
            try ConfigLoader.load(file: nil, fileIsRequired: false, environment: environment)
        }
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "no error")")
    }
}
