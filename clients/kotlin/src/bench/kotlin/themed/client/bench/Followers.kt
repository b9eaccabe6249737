package themed.client.bench

import themed.client.ThemedClient
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

/**
 * `make bench-clients`' crowd: `count` Kotlin clients following `current` on one themed, each with
 * its own event stream, as many phones would. Prints `ready` once every stream is open (each has
 * its first id), then keeps them following until standard input closes, and prints how many
 * palettes each client was published (scripts/bench-clients.py counts the server's requests).
 */
fun main(args: Array<String>) {
    val server = args.getOrNull(0) ?: error("usage: FollowersKt URL COUNT")
    val count = args.getOrNull(1)?.toInt() ?: 1000
    val pool = Executors.newFixedThreadPool(16)
    val clients = (0 until count).map { ThemedClient.Builder(server).theme("current").requestTimeoutMillis(30_000).build() }
    clients.map { client -> pool.submit { client.refresh() } }.forEach { it.get() }
    for (client in clients) client.follow(250, 5_000)
    val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120)
    while (clients.any { it.lastEventId == null }) {
        if (System.nanoTime() > deadline) error("${clients.count { it.lastEventId == null }} streams did not open")
        Thread.sleep(20)
    }
    println("ready $count")
    System.out.flush()
    while (System.`in`.read() >= 0) { }
    for (client in clients) client.close()
    pool.shutdown()
}
