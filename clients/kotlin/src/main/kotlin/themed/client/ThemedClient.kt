package themed.client

import java.io.File
import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL
import java.security.MessageDigest
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executor
import java.util.concurrent.ThreadLocalRandom
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicBoolean

/**
 * A theme's resolved palette, kept current: an Android app's view of a themed server (the Kotlin
 * counterpart of the Swift `ThemedClient`, docs/CLIENTS.md).
 *
 * It starts from what it last had on disk ([loadCached]), fetches with ETag revalidation
 * ([refresh]), and while [follow] runs listens to `/events` and fetches again when the theme
 * changes, the active theme switches or the server says to resync, resuming after a cut with
 * `Last-Event-ID`. Whatever fails (the server away, a 500, cut JSON, a stalled stream), the last
 * good palette stays and [lastError] says why. Listeners are called on the [Executor] the app
 * passes (the main thread on Android: `ContextCompat.getMainExecutor(context)`). Nothing here
 * runs on the caller's thread but [refresh], which blocks: call it off the main thread.
 */
class ThemedClient(
    server: String,
    theme: String = "current",
    traits: Traits = Traits(),
    /** Where the last good answers are kept across restarts (the app's cache dir); null: nowhere. */
    private val cacheDirectory: File? = null,
    private val listenerExecutor: Executor = Executor { it.run() },
    /** An event stream silent this long is given up and opened again (the server comments every 15 s). */
    private val streamTimeoutMillis: Int = 45_000
) : AutoCloseable {
    /** Why a palette arrived. */
    enum class Reason { CACHED, BOOTSTRAP, FETCHED, EVENT, TRAITS_CHANGED }

    /** What the last fetch did. */
    enum class FetchOutcome { FETCHED, NOT_MODIFIED, FAILED }


    private val server = server.trimEnd('/')
    @Volatile var theme: String = theme
        private set
    @Volatile var traits: Traits = traits
        private set
    @Volatile var palette: Palette? = null
        private set
    /** Why the last fetch or event stream failed; null after a success. */
    @Volatile var lastError: String? = null
        private set
    @Volatile var lastFetch: FetchOutcome? = null
        private set
    /** The id of the last event seen, sent as `Last-Event-ID` when the stream reconnects. */
    @Volatile var lastEventId: String? = null
        private set

    /** Which theme and generation the server assigned this client (`GET /assign/{alias}`). */
    data class Assignment(val theme: String, val generation: Int, val base: String, val reason: String)

    /** The assignment followed now; null when the client follows a theme by name. */
    @Volatile var assignment: Assignment? = null
        private set
    /** While following an alias: its name and what `/assign` is told of this client. */
    @Volatile private var audience: Pair<String, String>? = null

    private val listeners = CopyOnWriteArrayList<(Palette, Reason) -> Unit>()
    private val closed = AtomicBoolean(false)
    @Volatile private var follower: Thread? = null
    @Volatile private var stream: HttpURLConnection? = null

    /** Calls `listener` with every new palette until the returned handle is closed. */
    fun addListener(listener: (palette: Palette, reason: Reason) -> Unit): AutoCloseable {
        listeners.add(listener)
        return AutoCloseable { listeners.remove(listener) }
    }

    private fun publish(palette: Palette, reason: Reason) {
        this.palette = palette
        for (listener in listeners) listenerExecutor.execute { listener(palette, reason) }
    }

    /** The palette kept on disk for the current theme and traits, published as [Reason.CACHED]. */
    fun loadCached(): Palette? {
        val cached = cache(paletteUrl())?.let { runCatching { Palette.parse(it.body) }.getOrNull() } ?: return null
        publish(cached, Reason.CACHED)
        return cached
    }

    /**
     * The first palette of an app that ships `themed export THEME --format bootstrap`'s file in its
     * assets (`text`): the newer of it and the disk copy, published as [Reason.BOOTSTRAP] or
     * [Reason.CACHED]. Taken from the file, the answer is also kept on disk with its ETag, so the
     * first request is a revalidation (a 304 while the theme is as exported). A file that is not
     * a bootstrap, or has no palette for these traits, leaves the disk copy to answer.
     */
    fun loadBootstrap(text: String): Palette? {
        val url = paletteUrl()
        val answer = runCatching { bootstrapAnswer(text) }.getOrNull() ?: return loadCached()
        val (exportedAt, body, etag) = answer
        val diskCopy = cacheFiles(url)?.first?.takeIf { it.isFile }
        if (diskCopy != null && diskCopy.lastModified() >= exportedAt) return loadCached()
        val palette = runCatching { Palette.parse(body) }.getOrNull() ?: return loadCached()
        store(url, body, etag)
        publish(palette, Reason.BOOTSTRAP)
        return palette
    }

    /** The bootstrap file's answer for these traits: when it was exported (ms), the body, the ETag. */
    private fun bootstrapAnswer(text: String): Triple<Long, String, String?>? {
        val root = Json.parse(text) as? Map<*, *> ?: return null
        if (root["format"] != "themed-bootstrap" || root["theme"] != theme && theme != "current") return null
        val exportedAt = java.time.Instant.parse(root["exportedAt"] as? String ?: return null).toEpochMilli()
        val appearance = traits.appearance ?: "light"
        val contrast = if (traits.highContrast) "high" else "normal"
        val palettes = root["palettes"] as? List<*> ?: return null
        val entry = palettes.mapNotNull { it as? Map<*, *> }.firstOrNull { it["appearance"] == appearance && it["contrast"] == contrast } ?: return null
        return Triple(exportedAt, entry["body"] as? String ?: return null, entry["etag"] as? String)
    }

    /** Fetches the palette (a 304 answers from the disk cache); null when it failed. Blocks. */
    fun refresh(): Palette? = refresh(Reason.FETCHED)

    private fun refresh(reason: Reason): Palette? {
        return try {
            fetch(reason)
        } catch (gone: PinnedGenerationGone) {
            // The generation this client was pinned to is not served any more: ask for the
            // assignment again, once (a second 404 is an error, not a loop).
            try { assign(); fetch(reason) } catch (error: Exception) { failed(error) }
        } catch (error: Exception) {
            failed(error)
        }
    }

    private class PinnedGenerationGone : IOException("the pinned generation is not served")

    private fun failed(error: Exception): Palette? {
        lastFetch = FetchOutcome.FAILED
        lastError = "${paletteUrl()}: ${error.message ?: error.javaClass.simpleName}"
        return null
    }

    private fun fetch(reason: Reason): Palette? {
        val url = paletteUrl()
        return try {
            val (body, outcome) = get(url)
            val fetched = Palette.parse(body)
            lastFetch = outcome
            lastError = null
            // A 304 changes nothing an app draws: listeners hear of new palettes only.
            if (outcome == FetchOutcome.FETCHED || palette != fetched) publish(fetched, reason)
            fetched
        } catch (notFound: NotFound) {
            if (audience != null) throw PinnedGenerationGone()
            failed(notFound)
        }
    }

    private class NotFound(url: String) : IOException("$url answered 404")

    /** New traits (an Android configuration change), then the palette for them. Blocks. */
    fun setTraits(traits: Traits): Palette? {
        this.traits = traits
        return refresh(Reason.TRAITS_CHANGED)
    }

    /** Another theme (`current` follows the server's active one; no alias any more), then its palette. Blocks. */
    fun setTheme(theme: String): Palette? {
        audience = null
        assignment = null
        this.theme = theme
        return refresh(Reason.FETCHED)
    }

    /** `@` stays as it is: a pinned theme (`dark@3`) is one path segment, as `/assign`'s `base` writes it. */
    fun paletteUrl(): String = "$server/themes/${Traits.encode(theme).replace("%40", "@")}/colors?${traits.query()}"

    // MARK: Strings and dimensions by name

    /**
     * A string table for the client's languages (`Traits.languages`), as `/strings/{table}`
     * answers it (fallbacks to the development language included), revalidated and kept on disk
     * as palettes are; the disk copy when the server cannot answer; empty when there is none.
     * Blocks.
     */
    fun strings(table: String): Map<String, String> {
        val languages = if (traits.languages.isEmpty()) "" else "?lang=" + Traits.encode(traits.languages.joinToString(","))
        val url = "$server/themes/${Traits.encode(theme).replace("%40", "@")}/strings/${Traits.encode(table)}$languages"
        val body = runCatching { get(url) { Json.parse(it) }.first }.getOrElse { error ->
            lastError = "$url: ${error.message ?: error.javaClass.simpleName}"
            cache(url)?.body ?: return emptyMap()
        }
        val strings = (runCatching { Json.parse(body) }.getOrNull() as? Map<*, *>)?.get("strings") as? Map<*, *> ?: return emptyMap()
        return strings.entries.mapNotNull { (key, value) -> if (key is String && value is String) key to value else null }.toMap()
    }

    /** One string of `table`, or `fallback` when there is none. Blocks. */
    fun string(table: String, key: String, fallback: String): String = strings(table)[key] ?: fallback

    /**
     * A dimension design token (`space.2`) in dp (a CSS px is a dp, a rem 16 of them), as
     * `/tokens/{path}` answers it; `fallback` when the theme has none, it is not a dimension in
     * those units, or neither the server nor the disk copy answers. Blocks.
     */
    fun dimension(path: String, fallback: Float): Float {
        val url = "$server/themes/${Traits.encode(theme).replace("%40", "@")}/tokens/${path.split('.').joinToString("/") { Traits.encode(it) }}"
        val body = runCatching { get(url) { Json.parse(it) }.first }.getOrNull() ?: cache(url)?.body ?: return fallback
        val token = runCatching { Json.parse(body) }.getOrNull() as? Map<*, *> ?: return fallback
        val value = token["\$value"] as? Map<*, *>
        if (token["\$type"] != "dimension" || value == null) return fallback
        val amount = value["value"] as? Double ?: return fallback
        return when (value["unit"]) {
            "px" -> amount.toFloat()
            "rem" -> (amount * 16).toFloat()
            else -> fallback
        }
    }

    // MARK: Aliases

    /**
     * Follows `alias`: asks the server which theme and generation this client reads (by the id it
     * keeps, its platform, app version, locale and attributes), reads the palette at that pinned
     * generation, and asks again when an `assignment-changed` event names the alias (while
     * [follow] runs) or the pinned generation is gone. Blocks; null when it failed ([lastError]).
     */
    fun followAlias(alias: String, platform: String? = "android", appVersion: String? = null, locale: String? = null,
                    attributes: Map<String, String> = emptyMap()): Assignment? {
        val query = mutableListOf("client=" + Traits.encode(clientId))
        platform?.let { query += "platform=" + Traits.encode(it) }
        appVersion?.let { query += "appVersion=" + Traits.encode(it) }
        locale?.let { query += "locale=" + Traits.encode(it) }
        for ((name, value) in attributes.toSortedMap()) query += Traits.encode(name) + "=" + Traits.encode(value)
        audience = Pair(alias, query.joinToString("&"))
        return try {
            val assigned = assign()
            refresh(Reason.FETCHED)
            assigned
        } catch (error: Exception) {
            lastError = "/assign/$alias: ${error.message ?: error.javaClass.simpleName}"
            null
        }
    }

    /** Asks `/assign` again and follows the answer's pinned base. */
    private fun assign(): Assignment {
        val (alias, query) = audience ?: throw IOException("no alias is followed")
        val connection = URL("$server/assign/${Traits.encode(alias)}?$query").openConnection() as HttpURLConnection
        connection.connectTimeout = 10_000
        connection.readTimeout = 10_000
        try {
            if (connection.responseCode != 200) throw IOException("/assign/$alias answered ${connection.responseCode}")
            val body = Json.parse(connection.inputStream.use { it.readBytes() }.toString(Charsets.UTF_8)) as? Map<*, *>
            val theme = body?.get("theme") as? String
            val generation = (body?.get("generation") as? Double)?.toInt()
            val base = body?.get("base") as? String
            if (theme == null || generation == null || base == null) throw IOException("/assign/$alias: not an assignment")
            val assigned = Assignment(theme, generation, base, body["reason"] as? String ?: "")
            assignment = assigned
            this.theme = "$theme@$generation"
            return assigned
        } finally {
            connection.disconnect()
        }
    }

    /**
     * The id this client gives `/assign`: made once at random and kept beside the cache (without a
     * cache directory, for this process's life), so the client stays in its rollout bucket.
     */
    val clientId: String by lazy {
        val made = java.util.UUID.randomUUID().toString()
        val file = cacheDirectory?.let { File(it, "client-id") } ?: return@lazy made
        runCatching { file.readText().trim() }.getOrNull()?.takeIf { it.isNotEmpty() }
            ?: run { runCatching { file.parentFile?.mkdirs(); file.writeText(made) }; made }
    }

    // MARK: HTTP

    private class Cached(val body: String, val etag: String?)

    /**
     * GET with the cached ETag; a 304 answers from the cache, a 200 replaces it when `check`
     * takes it (a broken answer is never kept: it throws).
     */
    private fun get(url: String, check: (String) -> Unit = { Palette.parse(it) }): Pair<String, FetchOutcome> {
        val connection = URL(url).openConnection() as HttpURLConnection
        connection.connectTimeout = 10_000
        connection.readTimeout = 10_000
        val cached = cache(url)
        cached?.etag?.let { connection.setRequestProperty("If-None-Match", it) }
        try {
            return when (val status = connection.responseCode) {
                304 -> Pair(cached?.body ?: throw IOException("304 without a cached copy"), FetchOutcome.NOT_MODIFIED)
                200 -> {
                    val body = connection.inputStream.use { it.readBytes() }.toString(Charsets.UTF_8)
                    check(body)
                    store(url, body, connection.getHeaderField("ETag"))
                    Pair(body, FetchOutcome.FETCHED)
                }
                404 -> throw NotFound(url)
                else -> throw IOException("answered $status")
            }
        } finally {
            connection.disconnect()
        }
    }

    private fun cacheFiles(url: String): Pair<File, File>? {
        val directory = cacheDirectory ?: return null
        val key = MessageDigest.getInstance("SHA-256").digest(url.toByteArray()).joinToString("") { "%02x".format(it) }
        return Pair(File(directory, "$key.body"), File(directory, "$key.etag"))
    }

    private fun cache(url: String): Cached? {
        val (body, etag) = cacheFiles(url) ?: return null
        if (!body.isFile) return null
        return runCatching { Cached(body.readText(), etag.takeIf { it.isFile }?.readText()) }.getOrNull()
    }

    /** Written to a temporary file and renamed: a crash leaves the old copy or the new, never half. */
    private fun store(url: String, text: String, etag: String?) {
        val (body, etagFile) = cacheFiles(url) ?: return
        runCatching {
            body.parentFile?.mkdirs()
            val temporary = File(body.parentFile, body.name + ".tmp")
            temporary.writeText(text)
            etagFile.delete()
            if (!temporary.renameTo(body)) throw IOException("cannot keep ${body.path}")
            if (etag != null) etagFile.writeText(etag)
        }
    }

    // MARK: Following the server's events

    /**
     * Listens to `/events` on a thread of its own until [close], reconnecting after any failure
     * with exponential backoff and jitter (or the server's `retry:`), resuming with
     * `Last-Event-ID`. A call while it follows changes nothing.
     */
    fun follow(minimumDelayMillis: Long = 250, maximumDelayMillis: Long = 30_000) {
        if (closed.get() || follower != null) return
        val thread = Thread({ followLoop(minimumDelayMillis, maximumDelayMillis) }, "themed-events")
        thread.isDaemon = true
        follower = thread
        thread.start()
    }

    /** Whether the event stream's thread runs. */
    val isFollowing: Boolean get() = follower?.isAlive == true

    private fun followLoop(minimumDelay: Long, maximumDelay: Long) {
        var failures = 0
        var retry: Long? = null
        while (!closed.get()) {
            val theme = this.theme
            // A named theme's changes only (the server adds its parents'); `current` follows every
            // switch; following an alias, every event: the alias may move to another theme.
            val only = if (theme == "current" || audience != null) "" else "?theme=" + Traits.encode(theme)
            try {
                val connection = URL("$server/events$only").openConnection() as HttpURLConnection
                connection.connectTimeout = 10_000
                // A stream the server stops feeding is given up: it sends a comment every 15 s.
                connection.readTimeout = streamTimeoutMillis
                connection.setRequestProperty("Accept", "text/event-stream")
                lastEventId?.let { connection.setRequestProperty("Last-Event-ID", it) }
                stream = connection
                if (connection.responseCode != 200) throw IOException("/events answered ${connection.responseCode}")
                failures = 0
                val parser = ServerSentEvents()
                connection.inputStream.bufferedReader(Charsets.UTF_8).use { reader ->
                    while (!closed.get()) {
                        val line = reader.readLine() ?: break
                        val event = parser.feed(line) ?: continue
                        parser.retryMillis?.let { retry = it }
                        event.id?.let { lastEventId = it }
                        handle(event)
                        // Another theme by name since (setTheme): a stream of its own, resuming
                        // after the last id. An alias's stream is every theme's already.
                        if (this.theme != theme && audience == null) break
                    }
                }
                if (closed.get()) return
                if (this.theme != theme && audience == null) continue
                lastError = "the event stream ended"
            } catch (error: Exception) {
                if (closed.get()) return
                lastError = "/events: ${error.message ?: error.javaClass.simpleName}"
            } finally {
                stream?.disconnect()
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

    private fun handle(event: ServerSentEvents.Event) {
        when (event.type) {
            // A parent's change shows in its children too: a revalidation costs a 304 when nothing changed.
            "theme-reloaded", "theme-added", "theme-removed", "resync" -> refresh(Reason.EVENT)
            "active-changed" -> if (theme == "current") refresh(Reason.EVENT)
            "assignment-changed" -> reassign(event)
        }
    }

    /** An `assignment-changed` event naming the followed alias: asked again, read at the new base. */
    private fun reassign(event: ServerSentEvents.Event) {
        val alias = audience?.first ?: return
        if ((runCatching { Json.parse(event.data) }.getOrNull() as? Map<*, *>)?.get("alias") != alias) return
        try {
            val before = assignment
            if (assign() != before) refresh(Reason.EVENT)
        } catch (error: Exception) {
            lastError = "/assign/$alias: ${error.message ?: error.javaClass.simpleName}"
        }
    }

    /** Stops the event stream's thread (and waits for it); the palette stays readable. */
    override fun close() {
        if (!closed.compareAndSet(false, true)) return
        val thread = follower
        stream?.disconnect()
        thread?.interrupt()
        thread?.join(5_000)
        listeners.clear()
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
