package themed.client

import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL
import java.util.Collections
import java.util.concurrent.ConcurrentHashMap

/**
 * The client's HTTP: `HttpURLConnection` (on Android, OkHttp underneath), every connection with
 * the client's timeouts and kept until it ends, so that [close] can cut them all at once.
 */
internal class HttpTransport(private val requestTimeoutMillis: Int) {
    class Answer(val status: Int, val body: String, val etag: String?)

    private val open: MutableSet<HttpURLConnection> = Collections.newSetFromMap(ConcurrentHashMap<HttpURLConnection, Boolean>())
    @Volatile var closed = false
        private set

    /** A GET; `ifNoneMatch` is sent as it is (a bootstrap's list of ETags included). */
    fun get(url: String, ifNoneMatch: String? = null): Answer = exchange(url) { connection ->
        ifNoneMatch?.let { connection.setRequestProperty("If-None-Match", it) }
        val status = connection.responseCode
        val body = if (status == 200) connection.inputStream.use { it.readBytes() }.toString(Charsets.UTF_8) else ""
        Answer(status, body, connection.getHeaderField("ETag"))
    }

    /**
     * Opens `url` and hands the connection to `use` (an event stream reads it until it ends);
     * a transport failure or [close] is a [ThemedClientException].
     */
    fun <T> exchange(url: String, readTimeoutMillis: Int = requestTimeoutMillis, use: (HttpURLConnection) -> T): T {
        if (closed) throw ThemedClientException(ThemedClientException.Kind.CLOSED, "the client is closed")
        val connection = try {
            URL(url).openConnection() as HttpURLConnection
        } catch (error: IOException) {
            throw ThemedClientException(ThemedClientException.Kind.TRANSPORT, "$url: ${error.message}", cause = error)
        }
        connection.connectTimeout = requestTimeoutMillis
        connection.readTimeout = readTimeoutMillis
        open.add(connection)
        try {
            if (closed) throw ThemedClientException(ThemedClientException.Kind.CLOSED, "the client is closed")
            return use(connection)
        } catch (error: IOException) {
            if (closed) throw ThemedClientException(ThemedClientException.Kind.CLOSED, "the client is closed")
            throw ThemedClientException(ThemedClientException.Kind.TRANSPORT, "$url: ${error.message ?: error.javaClass.simpleName}", cause = error)
        } finally {
            open.remove(connection)
            connection.disconnect()
        }
    }

    /** Cuts every connection in flight (their reads end with an error) and refuses new ones. */
    fun close() {
        closed = true
        for (connection in open.toList()) connection.disconnect()
    }
}
