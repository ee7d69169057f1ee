#if os(Linux) || os(FreeBSD)
    import Dispatch
    import Foundation
    import SpotifyLinkSupport
    import Synchronization

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// libsecret, loaded at run time so that building needs no system package and a machine
    /// without it reports the store as unavailable instead of failing to start.
    ///
    /// Only the non-variadic `…v_sync` entry points are used: Swift cannot call C variadic
    /// functions through a pointer.
    // @unchecked: every stored property is a `let` set in `init` (C function pointers, the
    // library handle and the schema), and libsecret's synchronous calls may be made from any thread.
    final class LibSecret: @unchecked Sendable {
        /// The fix a user without libsecret or a keyring daemon should apply.
        static let installHint =
            "install libsecret and a keyring (Debian/Ubuntu: apt-get install libsecret-1-0 gnome-keyring) and run in a desktop session, or choose the file store explicitly"

        private typealias HashTableNewFull =
            @convention(c) (
                UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
            ) -> OpaquePointer?
        private typealias HashTableInsert =
            @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32
        private typealias Unref = @convention(c) (OpaquePointer?) -> Void
        private typealias SchemaNew = @convention(c) (UnsafePointer<CChar>?, Int32, OpaquePointer?) -> OpaquePointer?
        private typealias ErrorOut = UnsafeMutablePointer<UnsafeMutableRawPointer?>
        private typealias Store =
            @convention(c) (
                OpaquePointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                OpaquePointer?, ErrorOut?
            ) -> Int32
        private typealias Lookup =
            @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, ErrorOut?) -> UnsafeMutablePointer<CChar>?
        private typealias Clear = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, ErrorOut?) -> Int32
        private typealias PasswordFree = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
        private typealias ErrorFree = @convention(c) (UnsafeMutableRawPointer?) -> Void
        private typealias QuarkToString = @convention(c) (UInt32) -> UnsafePointer<CChar>?
        private typealias CancellableNew = @convention(c) () -> OpaquePointer?

        private let hashTableNewFull: HashTableNewFull
        private let hashTableInsert: HashTableInsert
        private let hashTableUnref: Unref
        private let strHash: UnsafeMutableRawPointer
        private let strEqual: UnsafeMutableRawPointer
        private let schemaNew: SchemaNew
        private let schemaUnref: Unref
        private let store: Store
        private let lookup: Lookup
        private let clear: Clear
        private let passwordFree: PasswordFree
        private let errorFree: ErrorFree
        private let quarkToString: QuarkToString
        private let cancellableNew: CancellableNew
        private let cancellableCancel: Unref
        private let objectUnref: Unref
        /// The schema of SpotifyLink's items, alive as long as the library.
        private let schema: OpaquePointer

        /// The library, loaded once per process; the error says why it could not be.
        static let shared: Result<LibSecret, TokenStoreError> = Result { try LibSecret(path: "libsecret-1.so.0") }
            .mapError { $0 as? TokenStoreError ?? TokenStoreError(code: .unavailable, message: "\($0)") }

        /// Loads `path`; an unusable library is reported as `.unavailable` with the fix.
        init(path: String) throws {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                let reason = dlerror().map { String(cString: $0) } ?? "not found"
                throw TokenStoreError(
                    code: .unavailable,
                    message:
                        "The Secret Service store needs libsecret, which could not be loaded (\(reason)): \(Self.installHint)."
                )
            }
            func symbol<T>(_ name: String, as type: T.Type = T.self) throws -> T {
                // dlsym on the libsecret handle also finds GLib's symbols: libsecret links them.
                guard let pointer = dlsym(handle, name) else {
                    throw TokenStoreError(
                        code: .unavailable, message: "The loaded libsecret lacks \(name): \(Self.installHint).")
                }
                return unsafeBitCast(pointer, to: T.self)
            }
            hashTableNewFull = try symbol("g_hash_table_new_full")
            hashTableInsert = try symbol("g_hash_table_insert")
            hashTableUnref = try symbol("g_hash_table_unref")
            strHash = try symbol("g_str_hash")
            strEqual = try symbol("g_str_equal")
            schemaNew = try symbol("secret_schema_newv")
            schemaUnref = try symbol("secret_schema_unref")
            store = try symbol("secret_password_storev_sync")
            lookup = try symbol("secret_password_lookupv_sync")
            clear = try symbol("secret_password_clearv_sync")
            passwordFree = try symbol("secret_password_free")
            errorFree = try symbol("g_error_free")
            quarkToString = try symbol("g_quark_to_string")
            cancellableNew = try symbol("g_cancellable_new")
            cancellableCancel = try symbol("g_cancellable_cancel")
            objectUnref = try symbol("g_object_unref")
            // Attribute types are GINT_TO_POINTER(SECRET_SCHEMA_ATTRIBUTE_STRING), that is 0.
            let (newTable, insert, unref, hash, equal, newSchema) =
                (hashTableNewFull, hashTableInsert, hashTableUnref, strHash, strEqual, schemaNew)
            let types = Self.withCStrings(Self.attributeNames) { names in
                let table = newTable(hash, equal, nil, nil)
                defer { unref(table) }
                for name in names { _ = insert(table, name, nil) }
                return newSchema(Self.schemaName, 0, table)
            }
            guard let types else {
                throw TokenStoreError(
                    code: .unavailable, message: "libsecret could not create the item schema: \(Self.installHint).")
            }
            schema = types
        }

        static let schemaName = "dev.spotifylink.Tokens"
        static let attributeNames = ["issuer", "client_id"]

        /// A libsecret call that failed, with GLib's error domain, code and message.
        struct Failure: Error {
            var domain: String
            var code: Int32
            var message: String
            var timedOut = false
        }

        /// Stores `secret` under `attributes` in the default collection, replacing any item with the same attributes.
        func store(_ secret: String, label: String, attributes: [String: String], timeout: Duration) throws {
            let stored = try call(attributes, timeout: timeout) { table, cancellable, error in
                store(schema, table, nil, label, secret, cancellable, error) != 0
            }
            if !stored {
                throw Failure(domain: "secret-error-quark", code: -1, message: "the keyring did not store the item")
            }
        }

        /// The secret under `attributes`, or `nil`; libsecret wipes its copy.
        func lookup(_ attributes: [String: String], timeout: Duration) throws -> String? {
            try call(attributes, timeout: timeout) { table, cancellable, error -> String? in
                guard let password = lookup(schema, table, cancellable, error) else { return nil }
                defer { passwordFree(password) }
                return String(cString: password)
            }
        }

        /// Removes the items under `attributes`; `true` when there was one.
        @discardableResult
        func clear(_ attributes: [String: String], timeout: Duration) throws -> Bool {
            try call(attributes, timeout: timeout) { table, cancellable, error in
                clear(schema, table, cancellable, error) != 0
            }
        }

        /// Builds the attribute table, runs `body` with a cancellable that fires after `timeout`
        /// (a keyring waiting for a password prompt nobody sees must not hang the app), and turns a
        /// GError into ``Failure``.
        private func call<T>(
            _ attributes: [String: String], timeout: Duration,
            _ body: (OpaquePointer?, OpaquePointer?, ErrorOut) -> T
        ) throws(Failure) -> T {
            let pairs = attributes.sorted { $0.key < $1.key }
            let outcome: (T, UnsafeMutableRawPointer?) = Self.withCStrings(pairs.flatMap { [$0.key, $0.value] }) {
                strings in
                let table = hashTableNewFull(strHash, strEqual, nil, nil)
                defer { hashTableUnref(table) }
                for index in stride(from: 0, to: strings.count, by: 2) {
                    _ = hashTableInsert(table, strings[index], strings[index + 1])
                }
                let cancellable = cancellableNew()
                // The timer may be running at the moment the call returns (`cancel()` does not stop
                // a work item that has started), so it cancels only under a lock, and only while
                // the call is still going: once `finished` is set under that lock, no cancel can
                // reach the object the `defer` releases.
                let call = CallInProgress()
                defer { objectUnref(cancellable) }
                let timer = DispatchWorkItem { [cancellableCancel] in
                    call.whileRunning { cancellableCancel(cancellable) }
                }
                DispatchQueue.global().asyncAfter(
                    deadline: .now() + .nanoseconds(Int(timeout.nanoseconds)), execute: timer)
                var error: UnsafeMutableRawPointer?
                let result = body(table, cancellable, &error)
                call.finish()
                timer.cancel()
                return (result, error)
            }
            guard let error = outcome.1 else { return outcome.0 }
            defer { errorFree(error) }
            // struct GError { GQuark domain; gint code; gchar *message; }
            let domain = error.load(as: UInt32.self)
            let code = error.load(fromByteOffset: 4, as: Int32.self)
            let message =
                error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
            let domainName = quarkToString(domain).map { String(cString: $0) } ?? "unknown"
            // G_IO_ERROR_CANCELLED is 19: only our timer cancels.
            throw Failure(
                domain: domainName, code: code, message: message,
                timedOut: domainName == "g-io-error-quark" && code == 19)
        }

        /// Runs `body` with NUL-terminated copies of `strings` that live until it returns.
        private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>]) throws -> T)
            rethrows -> T
        {
            let copies = strings.map { strdup($0)! }
            defer { copies.forEach { free($0) } }
            return try body(copies)
        }
    }

    /// Whether a keyring call is still going, for its timeout timer.
    private final class CallInProgress: Sendable {
        private let finished = Lock(false)

        /// Runs `body` only if the call has not finished, holding the lock while it runs.
        func whileRunning(_ body: () -> Void) { finished.withLock { if !$0 { body() } } }

        /// Marks the call finished; waits for a `whileRunning` body that has already started.
        func finish() { finished.withLock { $0 = true } }
    }
#endif
