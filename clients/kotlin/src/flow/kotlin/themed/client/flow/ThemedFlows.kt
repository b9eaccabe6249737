package themed.client.flow

import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow
import themed.client.Palette
import themed.client.Status
import themed.client.ThemedClient

/**
 * The client's palette and status as `StateFlow`s, for an app built on coroutines (a ViewModel's
 * `val palette = ThemedFlows(client).palette`, collected with `collectAsState()` in Compose).
 * Source to copy into an app, like the Compose glue: Debian's kotlinx-coroutines is too old to
 * build it here, so `make kotlin-check` compiles it against stubs with the coroutines' signatures.
 * Close it when the flows are no longer collected.
 */
class ThemedFlows(client: ThemedClient) : AutoCloseable {
    private val palettes = MutableStateFlow(client.palette)
    private val statuses = MutableStateFlow(client.status)

    /** The palette held, then each new one. */
    val palette: StateFlow<Palette?> = palettes.asStateFlow()

    /** Where the client stands: connecting, live, offline, degraded. */
    val status: StateFlow<Status> = statuses.asStateFlow()

    private val handles = listOf(
        client.addListener { updated, _ -> palettes.value = updated },
        client.addStatusListener { updated -> statuses.value = updated }
    )

    init {
        // What the client published between the flows' making and their listeners is not lost.
        palettes.value = client.palette
    }

    override fun close() {
        for (handle in handles) handle.close()
    }
}
