package example;

import java.io.File;
import themed.client.Palette;
import themed.client.Status;
import themed.client.ThemedClient;
import themed.client.Traits;

/** A Java app using the client as an Android app written in Java would: no Unit.INSTANCE, no Companion. */
public final class App {
    public static void main(String[] arguments) throws Exception {
        ThemedClient client = new ThemedClient.Builder(arguments[0])
            .theme("light")
            .traits(Traits.fromConfiguration(0x21, 420, java.util.Collections.singletonList("fr-CA"), false))
            .cacheDirectory(new File(arguments[1]))
            .requestTimeoutMillis(5000)
            .build();
        client.addListener((palette, reason) -> System.out.println("palette " + palette.getTheme() + " " + reason));
        client.addStatusListener(status -> System.out.println("status " + status));
        ThemedClient plain = new ThemedClient(arguments[0]);
        Palette palette = client.refresh();
        System.out.println("primary " + (palette == null ? "none" : palette.getColors().get("primary").getHex()));
        System.out.println("offline " + (client.getStatus() instanceof Status.Offline));
        plain.close();
        client.close();
    }
}
