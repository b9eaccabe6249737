package themed.client.bench

import themed.client.ThemedClient
import themed.client.Traits
import java.net.HttpURLConnection
import java.net.URL
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicReference

/**
 * `make bench-kotlin-client`: the Kotlin client against a running themed, measured as
 * `themed-bench client URL` measures the Swift one (scripts/bench-clients.py runs both on
 * one server): a palette fetched anew `fetches` times (no cache: a 200 each time), and `switches`
 * switches of the active theme, each from the `PUT /active` to the listener. Prints one JSON object.
 */
fun main(args: Array<String>) {
    val server = args.firstOrNull() ?: error("usage: Bench URL")
    val fetches = 300
    val switches = 20
    val fetcher = ThemedClient(server, "light", Traits(appearance = "dark"))
    val fetched = (0 until fetches).map {
        val start = System.nanoTime()
        fetcher.refresh() ?: error("fetch failed: ${fetcher.lastError}")
        (System.nanoTime() - start) / 1e6
    }

    // Offline start to first frame: a new client draws from its disk copy before it asks the
    // server anything (whether the server is there or not).
    val cache = java.io.File(System.getProperty("java.io.tmpdir"), "themed-client-bench-" + System.nanoTime())
    ThemedClient(server, "light", cacheDirectory = cache).refresh() ?: error("fetch failed")
    val firstFrames = (0 until 50).map {
        val start = System.nanoTime()
        ThemedClient(server, "light", cacheDirectory = cache).loadCached() ?: error("no disk copy")
        (System.nanoTime() - start) / 1e6
    }
    cache.deleteRecursively()

    val follower = ThemedClient(server, "current")
    var theme = (follower.refresh() ?: error("fetch failed: ${follower.lastError}")).theme
    val seen = AtomicReference<String?>(null)
    follower.addListener { palette, reason -> if (reason == ThemedClient.Reason.EVENT) seen.set(palette.theme) }
    follower.follow()
    while (follower.lastEventId == null) Thread.sleep(5)
    val switched = (0 until switches).map {
        theme = if (theme == "dark") "light" else "dark"
        seen.set(null)
        val start = System.nanoTime()
        put("$server/active", """{"theme": "$theme"}""")
        while (seen.get() != theme) {
            if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(5)) error("switch to $theme not heard: ${follower.lastError}")
            Thread.sleep(0, 200_000)
        }
        (System.nanoTime() - start) / 1e6
    }
    follower.close()
    fun percentile(values: List<Double>, fraction: Double) = values.sorted()[((values.size - 1) * fraction).toInt()]
    fun ms(value: Double) = Math.round(value * 1000) / 1000.0
    println("{\"fetch_p50_ms\": ${ms(percentile(fetched, 0.5))}, \"fetch_p90_ms\": ${ms(percentile(fetched, 0.9))}, " +
            "\"offline_first_frame_p50_ms\": ${ms(percentile(firstFrames, 0.5))}, " +
            "\"switch_max_ms\": ${ms(switched.max() ?: 0.0)}, \"switch_p50_ms\": ${ms(percentile(switched, 0.5))}}")
}

private fun put(url: String, body: String) {
    val connection = URL(url).openConnection() as HttpURLConnection
    connection.requestMethod = "PUT"
    connection.doOutput = true
    connection.setRequestProperty("Content-Type", "application/json")
    connection.outputStream.use { it.write(body.toByteArray()) }
    check(connection.responseCode == 200) { "PUT /active answered ${connection.responseCode}" }
    connection.disconnect()
}
