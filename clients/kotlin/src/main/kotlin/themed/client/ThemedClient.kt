package themed.client

import java.io.File
import java.text.SimpleDateFormat
import java.util.Locale
import java.util.TimeZone
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executor
import java.util.concurrent.atomic.AtomicInteger

/**
 * A theme's resolved palette, kept current: an Android app's view of a themed server (the Kotlin
 * counterpart of the Swift `ThemedClient`, docs/CLIENTS.md, whose contract it keeps).
 *
 * It starts from what it last had ([loadBootstrap], [loadCached]), fetches with ETag revalidation
 * ([refresh]), and while [follow] runs listens to `/events` and fetches again when the theme
 * changes, the active theme switches or the server says to resync. A palette is published only
 * when it parsed whole and answers the newest request; a degraded answer keeps the last good value
 * of each missing colour; the disk copy is replaced only by a whole palette. Whatever fails, the
 * last good palette stays, [status] and the error listeners say why. Listeners are called on the
 * [Executor] the app passes (the main thread on Android: `ContextCompat.getMainExecutor(context)`),
 * each apart from the others. [refresh], [revalidate], [setTraits], [setTheme], [followAlias],
 * [strings] and [dimension] block: call them off the main thread.
 *
 * Made with a [Builder] (`ThemedClient.Builder(url).theme("dark").cacheDirectory(dir).build()`)
 * or the constructor; Java callers need neither `Unit.INSTANCE` nor `Companion`.
 */
class ThemedClient @JvmOverloads constructor(
    server: String,
    theme: String = "current",
    traits: Traits = Traits(),
    /** Where the last good answers are kept across restarts (the app's cache dir); null: nowhere. */
    cacheDirectory: File? = null,
    private val listenerExecutor: Executor = Executor { it.run() },
    /** An event stream silent this long is given up and opened again (the server comments every 15 s). */
    internal val streamTimeoutMillis: Int = 45_000,
    /** How long one request may take. */
    requestTimeoutMillis: Int = 10_000,
    /** The id `/assign` knows this client by; null: one made at random and kept in the cache folder. */
    private val givenClientId: String? = null
) : AutoCloseable {
    /** Why a palette arrived. */
    enum class Reason { CACHED, BOOTSTRAP, FETCHED, EVENT, TRAITS_CHANGED, REVALIDATED }

    /** What the last fetch did. */
    enum class FetchOutcome { FETCHED, NOT_MODIFIED, FAILED }

    /** A client made step by step: every setting has the constructor's default. */
    class Builder(private val server: String) {
        private var theme = "current"
        private var traits = Traits()
        private var cacheDirectory: File? = null
        private var listenerExecutor: Executor = Executor { it.run() }
        private var streamTimeoutMillis = 45_000
        private var requestTimeoutMillis = 10_000
        private var clientId: String? = null

        fun theme(theme: String) = apply { this.theme = theme }
        fun traits(traits: Traits) = apply { this.traits = traits }
        fun cacheDirectory(directory: File?) = apply { cacheDirectory = directory }
        fun listenerExecutor(executor: Executor) = apply { listenerExecutor = executor }
        fun streamTimeoutMillis(millis: Int) = apply { streamTimeoutMillis = millis }
        fun requestTimeoutMillis(millis: Int) = apply { requestTimeoutMillis = millis }
        fun clientId(id: String?) = apply { clientId = id }
        fun build() = ThemedClient(server, theme, traits, cacheDirectory, listenerExecutor, streamTimeoutMillis, requestTimeoutMillis, clientId)
    }

    internal val server = server.trimEnd('/')
    internal val cache = cacheDirectory?.let { DiskCache(it) }
    internal val transport = HttpTransport(requestTimeoutMillis)

    @Volatile var theme: String = theme
        internal set
    @Volatile var traits: Traits = traits
        private set
    @Volatile var palette: Palette? = null
        private set
    /** The palette URL [palette] answers (null: nothing yet). */
    @Volatile private var paletteSource: String? = null
    /** The revision of each theme of [palette]'s chain as the server answered it. */
    @Volatile private var revisions: Map<String, String> = emptyMap()
    @Volatile var status: Status = Status.Connecting
        private set
    /** The last error (also told to the error listeners); null after a success. */
    @Volatile var lastError: ThemedClientException? = null
        private set
    @Volatile var lastFetch: FetchOutcome? = null
        private set

    /** Which theme and generation the server assigned this client (`GET /assign/{alias}`). */
    data class Assignment(val theme: String, val generation: Int, val base: String, val reason: String)

    /** The assignment followed now; null when the client follows a theme by name. */
    @Volatile var assignment: Assignment? = null
        internal set
    /** While following an alias: its name and what `/assign` is told of this client. */
    @Volatile internal var audience: Pair<String, String>? = null

    private val listeners = CopyOnWriteArrayList<PaletteListener>()
    private val statusListeners = CopyOnWriteArrayList<StatusListener>()
    private val errorListeners = CopyOnWriteArrayList<ErrorListener>()
    // Each palette request is numbered: an answer older than the one published is dropped.
    private val requestsMade = AtomicInteger()
    private var requestPublished = 0
    /** String tables and tokens read since the palette last changed, by URL: one request a table. */
    private val answers = java.util.concurrent.ConcurrentHashMap<String, String>()
    internal val follower = EventFollower(this)

    // MARK: Listeners

    /** Calls `listener` with every new palette until the returned handle is closed. */
    fun addListener(listener: PaletteListener): AutoCloseable {
        listeners.add(listener)
        return AutoCloseable { listeners.remove(listener) }
    }

    /** The same for a Kotlin lambda. */
    @JvmSynthetic
    fun addListener(listener: (palette: Palette, reason: Reason) -> Unit): AutoCloseable = addListener(object : PaletteListener {
        override fun onPalette(palette: Palette, reason: Reason) = listener(palette, reason)
    })

    /** Calls `listener` with the status now, then with each change. */
    fun addStatusListener(listener: StatusListener): AutoCloseable {
        statusListeners.add(listener)
        val now = status
        listenerExecutor.execute { isolated { listener.onStatus(now) } }
        return AutoCloseable { statusListeners.remove(listener) }
    }

    @JvmSynthetic
    fun addStatusListener(listener: (Status) -> Unit): AutoCloseable = addStatusListener(object : StatusListener {
        override fun onStatus(status: Status) = listener(status)
    })

    fun addErrorListener(listener: ErrorListener): AutoCloseable {
        errorListeners.add(listener)
        return AutoCloseable { errorListeners.remove(listener) }
    }

    @JvmSynthetic
    fun addErrorListener(listener: (ThemedClientException) -> Unit): AutoCloseable = addErrorListener(object : ErrorListener {
        override fun onError(error: ThemedClientException) = listener(error)
    })

    /** A listener that throws is reported; the others, and the fetch, go on. */
    private fun isolated(call: () -> Unit) {
        try {
            call()
        } catch (error: Throwable) {
            val failure = ThemedClientException(ThemedClientException.Kind.LISTENER, "a listener threw: $error", cause = error)
            for (listener in errorListeners) runCatching { listener.onError(failure) }
        }
    }

    /**
     * Publishes `palette` (answering `source`); `request`, when it answers one, must be newer than
     * the one published and still be what the client asks. Returns whether it was taken.
     */
    private fun publish(palette: Palette, reason: Reason, source: String?, revisions: Map<String, String>, request: Int? = null,
                        status: Status? = null): Boolean {
        val changed = synchronized(this) {
            if (request != null) {
                if (request <= requestPublished || source != paletteUrl()) return false
                requestPublished = request
            }
            paletteSource = source
            this.revisions = revisions
            // The status changes with the palette, before any listener is told of either.
            if (status != null) setStatus(status)
            if (palette == this.palette && reason != Reason.CACHED && reason != Reason.BOOTSTRAP) return@synchronized false
            this.palette = palette
            if (reason == Reason.EVENT || reason == Reason.TRAITS_CHANGED) answers.clear()
            true
        }
        if (changed) for (listener in listeners) listenerExecutor.execute { isolated { listener.onPalette(palette, reason) } }
        return true
    }

    internal fun setStatus(status: Status) {
        if (this.status == status) return
        this.status = status
        for (listener in statusListeners) listenerExecutor.execute { isolated { listener.onStatus(status) } }
    }

    /** Records an error and tells the error listeners; `offline` also makes it the status. */
    internal fun report(error: ThemedClientException, offline: Boolean = true) {
        if (error.kind == ThemedClientException.Kind.CLOSED) return
        lastError = error
        for (listener in errorListeners) listenerExecutor.execute { isolated { listener.onError(error) } }
        if (offline) setStatus(Status.Offline(error))
    }

    // MARK: The first frame

    /** The palette kept on disk for the current theme and traits, published as [Reason.CACHED]. */
    fun loadCached(): Palette? {
        val url = paletteUrl()
        val body = cache?.entry(url)?.body ?: return null
        val cached = runCatching { Palette.parse(body) }.getOrNull() ?: return null
        publish(cached, Reason.CACHED, url, revisionsOf(body))
        return cached
    }

    /**
     * The first palette of an app that ships `themed export THEME --format bootstrap`'s file in its
     * assets (`text`): the newer of it and the disk copy, published as [Reason.BOOTSTRAP] or
     * [Reason.CACHED]. Taken from the file, the answer is kept on disk with the ETag of every
     * encoding the server sends, so the first request is a 304 while the theme is as exported,
     * whatever density and language the device asks with. A file that is cut, is no bootstrap or
     * is another theme's throws [ThemedClientException] ([ThemedClientException.Kind.BOOTSTRAP])
     * and changes nothing.
     */
    fun loadBootstrap(text: String): Palette {
        val url = paletteUrl()
        val root = runCatching { Json.parse(text) }.getOrNull() as? Map<*, *>
        if (root == null || root["format"] != "themed-bootstrap") throw bootstrapError("not a themed bootstrap file (or cut short)")
        if (root["theme"] != theme && theme != "current") throw bootstrapError("exported for theme ${root["theme"]}, the client follows $theme")
        val exportedAt = (root["exportedAt"] as? String)?.let { parseInstant(it) } ?: throw bootstrapError("no exportedAt time")
        val appearance = traits.appearance ?: "light"
        val contrast = if (traits.highContrast) "high" else "normal"
        val entry = (root["palettes"] as? List<*>)?.mapNotNull { it as? Map<*, *> }?.firstOrNull { it["appearance"] == appearance && it["contrast"] == contrast }
            ?: throw bootstrapError("no palette for appearance $appearance, contrast $contrast")
        val body = entry["body"] as? String ?: throw bootstrapError("its $appearance palette has no body")
        val palette = try { Palette.parse(body) } catch (error: JsonException) { throw bootstrapError("its $appearance palette: ${error.message}") }
        val written = cache?.written(url)
        if (written != null && written >= exportedAt) loadCached()?.let { return it }
        val etags = (entry["etags"] as? List<*>)?.filterIsInstance<String>() ?: listOfNotNull(entry["etag"] as? String)
        try {
            cache?.store(url, body, etags.joinToString(", ").takeIf { it.isNotEmpty() })
        } catch (error: ThemedClientException) {
            report(error, offline = false)
        }
        publish(palette, Reason.BOOTSTRAP, url, revisionsOf(body))
        return palette
    }

    private fun bootstrapError(message: String) = ThemedClientException(ThemedClientException.Kind.BOOTSTRAP, message)

    // MARK: Fetching

    /** Fetches the palette (a 304 answers from the disk cache); null when it failed. Blocks. */
    fun refresh(): Palette? = if (fetchPalette(Reason.FETCHED)) palette else null

    /**
     * Revalidates what the client shows: call it when the app returns to the foreground or the
     * network comes back (the event stream does it when it reopens). Following an alias, the
     * assignment is asked again first. A 304 costs a round trip and publishes nothing. Blocks.
     */
    fun revalidate(): Palette? = if (revalidated()) palette else null

    internal fun revalidated(): Boolean {
        if (audience != null) {
            try { assign() } catch (error: ThemedClientException) { report(error); return false }
        }
        return fetchPalette(Reason.REVALIDATED)
    }

    /** One palette request; whether it succeeded (a stale answer dropped counts as one). */
    internal fun fetchPalette(reason: Reason): Boolean {
        if (transport.closed) return false
        val request = requestsMade.incrementAndGet()
        val url = paletteUrl()
        try {
            val cached = cache?.entry(url)
            val answer = transport.get(url, cached?.etag)
            val body = when (answer.status) {
                304 -> cached?.body ?: throw ThemedClientException(ThemedClientException.Kind.INVALID_RESPONSE, "304 without a cached copy")
                200 -> answer.body
                404 -> if (audience != null) return pinnedGenerationGone(reason, url) else throw statusError(404, url)
                else -> throw statusError(answer.status, url)
            }
            val fetched = try { Palette.parse(body) } catch (error: JsonException) {
                throw ThemedClientException(ThemedClientException.Kind.INVALID_RESPONSE, "$url: not a palette (${error.message})", cause = error)
            }
            val degraded = isDegraded(body)
            val missing = if (degraded) keptMissing(fetched.colors, url) else emptyMap()
            val shown = if (missing.isEmpty()) fetched else Palette(fetched.theme, fetched.colors + missing)
            lastError = null
            if (!publish(shown, reason, url, revisionsOf(body), request, if (degraded) Status.Degraded(missing.keys.sorted()) else Status.Live)) return true
            lastFetch = if (answer.status == 304) FetchOutcome.NOT_MODIFIED else FetchOutcome.FETCHED
            // Only a whole palette replaces the disk copy: a degraded one would lose the missing colours.
            if (answer.status == 200 && !degraded) {
                try { cache?.store(url, body, answer.etag) } catch (error: ThemedClientException) { report(error, offline = false) }
            }
            return true
        } catch (error: ThemedClientException) {
            lastFetch = FetchOutcome.FAILED
            report(error)
            return false
        }
    }

    /** The pinned generation is no longer served: the assignment has moved on. Read again only when it has. */
    private fun pinnedGenerationGone(reason: Reason, url: String): Boolean {
        val pinned = theme
        val moved = runCatching { assign() }.isSuccess && theme != pinned
        if (moved) return fetchPalette(reason)
        lastFetch = FetchOutcome.FAILED
        report(statusError(404, url))
        return false
    }

    private fun isDegraded(body: String): Boolean = (runCatching { Json.parse(body) }.getOrNull() as? Map<*, *>)?.get("status") == "degraded"

    /** A palette answer's `revisions`: what each theme of its chain held when it was answered. */
    private fun revisionsOf(body: String): Map<String, String> {
        val revisions = (runCatching { Json.parse(body) }.getOrNull() as? Map<*, *>)?.get("revisions") as? Map<*, *> ?: return emptyMap()
        return revisions.entries.mapNotNull { (theme, revision) -> if (theme is String && revision is String) theme to revision else null }.toMap()
    }

    /**
     * Whether the palette held already has what an event announces: the revision it names of
     * `theme` (`asTheme`: as the palette's own theme, for a switch, not only in its chain).
     */
    internal fun holds(theme: String?, revision: String?, asTheme: Boolean): Boolean {
        if (theme == null || revision.isNullOrEmpty()) return false
        return synchronized(this) { revisions[theme] == revision && (!asTheme || palette?.theme == theme) }
    }

    /** The last good value of each colour a degraded answer lacks (the palette held for it, else the disk copy's). */
    private fun keptMissing(colors: Map<String, ThemeColor>, url: String): Map<String, ThemeColor> {
        val good = (if (paletteSource == url) palette else null)
            ?: cache?.entry(url)?.let { runCatching { Palette.parse(it.body) }.getOrNull() } ?: return emptyMap()
        return good.colors.filterKeys { it !in colors }
    }

    /** New traits (an Android configuration change), then the palette for them. Blocks. */
    fun setTraits(traits: Traits): Palette? {
        this.traits = traits
        return if (fetchPalette(Reason.TRAITS_CHANGED)) palette else null
    }

    /** Another theme (`current` follows the server's active one; no alias any more), then its palette. Blocks. */
    fun setTheme(theme: String): Palette? {
        audience = null
        assignment = null
        this.theme = theme
        follower.reopen()
        return refresh()
    }

    /** `@` stays as it is: a pinned theme (`dark@3`) is one path segment, as `/assign`'s `base` writes it. */
    fun paletteUrl(): String = "$server/themes/${Traits.encode(theme).replace("%40", "@")}/colors?${traits.query()}"

    // MARK: Strings and dimensions by name

    /**
     * A string table for the client's languages (`Traits.languages`), as `/strings/{table}`
     * answers it (fallbacks to the development language included): read once until the palette
     * changes, revalidated and kept on disk as palettes are; the disk copy when the server cannot
     * answer; empty when there is none. Blocks the first time.
     */
    fun strings(table: String): Map<String, String> {
        val languages = if (traits.languages.isEmpty()) "" else "?lang=" + Traits.encode(traits.languages.joinToString(","))
        val url = "$server/themes/${Traits.encode(theme).replace("%40", "@")}/strings/${Traits.encode(table)}$languages"
        val body = answer(url) ?: return emptyMap()
        val strings = (runCatching { Json.parse(body) }.getOrNull() as? Map<*, *>)?.get("strings") as? Map<*, *> ?: return emptyMap()
        return strings.entries.mapNotNull { (key, value) -> if (key is String && value is String) key to value else null }.toMap()
    }

    /** One string of `table`, or `fallback` when there is none. */
    fun string(table: String, key: String, fallback: String): String = strings(table)[key] ?: fallback

    /**
     * A dimension design token (`space.2`) in dp (a CSS px is a dp, a rem 16 of them), as
     * `/tokens/{path}` answers it; `fallback` when the theme has none, it is not a dimension in
     * those units, or neither the server nor the disk copy answers.
     */
    fun dimension(path: String, fallback: Float): Float {
        val url = "$server/themes/${Traits.encode(theme).replace("%40", "@")}/tokens/${path.split('.').joinToString("/") { Traits.encode(it) }}"
        val token = answer(url)?.let { runCatching { Json.parse(it) }.getOrNull() } as? Map<*, *> ?: return fallback
        val value = token["\$value"] as? Map<*, *>
        if (token["\$type"] != "dimension" || value == null) return fallback
        val amount = value["value"] as? Double ?: return fallback
        return when (value["unit"]) {
            "px" -> amount.toFloat()
            "rem" -> (amount * 16).toFloat()
            else -> fallback
        }
    }

    /** The JSON answer of `url`: the one read since the palette last changed, the server's, else the disk copy. */
    private fun answer(url: String): String? {
        answers[url]?.let { return it }
        val cached = cache?.entry(url)
        val body = try {
            val answer = transport.get(url, cached?.etag)
            when (answer.status) {
                304 -> cached?.body
                200 -> answer.body.takeIf { runCatching { Json.parse(it) }.isSuccess }?.also { body ->
                    try { cache?.store(url, body, answer.etag) } catch (error: ThemedClientException) { report(error, offline = false) }
                }
                else -> null
            }
        } catch (error: ThemedClientException) {
            report(error, offline = false)
            cached?.body
        }
        body?.let { answers[url] = it }
        return body
    }

    // MARK: Aliases

    /**
     * Follows `alias`: asks the server which theme and generation this client reads (by the id it
     * keeps, its platform, app version, locale and attributes), reads the palette at that pinned
     * generation, and asks again when an `assignment-changed` event names the alias or a `resync`
     * comes (while [follow] runs), when the stream reopens, and when the pinned generation is gone.
     * The answer is kept in the cache folder: with the server away, the client follows the last
     * assignment it was given (its palette from the disk copy) and says so in [status]. Blocks;
     * null when it failed and none was kept ([lastError]).
     */
    @JvmOverloads
    fun followAlias(alias: String, platform: String? = "android", appVersion: String? = null, locale: String? = null,
                    attributes: Map<String, String> = emptyMap()): Assignment? {
        val query = mutableListOf("client=" + Traits.encode(clientId))
        platform?.let { query += "platform=" + Traits.encode(it) }
        appVersion?.let { query += "appVersion=" + Traits.encode(it) }
        locale?.let { query += "locale=" + Traits.encode(it) }
        for ((name, value) in attributes.toSortedMap()) query += Traits.encode(name) + "=" + Traits.encode(value)
        audience = Pair(alias, query.joinToString("&"))
        follower.reopen()
        return try {
            val assigned = assign()
            refresh()
            assigned
        } catch (error: ThemedClientException) {
            report(error)
            val kept = keptAssignment(alias) ?: return null
            take(kept)
            loadCached()
            kept
        }
    }

    /** Asks `/assign` again and follows the answer's pinned base; keeps it for an offline start. */
    internal fun assign(): Assignment {
        val (alias, query) = audience ?: throw ThemedClientException(ThemedClientException.Kind.INVALID_RESPONSE, "no alias is followed")
        val url = "$server/assign/${Traits.encode(alias)}?$query"
        val answer = transport.get(url)
        if (answer.status != 200) throw statusError(answer.status, url)
        val assigned = parseAssignment(answer.body) ?: throw ThemedClientException(ThemedClientException.Kind.INVALID_RESPONSE, "$url: not an assignment")
        // Still the alias followed (not left for setTheme while the answer was on its way).
        if (audience?.first != alias) return assigned
        take(assigned)
        try { cache?.keep(assignmentFile(alias), answer.body) } catch (error: ThemedClientException) { report(error, offline = false) }
        return assigned
    }

    private fun take(assigned: Assignment) {
        assignment = assigned
        theme = "${assigned.theme}@${assigned.generation}"
    }

    private fun keptAssignment(alias: String): Assignment? = cache?.kept(assignmentFile(alias))?.let { parseAssignment(it) }

    private fun assignmentFile(alias: String) = "assignment-" + Traits.encode(alias) + ".json"

    private fun parseAssignment(body: String): Assignment? {
        val root = runCatching { Json.parse(body) }.getOrNull() as? Map<*, *> ?: return null
        val theme = root["theme"] as? String ?: return null
        val generation = (root["generation"] as? Double)?.toInt() ?: return null
        val base = root["base"] as? String ?: return null
        return Assignment(theme, generation, base, root["reason"] as? String ?: "")
    }

    // MARK: Following the server's events

    /**
     * Listens to `/events` on a thread of its own until [close] (the events of what the client
     * follows: `?theme=` its theme, `current` or its alias), reconnecting after any failure with
     * exponential backoff and jitter (or the server's `retry:`), resuming with `Last-Event-ID`.
     * Each (re)open revalidates. A call while it follows changes nothing.
     */
    @JvmOverloads
    fun follow(minimumDelayMillis: Long = 250, maximumDelayMillis: Long = 30_000) = follower.start(minimumDelayMillis, maximumDelayMillis)

    /** Whether the event stream's thread runs. */
    val isFollowing: Boolean get() = follower.isRunning

    /** The id of the last event handled, sent as `Last-Event-ID` when the stream reconnects. */
    val lastEventId: String? get() = follower.lastEventId

    /**
     * Stops the client: the event stream and every request in flight are cut now (their callers
     * get the last good palette back), nothing is fetched after. Returns at once, without waiting
     * for the stream's thread: it may be called from `onDestroy`.
     */
    override fun close() {
        transport.close()
        follower.stop()
        listeners.clear()
        statusListeners.clear()
    }

    /**
     * The id this client gives `/assign`: the one the app passed, else made once at random and kept
     * beside the cache (without a cache directory, for this process's life), so the client stays
     * in its rollout bucket. A folder that cannot be written is reported: the id then lasts this
     * process only.
     */
    val clientId: String by lazy {
        givenClientId ?: run {
            val made = java.util.UUID.randomUUID().toString()
            val cache = cache ?: return@run made
            cache.kept("client-id")?.trim()?.takeIf { it.isNotEmpty() } ?: run {
                try { cache.keep("client-id", made) } catch (error: ThemedClientException) { report(error, offline = false) }
                made
            }
        }
    }

    internal companion object {
        /** RFC 3339 in UTC as the exporter writes it (`2026-11-28T03:01:46Z`), without java.time (API 26). */
        fun parseInstant(text: String): Long? {
            val format = SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.US)
            format.timeZone = TimeZone.getTimeZone("UTC")
            return runCatching { format.parse(text)?.time }.getOrNull()
        }
    }
}

internal fun statusError(code: Int, url: String) =
    ThemedClientException(ThemedClientException.Kind.STATUS, "$url answered $code", status = code)
