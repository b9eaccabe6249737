package themed.client

import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotNull
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Before
import org.junit.Test
import java.io.File
import java.net.HttpURLConnection
import java.net.ServerSocket
import java.net.URL
import java.nio.file.Files
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicReference

/**
 * The client against a real themed: `themed serve` on the sample themes (folder mode), started
 * for each test from the binary `-Dthemed.binary` names, on a throwaway index.
 */
class ThemedClientTest {
    private lateinit var work: File
    private lateinit var server: Process
    private var port = 0
    private val base get() = "http://127.0.0.1:$port"

    @Before
    fun start() {
        work = Files.createTempDirectory("themed-kotlin-").toFile()
        startServer()
    }

    /** `themed serve` on `port` (a free one by default), its index and access log in `work`. */
    private fun startServer(port: Int = ServerSocket(0).use { it.localPort }) {
        val binary = System.getProperty("themed.binary") ?: fail("-Dthemed.binary is not set").let { "" }
        val themes = System.getProperty("themed.themes") ?: fail("-Dthemed.themes is not set").let { "" }
        this.port = port
        server = ProcessBuilder(binary, "serve", "--themes", themes, "--db", File(work, "index.sqlite").path, "--port", port.toString(),
                                "--access-log", File(work, "access.log").path)
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(File(work, "themed.log"))).start()
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20)
        while (System.nanoTime() < deadline) {
            if (runCatching { status("GET", "/healthz") == 200 }.getOrDefault(false)) return
            if (!server.isAlive) fail("themed exited: " + File(work, "themed.log").readText())
            Thread.sleep(50)
        }
        fail("themed did not answer /healthz in 20 s")
    }

    @After
    fun stop() {
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS)
        work.deleteRecursively()
    }

    private fun status(method: String, path: String, body: String? = null): Int {
        val connection = URL(base + path).openConnection() as HttpURLConnection
        connection.requestMethod = method
        connection.connectTimeout = 2_000
        if (body != null) {
            connection.doOutput = true
            connection.setRequestProperty("Content-Type", "application/json")
            connection.outputStream.use { it.write(body.toByteArray()) }
        }
        return try { connection.responseCode } finally { connection.disconnect() }
    }

    private fun get(path: String): String = (URL(base + path).openConnection() as HttpURLConnection).inputStream.use { it.readBytes().toString(Charsets.UTF_8) }

    @Test
    fun paletteEqualsTheColourRouteForTheTraitsAsked() {
        val client = ThemedClient(base, "light", Traits(appearance = "dark"))
        val palette = client.refresh() ?: fail("no palette: ${client.lastError}").let { return }
        assertEquals("light", palette.theme)
        assertTrue(palette.colors.isNotEmpty())
        for ((name, color) in palette.colors) {
            val route = Json.parse(get("/themes/light/colors/${Traits.encode(name)}?appearance=dark")) as Map<*, *>
            assertEquals(name, route["hex"], color.hex)
        }
        val primary = palette.colors.getValue("primary")
        assertEquals(primary.argb, palette.color("primary", 0))
        assertEquals(0x12345678, palette.color("no such colour", 0x12345678))
    }

    @Test
    fun revalidatesWithItsETagAndKeepsTheAnswerOnDisk() {
        val cache = File(work, "cache")
        val client = ThemedClient(base, "dark", cacheDirectory = cache)
        val first = client.refresh()
        assertEquals(ThemedClient.FetchOutcome.FETCHED, client.lastFetch)
        assertEquals(first, client.refresh())
        assertEquals("the second ask is a 304", ThemedClient.FetchOutcome.NOT_MODIFIED, client.lastFetch)
        // Another client with the same cache starts from the last good palette, before any request.
        assertEquals(first, ThemedClient(base, "dark", cacheDirectory = cache).loadCached())
    }

    @Test
    fun startsFromTheCacheWhenTheServerIsDownAndKeepsIt() {
        val cache = File(work, "cache")
        val fetched = ThemedClient(base, "light", cacheDirectory = cache).refresh()
        assertNotNull(fetched)
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS)
        val offline = ThemedClient(base, "light", cacheDirectory = cache)
        assertEquals(fetched, offline.loadCached())
        assertNull("the server is down", offline.refresh())
        assertEquals(ThemedClient.FetchOutcome.FAILED, offline.lastFetch)
        assertNotNull(offline.lastError)
        assertEquals("the last good palette stays", fetched, offline.palette)
        // No cache and no server: nothing, and it says why.
        val empty = ThemedClient(base, "light", cacheDirectory = File(work, "empty"))
        assertNull(empty.loadCached())
        assertNull(empty.refresh())
    }

    @Test
    fun aSwitchOfTheActiveThemeReachesAListenerThroughTheEventStream() {
        val client = ThemedClient(base, "current", Traits(appearance = "light"))
        val before = client.refresh() ?: fail("no palette: ${client.lastError}").let { return }
        val other = if (before.theme == "dark") "light" else "dark"
        val switched = CountDownLatch(1)
        val arrived = AtomicReference<Palette>()
        client.addListener { palette, reason ->
            if (reason == ThemedClient.Reason.EVENT && palette.theme == other) { arrived.set(palette); switched.countDown() }
        }
        client.follow()
        // The stream is open once its first id arrived (the server says where it starts).
        val open = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
        while (client.lastEventId == null && System.nanoTime() < open) Thread.sleep(10)
        val start = System.nanoTime()
        assertEquals(200, status("PUT", "/active", """{"theme": "$other"}"""))
        assertTrue("the switch did not reach the listener in 2 s: ${client.lastError}", switched.await(2, TimeUnit.SECONDS))
        val millis = (System.nanoTime() - start) / 1_000_000
        println("switch to listener: $millis ms")
        assertTrue("a switch reaches a listener within 100 ms of the PUT (issue 57): $millis ms", millis <= 100)
        assertEquals(other, arrived.get().theme)
        client.close()
        val ended = System.nanoTime() + TimeUnit.SECONDS.toNanos(2)
        while (client.isFollowing && System.nanoTime() < ended) Thread.sleep(10)
        assertFalse("close() stops the event thread (without waiting for it)", client.isFollowing)
    }

    @Test
    fun aServerRestartIsResumedByLastEventIdWithoutAResyncOrARefetch() {
        val client = ThemedClient(base, "current", Traits(appearance = "light"))
        val before = client.refresh() ?: fail("no palette: ${client.lastError}").let { return }
        client.follow(minimumDelayMillis = 100)
        val open = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
        while (client.lastEventId == null && System.nanoTime() < open) Thread.sleep(10)
        val position = client.lastEventId
        assertNotNull(position)

        // The server stops (a deploy) and starts again on the same port and index: its event ids go on.
        server.destroy()
        server.waitFor(10, TimeUnit.SECONDS)
        val log = File(work, "access.log")
        val linesBefore = log.readLines().size
        startServer(port)
        val other = if (before.theme == "dark") "light" else "dark"
        val switched = CountDownLatch(1)
        client.addListener { palette, reason -> if (reason == ThemedClient.Reason.EVENT && palette.theme == other) switched.countDown() }
        // Whether the client is back on the stream yet or not: resuming after its last id, it is
        // replayed the switch if it comes back later.
        assertEquals(200, status("PUT", "/active", """{"theme": "$other"}"""))
        switched.await(10, TimeUnit.SECONDS)
        assertEquals("the switch after the restart reached the client: ${client.lastError}", 0, switched.count)
        Thread.sleep(500) // the access log is written at most 0.2 s behind
        val palettesAsked = log.readLines().drop(linesBefore).filter { it.contains("/colors?") }
        // One palette downloaded: the switch's. A reopened stream revalidates, a 304 (when it came
        // back before the switch); a resync would have downloaded once more at reconnection.
        val downloaded = palettesAsked.filter { it.contains("\" 200 ") }
        assertEquals("asked $palettesAsked", 1, downloaded.size)
        assertTrue("asked $palettesAsked", palettesAsked.all { it.contains("\" 200 ") || it.contains("\" 304 ") })
        assertTrue("the ids went on from $position: ${client.lastEventId}", client.lastEventId != position)
        client.close()
    }

    @Test
    fun aBrokenAnswerKeepsTheLastGoodPalette() {
        // A server that answers a palette, then a 500, then JSON cut short, then garbage.
        val good = get("/themes/light/colors?resolve=1")
        val answers = listOf("200" to good, "500" to "{}", "200" to good.substring(0, good.length / 2), "200" to "not json")
        ServerSocket(0).use { fake ->
            val thread = Thread {
                for ((status, body) in answers) {
                    fake.accept().use { socket ->
                        val reader = socket.getInputStream().bufferedReader()
                        while (reader.readLine()?.isNotEmpty() == true) { }
                        val bytes = body.toByteArray()
                        socket.getOutputStream().write(("HTTP/1.1 $status X\r\nContent-Length: ${bytes.size}\r\nConnection: close\r\n\r\n").toByteArray() + bytes)
                    }
                }
            }
            thread.start()
            val fakeServer = "http://127.0.0.1:${fake.localPort}"
            val client = ThemedClient(fakeServer, "light", cacheDirectory = File(work, "cache"))
            val first = client.refresh()
            assertNotNull(first)
            repeat(3) {
                assertNull(client.refresh())
                assertEquals(first, client.palette)
                assertNotNull(client.lastError)
            }
            thread.join(5_000)
            // What was kept on disk is the good answer, not a broken one.
            assertEquals(first, ThemedClient(fakeServer, "light", cacheDirectory = File(work, "cache")).loadCached())
        }
    }

    private fun exportBootstrap(): String {
        val out = File(work, "bootstrap")
        val export = ProcessBuilder(System.getProperty("themed.binary"), "export", "light", "--format", "bootstrap", "-o", out.path,
                                    "--themes", System.getProperty("themed.themes")).redirectErrorStream(true).start()
        val printed = export.inputStream.bufferedReader().readText()
        assertEquals(printed, 0, export.waitFor())
        return File(out, "themed-bootstrap.json").readText()
    }

    @Test
    fun startsFromTheBootstrapTheAppShipsAndRevalidatesItsAnswer() {
        val bootstrap = exportBootstrap()
        val served = ThemedClient(base, "light", Traits(appearance = "dark", highContrast = true)).refresh()
        // No server and no disk copy: the shipped file answers, the first frame has colours.
        val client = ThemedClient("http://127.0.0.1:1", "light", Traits(appearance = "dark", highContrast = true), File(work, "cache"))
        assertEquals(served, client.loadBootstrap(bootstrap))
        // Kept with its ETags: against the real server, the first request is a 304, whatever
        // density and languages an Android device asks with (a palette's bytes do not depend on them).
        for ((n, traits) in listOf(Traits(appearance = "dark", highContrast = true),
                                   Traits.fromConfiguration(uiMode = 0x21, densityDpi = 420, locales = listOf("fr-CA"), highContrast = true)).withIndex()) {
            val online = ThemedClient(base, "light", traits, File(work, "cache-online-$n"))
            online.loadBootstrap(bootstrap)
            assertEquals(served, online.refresh())
            assertEquals("${traits.query()}", ThemedClient.FetchOutcome.NOT_MODIFIED, online.lastFetch)
        }
        // A disk copy newer than the file wins; an older one does not.
        val cache = File(work, "cache-newer")
        val light = ThemedClient(base, "light", Traits(appearance = "light"), cache)
        light.refresh()
        val reasons = mutableListOf<ThemedClient.Reason>()
        val newer = ThemedClient(base, "light", Traits(appearance = "light"), cache)
        newer.addListener { _, reason -> reasons.add(reason) }
        newer.loadBootstrap(bootstrap)
        assertEquals(listOf(ThemedClient.Reason.CACHED), reasons)
        cache.listFiles()?.forEach { it.setLastModified(0) }
        newer.loadBootstrap(bootstrap)
        assertEquals(listOf(ThemedClient.Reason.CACHED, ThemedClient.Reason.BOOTSTRAP), reasons)
        // Not a bootstrap, cut short, another theme's: an error that says so, and nothing published.
        val another = ThemedClient(base, "dark", Traits(appearance = "light"), cache)
        for ((file, expected) in listOf("{\"format\": \"other\"}" to "not a themed bootstrap", bootstrap.substring(0, bootstrap.length / 2) to "not a themed bootstrap",
                                       bootstrap to "exported for theme light")) {
            try { another.loadBootstrap(file); fail("took $expected") } catch (error: ThemedClientException) {
                assertEquals(ThemedClientException.Kind.BOOTSTRAP, error.kind)
                assertTrue("$error", error.message?.contains(expected) == true)
            }
        }
        assertNull(another.palette)
    }

    @Test
    fun followsAnAliasAtItsPinnedGenerationAndMovesWhenTheAliasDoes() {
        val rule = """{"theme": "light", "rules": [{"when": {"platform": ["android"]}, "theme": "dark"}]}"""
        assertEquals(200, status("PUT", "/aliases/acme", rule))
        val cache = File(work, "cache")
        val client = ThemedClient(base, cacheDirectory = cache)
        val assigned = client.followAlias("acme", platform = "android") ?: fail("no assignment: ${client.lastError}").let { return }
        assertEquals("the rule for android", "dark", assigned.theme)
        assertEquals("/themes/dark@${assigned.generation}", assigned.base)
        val dark = Palette.parse(get("/themes/dark/colors?resolve=1"))
        assertEquals(dark.colors, client.palette?.colors)
        // The id is kept beside the cache: the same client, the same bucket, after a restart.
        assertEquals(client.clientId, ThemedClient(base, cacheDirectory = cache).clientId)
        assertEquals(client.clientId, File(cache, "client-id").readText())

        val moved = CountDownLatch(1)
        client.addListener { _, reason -> if (reason == ThemedClient.Reason.EVENT && client.assignment?.theme == "light") moved.countDown() }
        client.follow()
        val open = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
        while (client.lastEventId == null && System.nanoTime() < open) Thread.sleep(10)
        assertEquals(200, status("PUT", "/aliases/acme", """{"theme": "light"}"""))
        assertTrue("assignment-changed did not move the client in 2 s: ${client.lastError}", moved.await(2, TimeUnit.SECONDS))
        assertEquals(Palette.parse(get("/themes/light/colors?resolve=1")).colors, client.palette?.colors)
        client.close()
    }

    @Test
    fun stringsAndDimensionsByNameWithFallbacksAndTheDiskCopyOffline() {
        val cache = File(work, "cache")
        val french = ThemedClient(base, "brand", Traits(languages = listOf("fr")), cache)
        assertEquals("Bienvenue", french.string("Localizable", "welcome", "?"))
        assertEquals("a key the table lacks", "fallback", french.string("Localizable", "no such key", "fallback"))
        val tokens = ThemedClient(base, "tokens", cacheDirectory = cache)
        assertEquals(8f, tokens.dimension("space.2", -1f))
        assertEquals("not a dimension", -1f, tokens.dimension("font.family.sans", -1f))
        assertEquals("no such token", -1f, tokens.dimension("space.nope", -1f))
        // Offline: the disk copies answer.
        server.destroyForcibly().waitFor(10, TimeUnit.SECONDS)
        assertEquals("Bienvenue", ThemedClient(base, "brand", Traits(languages = listOf("fr")), cache).string("Localizable", "welcome", "?"))
        assertEquals(8f, ThemedClient(base, "tokens", cacheDirectory = cache).dimension("space.2", -1f))
        assertEquals(emptyMap<String, String>(), ThemedClient(base, "brand", cacheDirectory = File(work, "empty")).strings("Localizable"))
    }

    @Test
    fun aStalledEventStreamIsGivenUpAndOpenedAgainKeepingThePalette() {
        // A server whose streams open and then say nothing, ever.
        val good = get("/themes/light/colors?resolve=1")
        val streams = java.util.concurrent.atomic.AtomicInteger()
        ServerSocket(0).use { stalling ->
            val thread = Thread {
                while (!stalling.isClosed) {
                    val socket = runCatching { stalling.accept() }.getOrNull() ?: break
                    Thread {
                        socket.use {
                            val reader = it.getInputStream().bufferedReader()
                            val requestLine = reader.readLine() ?: ""
                            while (reader.readLine()?.isNotEmpty() == true) { }
                            if (requestLine.contains("/events")) {
                                streams.incrementAndGet()
                                it.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nretry: 50\n\nid: s-1\n\n".toByteArray())
                                it.getOutputStream().flush()
                                Thread.sleep(5_000)
                            } else {
                                val bytes = good.toByteArray()
                                it.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: ${bytes.size}\r\nConnection: close\r\n\r\n".toByteArray() + bytes)
                            }
                        }
                    }.start()
                }
            }
            thread.isDaemon = true
            thread.start()
            val client = ThemedClient("http://127.0.0.1:${stalling.localPort}", "light", streamTimeoutMillis = 300)
            val palette = client.refresh()
            assertNotNull(palette)
            client.follow(minimumDelayMillis = 50)
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5)
            while (streams.get() < 3 && System.nanoTime() < deadline) Thread.sleep(20)
            assertTrue("the stalled stream was opened again: ${streams.get()} streams, ${client.lastError}", streams.get() >= 3)
            assertEquals("s-1", client.lastEventId)
            assertEquals(palette, client.palette)
            client.close()
        }
    }

    @Test
    fun traitsOfAnAndroidConfiguration() {
        val night = Traits.fromConfiguration(uiMode = 0x21, densityDpi = 420, locales = listOf("fr-CA"))
        assertEquals("dark", night.appearance)
        assertEquals("resolve=1&appearance=dark&dpr=2.625&lang=fr-CA", night.query())
        assertEquals("light", Traits.fromConfiguration(uiMode = 0x11, densityDpi = 160, locales = emptyList()).appearance)
    }

    @Test
    fun theJsonReaderReadsWhatThemedWritesAndRefusesTheRest() {
        val value = Json.parse("""{"a": [1, -2.5e1, true, null, "\u00e9\n\"x\""], "b": {}}""") as Map<*, *>
        assertEquals(listOf(1.0, -25.0, true, null, "é\n\"x\""), value["a"])
        for (broken in listOf("", "{", "[1,]", "{\"a\" 1}", "\"open", "01x", "[" .repeat(100) + "]".repeat(100), "{} x")) {
            try { Json.parse(broken); fail("parsed: $broken") } catch (expected: JsonException) { }
        }
    }
}
