package themed.client

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File
import java.nio.file.Files

/**
 * The client against two replicas of a cluster store (`make kotlin-cluster-check`: scripts/cluster.py
 * starts a throwaway PostgreSQL and the replicas, publishes `light` into a rollout to 10% and names
 * them here): each client follows `current` with an id of its own kept beside its cache.
 */
class ThemedClientReplicaTest {
    private val ports = (System.getProperty("themed.replicas") ?: error("-Dthemed.replicas is not set")).split(",")
    private val rolloutGeneration = (System.getProperty("themed.rollout.generation") ?: error("-Dthemed.rollout.generation is not set")).toInt()

    @Test
    fun aRolloutToTenPercentOfAThousandClientsLandsEightToTwelvePercentAndSticksAcrossRestartsAndReplicas() {
        val work = Files.createTempDirectory("themed-kotlin-replicas-").toFile()
        try {
            val first = (0 until 1000).map { n ->
                val client = ThemedClient("http://127.0.0.1:${ports[0]}", cacheDirectory = File(work, "client$n"))
                val assignment = client.followAlias("current") ?: error("client $n: ${client.lastError}")
                assertEquals("the palette at the pinned generation", "light", client.palette?.theme?.substringBefore('@'))
                assignment.generation
            }
            val inRollout = first.count { it == rolloutGeneration }
            println("rollout of generation $rolloutGeneration at 10%: $inRollout of 1000 clients")
            assertTrue("$inRollout of 1000 in the rollout", inRollout in 80..120)
            // The same clients started again (their ids read back from disk) on the other replica.
            val again = (0 until 1000).map { n ->
                ThemedClient("http://127.0.0.1:${ports[1]}", cacheDirectory = File(work, "client$n")).followAlias("current")?.generation
            }
            assertEquals("every client keeps its generation", first, again)
        } finally {
            work.deleteRecursively()
        }
    }
}
