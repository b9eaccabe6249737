package themed.client

import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNotNull
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File
import java.net.InetSocketAddress
import java.util.Collections
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicReference

/**
 * The scenarios of docs/CLIENTS.md ("The contract", clients/scenarios.tsv) against a scripted
 * server that misbehaves on cue (the JDK's HttpServer), as the Swift suite's ScriptedServer and
 * scripts/check-client-js.py do. Those that need a real themed (bootstrap-304, restart-resumed)
 * are in ThemedClientTest.
 */
class ContractTest {
    private val work = File(System.getProperty("java.io.tmpdir"), "themed-contract-" + System.nanoTime())
    private val servers = mutableListOf<HttpServer>()
    private val quick = 20L

    @After
    fun cleanUp() {
        for (server in servers) server.stop(0)
        work.deleteRecursively()
    }

    /** A server answering every request with `answer`; its base URL. */
    private fun scripted(answer: (HttpExchange) -> Unit): String {
        val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0)
        server.executor = Executors.newCachedThreadPool()
        server.createContext("/") { exchange -> runCatching { answer(exchange) }; runCatching { exchange.close() } }
        server.start()
        servers += server
        return "http://127.0.0.1:${server.address.port}"
    }

    private fun send(exchange: HttpExchange, status: Int, body: String, type: String = "application/json") {
        val bytes = body.toByteArray()
        exchange.responseHeaders.add("Content-Type", type)
        exchange.sendResponseHeaders(status, if (bytes.isEmpty()) -1 else bytes.size.toLong())
        if (bytes.isNotEmpty()) exchange.responseBody.use { it.write(bytes) }
    }

    private fun palette(colors: Map<String, String>, status: String = "ok", revisions: Map<String, String> = emptyMap()): String =
        "{\"theme\":\"t\",\"status\":\"$status\",\"revisions\":{" +
            revisions.entries.joinToString(",") { (theme, revision) -> "\"$theme\":\"$revision\"" } + "},\"colors\":{" + colors.entries.joinToString(",") { (name, hex) ->
            "\"$name\":{\"hex\":\"$hex\",\"css\":\"$hex\",\"colorSpace\":\"srgb\",\"components\":[0,0,0,1]}"
        } + "}}"

    /** An event stream that writes `opening` and stays open (heartbeats) until the client leaves. */
    private fun stream(exchange: HttpExchange, opening: String) {
        exchange.responseHeaders.add("Content-Type", "text/event-stream")
        exchange.sendResponseHeaders(200, 0)
        val out = exchange.responseBody
        out.write(opening.toByteArray())
        out.flush()
        repeat(100) {
            Thread.sleep(100)
            out.write(": heartbeat\n\n".toByteArray())
            out.flush()
        }
    }

    private fun until(seconds: Long = 10, condition: () -> Boolean): Boolean {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
        while (System.nanoTime() < deadline) { if (condition()) return true; Thread.sleep(10) }
        return condition()
    }

    @Test
    fun offlineStartCatchUp() {
        val mode = AtomicReference("good")
        val base = scripted { exchange ->
            when {
                mode.get() == "down" -> send(exchange, 503, "{}")
                exchange.requestURI.path == "/events" -> stream(exchange, "retry: 20\n\nid: 1\n\n")
                else -> send(exchange, 200, palette(mapOf("primary" to if (mode.get() == "switched") "#0000FFFF" else "#00FF00FF")))
            }
        }
        val cache = File(work, "cache")
        assertNotNull(ThemedClient(base, "t", cacheDirectory = cache).refresh())
        mode.set("down")
        val client = ThemedClient(base, "t", cacheDirectory = cache)
        assertEquals("#00FF00FF", client.loadCached()?.colors?.get("primary")?.hex)
        assertNull(client.refresh())
        assertTrue("${client.status}", client.status is Status.Offline)
        client.follow(quick, 100)
        mode.set("switched")
        assertTrue("caught up: ${client.status}", until { client.palette?.colors?.get("primary")?.hex == "#0000FFFF" && client.status == Status.Live })
        client.close()
    }

    @Test
    fun staleAnswerDropped() {
        val base = scripted { exchange ->
            if (exchange.requestURI.query.contains("appearance=light")) {
                Thread.sleep(800)
                send(exchange, 200, palette(mapOf("primary" to "#FFFFFFFF")))
            } else send(exchange, 200, palette(mapOf("primary" to "#000000FF")))
        }
        val client = ThemedClient(base, "t", Traits(appearance = "light"))
        val slow = Thread { client.refresh() }
        slow.start()
        Thread.sleep(200)
        client.setTraits(Traits(appearance = "dark"))
        slow.join(5_000)
        assertEquals("#000000FF", client.palette?.colors?.get("primary")?.hex)
    }

    @Test
    fun degradedTheme() {
        val mode = AtomicReference("good")
        val base = scripted { exchange ->
            if (mode.get() == "broken") send(exchange, 200, palette(mapOf("background" to "#EEEEEEFF"), status = "degraded"))
            else send(exchange, 200, palette(mapOf("primary" to "#102030FF", "background" to "#FFFFFFFF")))
        }
        val cache = File(work, "cache")
        val client = ThemedClient(base, "t", cacheDirectory = cache)
        client.refresh()
        mode.set("broken")
        val kept = client.refresh()
        assertEquals("#102030FF", kept?.colors?.get("primary")?.hex)
        assertEquals("#EEEEEEFF", kept?.colors?.get("background")?.hex)
        assertEquals(Status.Degraded(listOf("primary")), client.status)
        assertEquals("the disk copy keeps it", "#102030FF", ThemedClient(base, "t", cacheDirectory = cache).loadCached()?.colors?.get("primary")?.hex)
    }

    @Test
    fun garbage200() {
        val mode = AtomicReference("good")
        val base = scripted { exchange ->
            when (mode.get()) {
                "portal" -> send(exchange, 200, "<html>Sign in to the Wi-Fi</html>", "text/html")
                "empty" -> send(exchange, 200, "{\"theme\":\"t\"}")
                else -> send(exchange, 200, palette(mapOf("primary" to "#102030FF")))
            }
        }
        val cache = File(work, "cache")
        val client = ThemedClient(base, "t", cacheDirectory = cache)
        val good = client.refresh()
        for (broken in listOf("portal", "empty")) {
            mode.set(broken)
            assertNull(broken, client.refresh())
            assertEquals(broken, good, client.palette)
            assertEquals(broken, ThemedClientException.Kind.INVALID_RESPONSE, client.lastError?.kind)
            assertEquals(broken, good, ThemedClient(base, "t", cacheDirectory = cache).loadCached())
        }
    }

    @Test
    fun cutStream() {
        val streams = AtomicInteger()
        val base = scripted { exchange ->
            if (exchange.requestURI.path == "/events") {
                streams.incrementAndGet()
                exchange.responseHeaders.add("Content-Type", "text/event-stream")
                exchange.sendResponseHeaders(200, 0)
                exchange.responseBody.use { it.write("id: 9\nevent: theme-rel".toByteArray()) }
            } else send(exchange, 200, palette(mapOf("primary" to "#102030FF")))
        }
        val client = ThemedClient(base, "t")
        val good = client.refresh()
        client.follow(quick, 50)
        assertTrue("reopened after each cut", until { streams.get() >= 3 })
        client.close()
        assertNull(client.lastEventId)
        assertEquals(good, client.palette)
    }

    @Test
    fun hungServer() {
        val hang = AtomicReference(false)
        val streams = AtomicInteger()
        val base = scripted { exchange ->
            if (exchange.requestURI.path == "/events") {
                streams.incrementAndGet()
                exchange.sendResponseHeaders(200, 0)
                Thread.sleep(5_000) // never a byte
            } else {
                if (hang.get()) Thread.sleep(5_000)
                send(exchange, 200, palette(mapOf("primary" to "#102030FF")))
            }
        }
        val client = ThemedClient.Builder(base).theme("t").requestTimeoutMillis(300).streamTimeoutMillis(300).build()
        val good = client.refresh()
        hang.set(true)
        val started = System.nanoTime()
        assertNull(client.refresh())
        val took = (System.nanoTime() - started) / 1_000_000
        assertTrue("ended at the request timeout: $took ms", took < 2_000)
        assertEquals(good, client.palette)
        assertEquals(ThemedClientException.Kind.TRANSPORT, (client.status as? Status.Offline)?.error?.kind)
        client.follow(quick, 50)
        assertTrue("reopened after each silence", until { streams.get() >= 3 })
        client.close()
    }

    @Test
    fun throwingListener() {
        val base = scripted { exchange -> send(exchange, 200, palette(mapOf("primary" to "#102030FF"))) }
        val client = ThemedClient(base, "t")
        val later = AtomicInteger()
        val errors = Collections.synchronizedList(mutableListOf<ThemedClientException>())
        client.addErrorListener { errors.add(it) }
        client.addListener { _, _ -> throw IllegalStateException("a listener that throws") }
        client.addListener { _, _ -> later.incrementAndGet() }
        assertNotNull("the fetch succeeds", client.refresh())
        assertEquals(1, later.get())
        assertEquals(Status.Live, client.status)
        assertTrue("$errors", errors.any { it.kind == ThemedClientException.Kind.LISTENER })
    }

    @Test
    fun closeWhileHanging() {
        val asked = AtomicInteger()
        val base = scripted { exchange -> asked.incrementAndGet(); Thread.sleep(10_000); send(exchange, 200, "{}") }
        val client = ThemedClient.Builder(base).theme("t").requestTimeoutMillis(60_000).build()
        val ended = AtomicReference<Long>()
        val waiting = Thread { client.refresh(); ended.set(System.nanoTime()) }
        waiting.start()
        assertTrue(until { asked.get() == 1 })
        val closing = System.nanoTime()
        client.close()
        val closed = (System.nanoTime() - closing) / 1_000_000
        assertTrue("close() took $closed ms", closed < 100)
        waiting.join(2_000)
        assertNotNull("the hung request was cut, not waited out (60 s)", ended.get())
        assertNull(client.refresh())
        assertEquals("a closed client asks nothing", 1, asked.get())
    }

    @Test
    fun unwritableCache() {
        val base = scripted { exchange -> send(exchange, 200, palette(mapOf("primary" to "#102030FF"))) }
        work.mkdirs()
        val blocker = File(work, "a-file")
        blocker.writeText("not a folder")
        val client = ThemedClient(base, "t", cacheDirectory = File(blocker, "cache"))
        val errors = Collections.synchronizedList(mutableListOf<ThemedClientException>())
        client.addErrorListener { errors.add(it) }
        assertNotNull(client.refresh())
        assertEquals(Status.Live, client.status)
        assertTrue("$errors", errors.any { it.kind == ThemedClientException.Kind.CACHE })
        assertEquals("from-the-keystore", ThemedClient.Builder(base).cacheDirectory(blocker).clientId("from-the-keystore").build().clientId)
    }

    @Test
    fun aliasOffline() {
        val mode = AtomicReference("good")
        val base = scripted { exchange ->
            when {
                mode.get() == "down" -> send(exchange, 503, "{}")
                exchange.requestURI.path.startsWith("/assign/") ->
                    send(exchange, 200, "{\"alias\":\"acme\",\"theme\":\"dark\",\"generation\":4,\"base\":\"/themes/dark@4\",\"reason\":\"default\"}")
                exchange.requestURI.path == "/events" -> stream(exchange, "retry: 20\n\nid: 1\n\n")
                else -> send(exchange, 200, palette(mapOf("primary" to "#222222FF")))
            }
        }
        val cache = File(work, "cache")
        val assigned = ThemedClient(base, cacheDirectory = cache).followAlias("acme")
        mode.set("down")
        val client = ThemedClient(base, cacheDirectory = cache)
        assertEquals(assigned, client.followAlias("acme"))
        assertEquals("dark@4", client.theme)
        assertEquals("#222222FF", client.palette?.colors?.get("primary")?.hex)
        assertTrue("${client.status}", client.status is Status.Offline)
        mode.set("good")
        client.follow(quick, 100)
        assertTrue("live again: ${client.status}", until { client.status == Status.Live })
        client.close()
    }

    @Test
    fun unrelatedReloadsIgnored() {
        val asked = Collections.synchronizedList(mutableListOf<String>())
        val base = scripted { exchange ->
            if (exchange.requestURI.path == "/events") {
                asked.add(exchange.requestURI.query ?: "")
                stream(exchange, "retry: 20\n\nid: 1\n\n")
            } else send(exchange, 200, palette(mapOf("primary" to "#102030FF")))
        }
        val client = ThemedClient(base, "current")
        client.follow(quick, 100)
        assertTrue(until { asked.isNotEmpty() })
        client.close()
        assertEquals("the stream asks for what the client follows", listOf("theme=current"), asked.toList())
    }

    @Test
    fun failedRefreshRetried() {
        val palettes = AtomicInteger()
        val streams = AtomicInteger()
        val base = scripted { exchange ->
            if (exchange.requestURI.path == "/events") {
                streams.incrementAndGet()
                val seen = exchange.requestHeaders.getFirst("Last-Event-ID") == "5"
                stream(exchange, "retry: 20\n\n" + (if (seen) "" else "id: 5\nevent: theme-reloaded\ndata: {\"theme\":\"t\"}\n\n") + "id: 5\n\n")
            } else {
                // The first answer, then a 500 (the event's refresh), then the new palette.
                val number = palettes.incrementAndGet()
                if (number == 2) send(exchange, 500, "{}") else send(exchange, 200, palette(mapOf("primary" to if (number == 1) "#000000FF" else "#FFFFFFFF")))
            }
        }
        val client = ThemedClient(base, "t")
        client.refresh()
        client.follow(quick, 100)
        assertTrue("retried: ${client.lastError}", until { client.palette?.colors?.get("primary")?.hex == "#FFFFFFFF" && client.lastEventId == "5" })
        assertTrue("the stream was reopened after the failed refresh", streams.get() >= 2)
        client.close()
    }

    @Test
    fun heldRevisionSkipped() {
        val palettes = AtomicInteger()
        val base = scripted { exchange ->
            if (exchange.requestURI.path == "/events") {
                stream(exchange, "retry: 20\n\nid: 1\n\n" +
                    "id: 2\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"revision\":\"r1\"}\n\n" +
                    "id: 3\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"revision\":\"r2\"}\n\n")
            } else {
                // The first answer and the opening's revalidation hold r1; r2 is fetched for its event.
                val number = palettes.incrementAndGet()
                send(exchange, 200, palette(mapOf("primary" to if (number <= 2) "#000000FF" else "#FFFFFFFF"),
                    revisions = mapOf("t" to if (number <= 2) "r1" else "r2")))
            }
        }
        val client = ThemedClient(base, "t")
        client.refresh()
        client.follow(quick, 100)
        assertTrue(until { client.lastEventId == "3" && client.palette?.colors?.get("primary")?.hex == "#FFFFFFFF" })
        client.close()
        assertEquals("the first answer, the opening's revalidation and r2's refetch; nothing for r1's replay", 3, palettes.get())
    }

    @Test
    fun refetchSpread() {
        val times = Collections.synchronizedList(mutableListOf<Long>())
        val base = scripted { exchange ->
            if (exchange.requestURI.path == "/events") {
                stream(exchange, "retry: 20\n\nid: 1\n\nid: 2\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"refetchWithin\":600}\n\n")
            } else { times.add(System.nanoTime()); send(exchange, 200, palette(mapOf("primary" to "#102030FF"))) }
        }
        val client = ThemedClient(base, "t")
        client.follow(quick, 100)
        assertTrue(until { client.lastEventId == "2" })
        client.close()
        assertEquals("the revalidation at the opening, then the event's refetch", 2, times.size)
        assertTrue("within the spread", (times[1] - times[0]) / 1_000_000 < 600 + 1_000)
    }
}
