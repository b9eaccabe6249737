package themed.client

import java.io.IOException
import java.net.HttpURLConnection
import java.util.concurrent.ThreadLocalRandom
import java.util.concurrent.TimeUnit

/**
 * The client's event stream, on a thread of its own: `/events?theme=` what the client follows,
 * reopened after any failure with exponential backoff and jitter (or the server's `retry:`),
 * resuming after the last event handled. Each (re)open revalidates the palette, so a client that
 * started offline catches up when the stream opens; an event's id is taken as handled only once
 * the refresh it asked for succeeded: a failed one ends the stream, and the reopened stream replays
 * the event.
 */
internal class EventFollower(private val client: ThemedClient) {
    @Volatile private var thread: Thread? = null
    @Volatile private var stream: HttpURLConnection? = null
    @Volatile private var stopped = false
    /** The id of the last event handled. */
    @Volatile var lastEventId: String? = null
        private set

    val isRunning: Boolean get() = thread?.isAlive == true

    fun start(minimumDelayMillis: Long, maximumDelayMillis: Long) {
        synchronized(this) {
            if (stopped || thread != null) return
            val started = Thread({ loop(minimumDelayMillis, maximumDelayMillis) }, "themed-events")
            started.isDaemon = true
            thread = started
            started.start()
        }
    }

    /** Cuts the open stream: the loop opens one for what the client follows now, right away. */
    fun reopen() {
        stream?.disconnect()
    }

    fun stop() {
        stopped = true
        stream?.disconnect()
        thread?.interrupt()
    }

    private class Reopen : Exception()

    private fun loop(minimumDelay: Long, maximumDelay: Long) {
        var failures = 0
        var retry: Long? = null
        while (!stopped) {
            val followed = client.audience?.first ?: client.theme
            try {
                val url = "${client.server}/events?theme=" + Traits.encode(followed)
                client.transport.exchange(url, readTimeoutMillis = client.streamTimeoutMillis) { connection ->
                    connection.setRequestProperty("Accept", "text/event-stream")
                    lastEventId?.let { connection.setRequestProperty("Last-Event-ID", it) }
                    stream = connection
                    if (connection.responseCode != 200) throw statusError(connection.responseCode, url)
                    val parser = ServerSentEvents()
                    var revalidationDue = true
                    connection.inputStream.bufferedReader(Charsets.UTF_8).use { reader ->
                        while (!stopped) {
                            val line = reader.readLine() ?: break
                            val event = parser.feed(line) ?: continue
                            parser.retryMillis?.let { retry = it }
                            val outcome = if (event.type.length == 0) Outcome.IGNORED else handle(event)
                            if (outcome == Outcome.FAILED) throw IOException("the refresh after event ${event.id} failed")
                            // (Re)opened: the opening (it ends with an id) replays what changed while no
                            // stream was open, unless the server no longer had it or never saw this
                            // client. Revalidate either way, unless a replayed event just did.
                            if (revalidationDue) {
                                revalidationDue = false
                                if (outcome != Outcome.REFRESHED && !client.revalidated()) throw IOException("the revalidation after the stream opened failed")
                                failures = 0
                            }
                            // Taken as handled once what it asked for (and the opening's revalidation) succeeded.
                            event.id?.let { lastEventId = it }
                            // Another theme or alias followed since: a stream of its own, resuming after the last id.
                            if ((client.audience?.first ?: client.theme) != followed) throw Reopen()
                        }
                    }
                }
                if (stopped) return
                if ((client.audience?.first ?: client.theme) != followed) continue
                client.report(ThemedClientException(ThemedClientException.Kind.TRANSPORT, "the event stream ended"))
            } catch (reopen: Reopen) {
                continue
            } catch (error: ThemedClientException) {
                if (stopped) return
                // Cut by reopen() for another theme: straight back, not a failure.
                if ((client.audience?.first ?: client.theme) != followed) continue
                client.report(error)
            } finally {
                stream = null
            }
            failures++
            val base = retry ?: minimumDelay
            val backoff = minOf(maximumDelay, base shl minOf(failures - 1, 16))
            // Jitter: a fleet of clients cut off together does not come back together.
            val delay = (backoff * ThreadLocalRandom.current().nextDouble(0.5, 1.0)).toLong()
            try { TimeUnit.MILLISECONDS.sleep(delay) } catch (interrupted: InterruptedException) { return }
        }
    }

    private enum class Outcome { IGNORED, REFRESHED, FAILED }

    private fun handle(event: ServerSentEvents.Event): Outcome {
        val data = runCatching { Json.parse(event.data) }.getOrNull() as? Map<*, *>
        val alias = client.audience?.first
        when (event.type) {
            // The stream sends only what the client follows and its parents': each is worth a
            // revalidation, which costs a 304 when this palette did not change, and nothing when
            // the palette held already has the revision announced (a replayed event).
            "theme-reloaded", "theme-added", "theme-removed" ->
                if (client.holds(data?.get("theme") as? String, data?.get("revision") as? String, asTheme = false)) return Outcome.IGNORED
            "active-changed" -> if (client.theme != "current" || alias != null ||
                client.holds(data?.get("theme") as? String, data?.get("revision") as? String, asTheme = true)) return Outcome.IGNORED
            "resync" -> if (alias != null) {
                try { client.assign() } catch (error: ThemedClientException) { client.report(error); return Outcome.FAILED }
            }
            "assignment-changed" -> {
                if (alias == null || data?.get("alias") != alias) return Outcome.IGNORED
                try {
                    val before = client.assignment
                    if (client.assign() == before) return Outcome.IGNORED
                } catch (error: ThemedClientException) {
                    client.report(error)
                    return Outcome.FAILED
                }
            }
            else -> return Outcome.IGNORED
        }
        // A change that reaches a crowd asks each client to wait a random part of this long.
        val within = (data?.get("refetchWithin") as? Double)?.toLong() ?: 0
        if (within > 0) {
            try { TimeUnit.MILLISECONDS.sleep(ThreadLocalRandom.current().nextLong(minOf(within, 60_000) + 1)) } catch (interrupted: InterruptedException) { return Outcome.FAILED }
        }
        return if (client.fetchPalette(ThemedClient.Reason.EVENT)) Outcome.REFRESHED else Outcome.FAILED
    }
}

/** Server-Sent Events as the HTML standard parses them, a line at a time. */
class ServerSentEvents {
    data class Event(val type: String, val data: String, val id: String?)

    private var type = ""
    private val data = StringBuilder()
    private var id: String? = null
    /** The reconnection time the server last asked for (`retry:`). */
    var retryMillis: Long? = null
        private set

    /** The event a blank line dispatches; null for every other line. */
    fun feed(line: String): Event? {
        if (line.length == 0) {
            if (data.length == 0 && type.length == 0) { return idOnly() }
            val event = Event(type.ifEmpty { "message" }, data.toString().removeSuffix("\n"), id)
            type = ""; data.setLength(0)
            return event
        }
        if (line.startsWith(":")) return null
        val colon = line.indexOf(':')
        val field = if (colon < 0) line else line.substring(0, colon)
        var value = if (colon < 0) "" else line.substring(colon + 1)
        if (value.startsWith(" ")) value = value.substring(1)
        when (field) {
            "event" -> type = value
            "data" -> data.append(value).append('\n')
            "id" -> if (!value.contains('\u0000')) id = value
            "retry" -> value.toLongOrNull()?.let { retryMillis = it }
        }
        return null
    }

    /** A blank line after only an id (the stream's opening says where it starts) reports it. */
    private fun idOnly(): Event? = id?.let { Event("", "", it) }
}
