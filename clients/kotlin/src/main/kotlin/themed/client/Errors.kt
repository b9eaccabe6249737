package themed.client

/** Why a request of the client failed. The client keeps its last good values either way. */
class ThemedClientException(
    val kind: Kind,
    message: String,
    /** With [Kind.STATUS]: the HTTP status the server answered. */
    val status: Int = 0,
    cause: Throwable? = null
) : Exception(message, cause) {
    enum class Kind {
        /** The server answered a status that is not an answer (404, 500, 503). */
        STATUS,
        /** The server answered something that is not what was asked (a captive portal's page, cut JSON). */
        INVALID_RESPONSE,
        /** No answer: the server away, a timeout, a cut connection. */
        TRANSPORT,
        /** The cache folder cannot be written: the app starts from an older copy next time. */
        CACHE,
        /** A bootstrap file the app ships that cannot be used (cut, not a bootstrap, another theme's). */
        BOOTSTRAP,
        /** A listener threw: the others were still called. */
        LISTENER,
        /** The client was closed. */
        CLOSED
    }

    override fun toString(): String = "${kind.name.toLowerCase()}: $message"
}

/** Where the client stands with the server: what a status line or an offline banner shows. */
sealed class Status {
    /** No answer from the server yet. */
    object Connecting : Status() { override fun toString() = "connecting" }

    /** The last palette came from the server whole. */
    object Live : Status() { override fun toString() = "live" }

    /** The server could not be reached or answered wrong: the last good palette is shown. */
    data class Offline(val error: ThemedClientException) : Status()

    /**
     * The server serves the theme without some colours (a broken source): their last good values
     * are kept and named here.
     */
    data class Degraded(val missing: List<String>) : Status()
}

/** Told of every new palette (a Java lambda, or a Kotlin one through [ThemedClient.addListener]). */
interface PaletteListener {
    fun onPalette(palette: Palette, reason: ThemedClient.Reason)
}

/** Told of each change of [Status]. */
interface StatusListener {
    fun onStatus(status: Status)
}

/** Told of every error: failed requests and streams, an unwritable cache, a listener that threw. */
interface ErrorListener {
    fun onError(error: ThemedClientException)
}
