import CCrypto

/// OpenSSL's libcrypto, set up once a process, without the cleanup it would run at exit.
///
/// By default libcrypto frees its tables and locks in an `atexit` handler. A daemon's background
/// threads (the warming, hashing each image it encodes) may still be hashing while the process
/// exits, and then they took a freed lock: `themed serve` stopped by SIGTERM during its warming
/// crashed after "stopped" (a null rwlock, or glibc finding the heap corrupt) in 4 of 20 stops on
/// the corpus's catalogs. The exit gives the memory back anyway. Whichever set-up of libcrypto
/// comes first in a process decides, so the daemon makes this one before anything else uses
/// libcrypto (libpq's TLS among them), and every hash makes sure of it.
public enum LibCrypto {
    public static let setUp: Void = {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }()
}
