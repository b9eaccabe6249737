package themed.client.flow

import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import themed.client.Status
import themed.client.ThemedClient

/** The StateFlow adapter against the stubs: it follows a client's palette and status, and stops when closed. */
class ThemedFlowsTest {
    private fun bootstrap(hex: String) = """{"format": "themed-bootstrap", "version": 1, "theme": "t", "exportedAt": "2026-12-03T00:00:00Z",
        "palettes": [{"appearance": "light", "contrast": "normal", "etag": "\"e\"",
                      "body": "{\"theme\":\"t\",\"colors\":{\"primary\":{\"hex\":\"$hex\",\"css\":\"x\",\"colorSpace\":\"srgb\",\"components\":[0,0,0,1]}}}"}]}"""

    @Test
    fun followsThePaletteAndTheStatus() {
        val client = ThemedClient.Builder("http://127.0.0.1:1").theme("t").requestTimeoutMillis(500).build()
        val flows = ThemedFlows(client)
        assertNull(flows.palette.value)
        assertEquals(Status.Connecting, flows.status.value)
        client.loadBootstrap(bootstrap("#112233FF"))
        assertEquals("#112233FF", flows.palette.value?.colors?.get("primary")?.hex)
        client.refresh()
        assertTrue("${flows.status.value}", flows.status.value is Status.Offline)
        flows.close()
        client.loadBootstrap(bootstrap("#445566FF"))
        assertEquals("closed: no longer followed", "#112233FF", flows.palette.value?.colors?.get("primary")?.hex)
        client.close()
    }
}
