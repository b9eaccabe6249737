package themed.client.compose

import androidx.compose.material3.darkColorScheme
import androidx.compose.material3.lightColorScheme
import androidx.compose.ui.graphics.Color
import org.junit.Assert.assertEquals
import org.junit.Test
import themed.client.Palette
import themed.client.ThemeColor

/** The Compose glue against the stubs: which role takes which colour. */
class ThemedColorSchemeTest {
    private fun color(hex: String) = ThemeColor(hex, "", "srgb", emptyList())

    @Test
    fun eachRoleThePaletteNamesTakesItsColourTheOthersKeepTheBaseline() {
        val palette = Palette("m3", mapOf("primary" to color("#112233FF"), "onPrimary" to color("#FFFFFF80"), "notARole" to color("#000000FF")))
        val light = ThemedColorScheme.from(palette, dark = false)
        assertEquals(Color(0xFF112233.toInt()), light.primary)
        assertEquals(Color(0x80FFFFFF.toInt()), light.onPrimary)
        assertEquals(lightColorScheme().secondary, light.secondary)
        assertEquals(darkColorScheme().secondary, ThemedColorScheme.from(palette, dark = true).secondary)
        assertEquals(darkColorScheme(), ThemedColorScheme.from(null, dark = true))
        assertEquals(29, ThemedColorScheme.roles.size)
    }
}
